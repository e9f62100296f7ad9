/*
 * submit.h — grading a student's copy of labs/ (--submission) and a folder of
 * them (--batch). A submission is built out of tree against the kit: CMake
 * takes the student files from the submission (GPULAB_SUBMISSION_DIR) and
 * everything else from the kit, so a student's edits to a harness never count.
 */
#ifndef GRADE_SUBMIT_H
#define GRADE_SUBMIT_H

#include <stddef.h>

typedef struct grade_build {
    const char *source_dir;     /* the kit (its CMakeLists.txt) */
    const char *submission_dir; /* the student's labs/ copy, holding NN_x/ folders */
    const char *build_dir;      /* where to build; reused between submissions */
    const char *backend;        /* "sim" or "cuda": what to build */
    const char *const *labs;    /* lab names to build ("lab03") */
    int n_labs;
    int jobs;             /* parallel compile jobs */
    const char *log_path; /* every line of the configure and build goes here */
    int with_tests;       /* configure with BUILD_TESTING (the fixture lab lives there) */
} grade_build;

/* Configures and builds the student programs of the listed labs. A lab that
 * does not compile is not an error here (the grader says so for its checks);
 * a configure that fails is: -1 with why. Student programs left from an
 * earlier submission in the same build directory are removed first. */
int grade_build_submission(const grade_build *b, char *why, size_t why_len);

/* Why lab's program is missing after a build, read from its log: the first
 * compiler error in one of the lab's files, or the file the submission lacks.
 * dir is the lab's folder ("03_kernels"; NULL: from the name, lab03 -> 03_).
 * Returns 1 with a line in buf, 0 when the log says nothing about the lab. */
int grade_build_failure(const char *log_path, const char *lab, const char *dir, char *buf,
                        size_t len);

/* Runs a command with stdout and stderr appended to log_path (or inherited
 * when NULL); returns its exit status, or -1 when it could not run. */
int grade_run_logged(const char *const argv[], const char *log_path);

#endif
