/* grader_checks.h — what lab 02's checks (grader_checks.c) share with the part
 * of them kept in a file of its own, grader_checks_logging.c (the logging
 * check), which keeps grader_checks.c under the house's ~600 lines. */
#ifndef GRADE_LAB02_H
#define GRADE_LAB02_H

#include "labs.h"

/* Reads outdir/<name>.npy; 1 on success, else 0 with why. */
int lab02_read_output(lab_npy_array *a, const char *outdir, const char *name, char *why,
                      size_t len);
/* Task 5, logging: a matrix that grows every norm by the same factor, and the
 * two logs the program writes (every step, and on the device). */
int lab02_logging(grade_case *c, const grade_env *env, char *why, size_t len);

#endif
