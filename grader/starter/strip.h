/*
 * strip.h - the starter text of one solution file (gpulab-starter).
 *
 * A solution file carries each solution region with the stub the student
 * sees written beside it:
 *
 *     // >>> SOLUTION
 *     ...the solution lines (dropped from the starter)...
 *     // === STUB
 *     ...the stub lines (copied to the starter as they are)...
 *     // <<< END
 *
 * A marker is alone on its line, inside a comment: `// M`, `/ * M * /` on one
 * line, or `# M` (any indentation, trailing blanks and CR allowed). Everything
 * else is copied byte for byte, line endings included. A file with a NUL byte
 * is binary: it is copied as it is and never scanned.
 */
#ifndef GPULAB_STARTER_STRIP_H
#define GPULAB_STARTER_STRIP_H

#include <stddef.h>
#include <stdio.h>

/** What starter_strip() found in a file. */
struct starter_info {
    size_t regions; /**< solution regions removed */
    int binary;     /**< 1: the file has a NUL byte and was copied as it is */
};

/**
 * @brief The starter text of a solution file.
 * @param name     the file's name, for messages (`name:line: message`)
 * @param in       the file's bytes
 * @param len      their number
 * @param[out] out the starter text (malloc'd, free() it); NULL on error
 * @param[out] out_len its length
 * @param[out] info what was found (may be NULL)
 * @param err      where each malformed marker is reported, one line each
 * @return 0 ok, -1 malformed markers (every problem reported on err), -2 out
 *         of memory. On error nothing is returned in *out.
 */
int starter_strip(const char *name, const char *in, size_t len, char **out, size_t *out_len,
                  struct starter_info *info, FILE *err);

#endif
