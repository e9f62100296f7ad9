/**
 * @file alloc.h
 * @brief Host allocation for lab programs: succeed or exit with a message.
 *
 * A lab harness has nothing sensible to do when the host is out of memory,
 * so instead of checking every malloc it calls lab_xmalloc() or
 * lab_xcalloc(), which print one line naming the size that could not be
 * allocated and exit with status 1 (LAB_EXIT_FAIL):
 *
 * @code
 * float *h_u = lab_xmalloc(sizeof(float) * n);
 * @endcode
 *
 * The library's own fallible functions never exit: they return LAB_ENOMEM.
 * These are for programs, not for library code.
 */
#ifndef LAB_ALLOC_H
#define LAB_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief malloc() that never returns NULL: on failure prints
 *        `out of memory: could not allocate N bytes (X MiB)` to stderr and
 *        exits with status 1.
 * @param bytes Size wanted; 0 is allowed and gives a valid, unique pointer.
 * @return The memory (uninitialized); release it with free().
 */
void *lab_xmalloc(size_t bytes);

/**
 * @brief calloc() that never returns NULL: zeroed memory for @p count
 *        elements of @p size bytes; on failure, or when count × size does not
 *        fit in a size_t, prints a message naming both numbers and exits
 *        with status 1.
 * @param count Number of elements; 0 is allowed.
 * @param size  Bytes per element.
 * @return The memory, all bytes zero; release it with free().
 */
void *lab_xcalloc(size_t count, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* LAB_ALLOC_H */
