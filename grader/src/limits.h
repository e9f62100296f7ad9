/*
 * The limits a graded run and a submission's build get, from the options and
 * the machine (limits.c). docs/grading.md "Isolation" states them for readers.
 */
#ifndef GPULAB_GRADE_LIMITS_H
#define GPULAB_GRADE_LIMITS_H

#include "grade.h"
#include "labs.h"
#include "runner.h"
#include "submit.h"

/* Output kept of each of stdout and stderr; a run that prints more fails its check. */
#define GRADE_OUTPUT_KEPT (16 << 20)
/* Descriptors a graded program may hold open at once (RLIMIT_NOFILE; the CUDA runtime needs a few
 * dozen). */
#define GRADE_MAX_FILES 1024
/* Files and folders a graded run's directory may hold, its inputs included (as root: a tmpfs of
 * that many inodes and GRADE_DIR_BYTES). */
#define GRADE_DIR_ENTRIES 4096
#define GRADE_DIR_BYTES ((size_t)1 << 30)
/* Address space a run's program needs beside the simulator's device arenas: the program, its
 * libraries, OpenBLAS's and the simulator's worker threads (their stacks). */
#define GRADE_HOST_SHARE ((size_t)2 << 30)

/* The limits of one run of check's program for case c (NULL: no case yet) on backend. *sim_mb
 * is what to put in GPULAB_SIM_MEMORY_MB (0: leave the check's own). */
grade_limits grade_run_limits_for(const options *o, const grade_check *check, const grade_case *c,
                                  const char *backend, unsigned long long *sim_mb);

/* The limits of a submission's build in build_dir. */
grade_build_limits grade_build_limits_for(const options *o, const char *build_dir);

#endif
