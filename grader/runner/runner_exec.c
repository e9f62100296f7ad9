/*
 * runner_exec.c — the two sides of a run: the child, from fork to execve (only
 * async-signal-safe calls; failures go to the status pipe), and the parent's watch over it
 * (both pipes read concurrently, the wall clock, the wait).
 */
#define _GNU_SOURCE

#include "runner_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KILL_GRACE_SECONDS 10.0 /* wait for a SIGKILLed group before giving up */

double grade_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------------------------------------
 * The child
 */

const char *grade_stage_words(int stage)
{
    switch (stage) {
    case ST_SETSID:
        return "setsid";
    case ST_FDS:
        return "setting up stdin, stdout and stderr";
    case ST_CHDIR:
        return "chdir to the working directory";
    case ST_RLIMIT:
        return "setrlimit";
    case ST_FORK:
        return "fork (in the run's PID namespace)";
    case ST_DROP:
        return "dropping privileges";
    case ST_PRCTL:
        return "prctl";
    case ST_OPEN:
        return "opening the program";
    case ST_EXEC:
        return "execve";
    }
    return "?";
}

void grade_child_report(int fd, int stage, int err)
{
    struct child_report rep = { stage, err };
    ssize_t n = write(fd, &rep, sizeof(rep));
    (void)n;
}

static _Noreturn void child_fail(int fd, int stage)
{
    grade_child_report(fd, stage, errno);
    _exit(127);
}

_Noreturn void grade_child_main(const struct plan *p)
{
    int st = fcntl(p->status_w, F_DUPFD_CLOEXEC, 10); /* out of the way of 0..3 */
    int ow = fcntl(p->out_w, F_DUPFD_CLOEXEC, 10);
    int ew = fcntl(p->err_w, F_DUPFD_CLOEXEC, 10);
    if (st < 0)
        _exit(127);
    if (setsid() < 0)
        child_fail(st, ST_SETSID);
    int null = open("/dev/null", O_RDONLY);
    if (ow < 0 || ew < 0 || null < 0 || dup2(null, 0) < 0 || dup2(ow, 1) < 0 || dup2(ew, 2) < 0)
        child_fail(st, ST_FDS);
    if (st != 3 && dup3(st, 3, O_CLOEXEC) < 0)
        child_fail(st, ST_FDS);
    st = 3;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0)
#endif
    {
        for (int fd = 4; fd < 65536; fd++)
            close(fd);
    }
    /* A grader that ignores or blocks signals must not pass that on (SIG_IGN survives exec). */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);

    if (chdir(p->workdir) != 0)
        child_fail(st, ST_CHDIR);
    /* Opened before the mounts below can cover its folder; executed by descriptor. */
    int exe = open(p->path, O_RDONLY | O_CLOEXEC);
    char magic[2] = { 0, 0 };
    if (exe < 0)
        child_fail(st, ST_OPEN);
    if (pread(exe, magic, 2, 0) == 2 && magic[0] == '#' && magic[1] == '!')
        fcntl(exe, F_SETFD, 0); /* a script: its interpreter reads it from /dev/fd/N */
    int in_pidns = 0;
    if (p->root) {
        in_pidns = grade_enter_pidns();
        if (in_pidns < 0)
            child_fail(st, ST_FORK);
        if (in_pidns)
            grade_child_report(st, ST_PIDNS_OK, 0);
        if (unshare(CLONE_NEWNET) == 0)
            grade_child_report(st, ST_NETNS_OK, 0);
        else
            grade_child_report(st, ST_NETNS_FAILED, errno);
        int e = grade_private_mounts(p);
        grade_child_report(st, e ? ST_MNTNS_FAILED : ST_MNTNS_OK, e);
    }
    if (in_pidns) {
        /* We are the namespace's init (pid 1, which no signal from inside reaches); the
         * program is our child, pid 2. */
        pid_t prog = fork();
        if (prog < 0)
            child_fail(st, ST_FORK);
        if (prog > 0) {
            close(exe);
            grade_pidns_init(prog, st);
        }
    }
    if (grade_apply_limits(p) != 0)
        child_fail(st, ST_RLIMIT);
    if (p->drop) {
        if (setgroups(0, NULL) != 0 || setgid(p->gid) != 0 || setuid(p->uid) != 0)
            child_fail(st, ST_DROP);
        if (p->uid != 0 && setuid(0) == 0) { /* paranoia: there must be no way back */
            errno = EPERM;
            child_fail(st, ST_DROP);
        }
    }
    /* After the uid change, which clears it: die with the grader. */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        child_fail(st, ST_PRCTL);
    if (getppid() != (in_pidns ? 1 : p->parent))
        _exit(127); /* the grader (or the init) is gone already */
    syscall(SYS_execveat, exe, "", p->argv, p->envp, AT_EMPTY_PATH);
    child_fail(st, ST_EXEC);
}

/* ---------------------------------------------------------------------------------------------
 * The parent: reads both pipes, watches the wall clock, waits
 */

