/*
 * runner_internal.h — functions shared by the runner's source files; not installed,
 * not for the grader (use runner.h).
 */
#ifndef GRADE_RUNNER_INTERNAL_H
#define GRADE_RUNNER_INTERNAL_H

#include "runner.h"

#include <stddef.h>
#include <sys/types.h>

/* runner_words.c */

/* Writes "64 MiB", "1 GiB", "1.5 GiB", "100 bytes". */
void grade_fmt_bytes(char *buf, size_t cap, size_t n);
/* Writes (grade_say) or appends (grade_append) a line to a fixed buffer, truncating quietly. */
void grade_say(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void grade_append(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* 1 when @p hay (may be NULL) contains @p needle, ignoring case. */
int grade_mentions(const char *hay, const char *needle);
/* Fills r->end, exit_status, signal, signal_name and reason from a wait status. */
void grade_classify(grade_run *r, int wstatus, int timed_out, int unkillable, const grade_limits *l,
                    double cpu_main);

/* runner_os.c */

/* Makes r->workdir (mkdtemp, 0700, owned by uid/gid unless -1) and copies setup_dir into it. */
int grade_workdir_make(grade_run *r, lab_error *err, const char *setup_dir, uid_t uid, gid_t gid);
/* Removes a working directory and all inside it, never following links. Best effort. */
void grade_workdir_remove(const char *path);
/* Threads (tasks) whose real uid is @p uid: what RLIMIT_NPROC counts. */
long grade_count_user_tasks(uid_t uid);
/* Kills and reaps what a program of process group (and session) @p group left behind,
 * including processes re-parented to the caller; returns how many it could not get rid of. */
int grade_sweep(pid_t group);

#endif /* GRADE_RUNNER_INTERNAL_H */
