/*
 * submit.h — grading a student's copy of labs/ (--submission) and a folder of
 * them (--batch). A submission is built out of tree against the kit: CMake
 * takes the student files from the submission (GPULAB_SUBMISSION_DIR) and
 * everything else from the kit, so a student's edits to a harness never count.
 */
#ifndef GRADE_SUBMIT_H
#define GRADE_SUBMIT_H

#include <stddef.h>
#include <sys/types.h>

/* The limits a submission's build runs under. CPU time and memory are per process (each
 * compiler has its own), the wall time is for the whole build. 0: no limit. */
typedef struct grade_build_limits {
    double cpu_seconds;  /* RLIMIT_CPU of every process of the build */
    size_t memory_bytes; /* RLIMIT_AS of every process of the build */
    double wall_seconds; /* the configure, and the build, each killed after this long */
    int drop;            /* as root: build as uid/gid (the build folder is made theirs) */
    uid_t uid;
    gid_t gid;
    const char *home; /* HOME for the build (its folder) */
} grade_build_limits;

/* The uid a submission's build runs as under root: this + the grader's pid (no passwd entry;
 * not the uid of any graded run, GRADE_RUN_UID_BASE + pid). */
#define GRADE_BUILD_UID_BASE 1400000000UL

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
    grade_build_limits limits;
} grade_build;

/* Configures and builds the student programs of the listed labs, from a copy of the
 * submission in build_dir/submission-copy (grade_copy_submission), under b->limits. A lab that
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

/* In a child about to run argv: stdin from /dev/null, and stdout and stderr appended to
 * log_path (when not NULL) after a line with the command ("$ cmake --build ... -j 1"), so the
 * log says what ran. Exits the child (127) when either cannot be opened. */
void grade_child_stdio(const char *const argv[], const char *log_path);

/* Copies a submission for its build: regular files and folders only, none bigger than 16 MiB
 * (64 MiB in all, 4096 entries, 8 folders deep), read without following links or blocking. A
 * symbolic link, FIFO, socket or device file is left out with a line in log_path that the
 * grader takes as the lab's reason ("gpulab-grade: the submission's 01_devices/devices.c is a
 * FIFO (named pipe): refused ..."). The copy is owned by uid/gid unless they are -1. */
int grade_copy_submission(const char *from, const char *to, uid_t uid, gid_t gid,
                          const char *log_path);

/* Gives every file of build_dir to uid/gid (without following links); 0 or -1. */
int grade_build_owner(const char *build_dir, uid_t uid, gid_t gid);

/* grade_run_logged under limits, in a process group of its own that is killed at the wall
 * limit (the log then says so). Returns the exit status, 128 + a signal, -1, or
 * GRADE_BUILD_TIMED_OUT when the wall limit stopped it. */
#define GRADE_BUILD_TIMED_OUT (-2)
int grade_run_build(const char *const argv[], const char *log_path, const grade_build_limits *l);

#endif
