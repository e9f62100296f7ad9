/*
 * runner_internal.h — functions shared by the runner's source files; not installed,
 * not for the grader (use runner.h).
 */
#ifndef GRADE_RUNNER_INTERNAL_H
#define GRADE_RUNNER_INTERNAL_H

#include "runner.h"

#include <stddef.h>
#include <sys/resource.h>
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

/* Makes r->workdir (mkdtemp, 0700, owned by uid/gid unless -1; as root a tmpfs capped by
 * l->dir_entries and l->dir_bytes) and copies setup_dir into it. */
int grade_workdir_make(grade_run *r, lab_error *err, const char *setup_dir, uid_t uid, gid_t gid,
                       const grade_limits *l);
/* Removes a working directory and all inside it, never following links. Best effort. */
void grade_workdir_remove(const char *path);
/* Threads (tasks) whose real uid is @p uid: what RLIMIT_NPROC counts. */
long grade_count_user_tasks(uid_t uid);
/* Kills and reaps what a program of process group (and session) @p group left behind,
 * including processes re-parented to the caller; returns how many it could not get rid of. */
int grade_sweep(pid_t group);

/* What the child of grade_run_program() is to do, filled in by the parent before the fork. */
struct plan {
    const char *path; /* absolute path of the program */
    char *const *argv;
    char *const *envp;
    const char *workdir;
    const grade_limits *lim;
    int root;       /* the caller is root: try the namespaces and the privilege drop */
    int drop;       /* drop to uid/gid */
    int user_found; /* getpwnam found the user (it may be root itself) */
    uid_t uid;
    gid_t gid;
    rlim_t nproc; /* RLIM_INFINITY: leave it */
    pid_t parent;
    int out_w, err_w, status_w;
};

/* What the child says on the status pipe: stages it passed (information) or failed at. */
enum child_stage {
    ST_NETNS_OK = 1, /* information, not failures */
    ST_NETNS_FAILED,
    ST_MNTNS_OK,
    ST_MNTNS_FAILED,
    ST_EXITED,      /* from the PID namespace's init: the program's wait status (in err) */
    ST_PIDNS_OK,    /* the program runs in a PID namespace of its own */
    ST_FATAL_FIRST, /* from here on: the child gives up */
    ST_SETSID = ST_FATAL_FIRST,
    ST_FDS,
    ST_CHDIR,
    ST_RLIMIT,
    ST_FORK,
    ST_DROP,
    ST_PRCTL,
    ST_OPEN,
    ST_EXEC
};

struct child_report {
    int stage;
    int err;
};

/* The parent's side: kept output and what the child reported. */
struct sink {
    int fd;    /* -1 once closed */
    char *buf; /* kept bytes, NUL-terminated */
    size_t len, cap, limit;
    int truncated;
};

struct watch {
    struct sink out, err;
    int status_fd;             /* child's reports; EOF at a successful execve */
    struct child_report fatal; /* stage 0: none */
    int netns;                 /* 0 not tried, 1 ok, -errno failed */
    int mntns;                 /* the same for the private mounts */
    int pidns;                 /* 1: the child is the init of a PID namespace of its own */
    int relayed;               /* 1: the init sent the program's wait status */
    int relayed_status;
    int timed_out, unkillable;
    int wstatus;
    struct rusage ru;
};

/* runner_exec.c: the child from fork to execve, and the parent's watch over it */

/* Words for a failed stage ("setrlimit"). */
const char *grade_stage_words(int stage);
/* Sends a report on the status pipe (async-signal-safe). */
void grade_child_report(int fd, int stage, int err);
/* The child: sets up and executes the program; as root through the init of a PID namespace
 * of its own, which forks the program and waits (grade_pidns_init). Never returns. */
_Noreturn void grade_child_main(const struct plan *p);
/* Pumps the pipes until the child ends (or the wall limit kills it). 0 or LAB_ENOMEM. */
int grade_watch_child(struct watch *w, pid_t pid, int pidfd, double start, double wall_limit);
/* After the end: reads what is still in the pipes, for at most ~0.5 s. 0 or LAB_ENOMEM. */
int grade_drain(struct watch *w);
double grade_now_seconds(void);

/* runner_ns.c: namespaces and mounts */

/* As root: a new PID namespace and a fork. In the child, which is pid 1 of the namespace,
 * returns 1; the caller stays behind as its keeper (it holds nothing of the run, waits for the
 * init and exits: the runner waits for it) and never returns. 0: no PID namespace (not
 * permitted); -1: the fork failed. */
int grade_enter_pidns(void);
/* The private mounts of a run (see runner.h). 0 or the errno of the first failure. */
int grade_private_mounts(const struct plan *p);
/* The init of the run's PID namespace: reaps until the program (@p main) ends, kills what is
 * left in the namespace, reports the program's wait status on @p status_fd, exits. */
_Noreturn void grade_pidns_init(pid_t main, int status_fd);

/* runner_limits.c */

/* Sets the run's rlimits (in the child, before the privilege drop). 0 or -1 with errno. */
int grade_apply_limits(const struct plan *p);

#endif /* GRADE_RUNNER_INTERNAL_H */