/* Reads once from a ready pipe; keeps what fits. Returns 0, or -1 when out of memory. */
static int sink_read(struct sink *s)
{
    char scratch[65536];
    ssize_t n = read(s->fd, scratch, sizeof(scratch));
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n <= 0) {
        close(s->fd);
        s->fd = -1;
        return 0;
    }
    size_t keep = (size_t)n;
    if (keep > s->limit - s->len) {
        keep = s->limit - s->len;
        s->truncated = 1;
    }
    if (keep == 0)
        return 0;
    if (s->len + keep + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + keep + 1)
            cap *= 2;
        if (cap > s->limit + 1)
            cap = s->limit + 1;
        char *nb = realloc(s->buf, cap);
        if (!nb)
            return -1;
        s->buf = nb;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, scratch, keep);
    s->len += keep;
    s->buf[s->len] = '\0';
    return 0;
}

static void read_status(struct watch *w)
{
    struct child_report rep;
    ssize_t n = read(w->status_fd, &rep, sizeof(rep));
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n != (ssize_t)sizeof(rep)) {
        close(w->status_fd);
        w->status_fd = -1;
        return;
    }
    if (rep.stage == ST_NETNS_OK)
        w->netns = 1;
    else if (rep.stage == ST_NETNS_FAILED)
        w->netns = -rep.err;
    else if (rep.stage == ST_MNTNS_OK)
        w->mntns = 1;
    else if (rep.stage == ST_MNTNS_FAILED)
        w->mntns = -rep.err;
    else if (rep.stage == ST_PIDNS_OK)
        w->pidns = 1;
    else if (rep.stage == ST_EXITED) {
        w->relayed = 1;
        w->relayed_status = rep.err;
    } else if (rep.stage >= ST_FATAL_FIRST)
        w->fatal = rep;
}

/* Pumps the pipes until the child ends (or the wall limit kills it). Returns 0 or LAB_ENOMEM. */
int grade_watch_child(struct watch *w, pid_t pid, int pidfd, double start, double wall_limit)
{
    double deadline = wall_limit > 0 ? start + wall_limit : 0;
    int rc = 0;
    for (;;) {
        pid_t got = wait4(pid, &w->wstatus, WNOHANG, &w->ru);
        if (got == pid)
            return rc;
        double now = grade_now_seconds();
        if (deadline > 0 && now >= deadline && !w->timed_out) {
            w->timed_out = 1;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
        if (w->timed_out && now >= deadline + KILL_GRACE_SECONDS) {
            w->unkillable = 1; /* stuck in the kernel (a driver?); leave it */
            return rc;
        }
        struct pollfd fds[4];
        struct sink *sinks[4] = { NULL };
        int nf = 0;
        if (w->out.fd >= 0) {
            sinks[nf] = &w->out;
            fds[nf++] = (struct pollfd){ w->out.fd, POLLIN, 0 };
        }
        if (w->err.fd >= 0) {
            sinks[nf] = &w->err;
            fds[nf++] = (struct pollfd){ w->err.fd, POLLIN, 0 };
        }
        int status_at = -1, pid_at = -1;
        if (w->status_fd >= 0) {
            status_at = nf;
            fds[nf++] = (struct pollfd){ w->status_fd, POLLIN, 0 };
        }
        if (pidfd >= 0) {
            pid_at = nf;
            fds[nf++] = (struct pollfd){ pidfd, POLLIN, 0 };
        }
        int timeout_ms = pidfd >= 0 ? 1000 : 20;
        double left = (w->timed_out ? deadline + KILL_GRACE_SECONDS : deadline) - now;
        if (deadline > 0 && left * 1000.0 + 1.0 < timeout_ms)
            timeout_ms = (int)(left * 1000.0) + 1;
        int n = poll(fds, (nfds_t)nf, timeout_ms);
        if (n <= 0)
            continue;
        for (int i = 0; i < nf; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (sinks[i] && sink_read(sinks[i]) != 0)
                rc = LAB_ENOMEM;
            else if (i == status_at)
                read_status(w);
        }
        (void)pid_at; /* readable pidfd: the child ended; wait4 at the top of the loop */
    }
}

/* After the end: reads what is still in the pipes, for at most ~0.5 s. */
int grade_drain(struct watch *w)
{
    int rc = 0;
    double until = grade_now_seconds() + 0.5;
    while ((w->out.fd >= 0 || w->err.fd >= 0 || w->status_fd >= 0) && grade_now_seconds() < until) {
        struct pollfd fds[3];
        int nf = 0;
        int which[3];
        if (w->out.fd >= 0) {
            which[nf] = 0;
            fds[nf++] = (struct pollfd){ w->out.fd, POLLIN, 0 };
        }
        if (w->err.fd >= 0) {
            which[nf] = 1;
            fds[nf++] = (struct pollfd){ w->err.fd, POLLIN, 0 };
        }
        if (w->status_fd >= 0) {
            which[nf] = 2;
            fds[nf++] = (struct pollfd){ w->status_fd, POLLIN, 0 };
        }
        if (poll(fds, (nfds_t)nf, 50) <= 0)
            continue;
        for (int i = 0; i < nf; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (which[i] == 2)
                read_status(w);
            else if (sink_read(which[i] ? &w->err : &w->out) != 0)
                rc = LAB_ENOMEM;
        }
    }
    return rc;
}
