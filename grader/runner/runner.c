/*
 * runner.c — runs one lab program in a fresh directory under limits (see runner.h).
 *
 * Sections: small helpers → the child (from fork to execve) → the parent (pipes,
 * wall clock, wait) → the public functions. The working directory and the sweep
 * of leftovers are in runner_os.c, the words in runner_words.c.
 */
#define _GNU_SOURCE

#include "runner_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define DEFAULT_OUTPUT_BYTES ((size_t)1 << 20) /* when grade_limits::output_bytes is 0 */
#define KILL_GRACE_SECONDS 10.0                /* wait for a SIGKILLed group before giving up */
#define GRADE_RUN_TMP_SIZE "64m"   /* each private /tmp, /var/tmp, /dev/shm of a run (as root) */
#define GRADE_RUN_TMP_INODES "256" /* ... and how many files and folders each may hold */

/* ---------------------------------------------------------------------------------------------
 * Small helpers
 */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

/* ---------------------------------------------------------------------------------------------
 * The child: from fork to execve. Only async-signal-safe calls; failures go to the status pipe.
 */

enum child_stage {
    ST_NETNS_OK = 1, /* information, not failures */
    ST_NETNS_FAILED,
    ST_MNTNS_OK,
    ST_MNTNS_FAILED,
    ST_FATAL_FIRST, /* from here on: the child gives up */
    ST_SETSID = ST_FATAL_FIRST,
    ST_FDS,
    ST_CHDIR,
    ST_RLIMIT,
    ST_DROP,
    ST_PRCTL,
    ST_OPEN,
    ST_EXEC
};

static const char *stage_words(int stage)
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

struct child_report {
    int stage;
    int err;
};

struct plan {
    const char *path; /* absolute path of the program */
    char *const *argv;
    char *const *envp;
    const char *workdir;
    const grade_limits *lim;
    int root;       /* the caller is root: try netns and the privilege drop */
    int drop;       /* drop to uid/gid */
    int user_found; /* getpwnam found the user (it may be root itself) */
    uid_t uid;
    gid_t gid;
    rlim_t nproc; /* RLIM_INFINITY: leave it */
    pid_t parent;
    int out_w, err_w, status_w;
};

static void report(int fd, int stage, int err)
{
    struct child_report rep = { stage, err };
    ssize_t n = write(fd, &rep, sizeof(rep));
    (void)n;
}

static _Noreturn void child_fail(int fd, int stage)
{
    report(fd, stage, errno);
    _exit(127);
}

static int set_limit(int resource, rlim_t soft, rlim_t hard)
{
    struct rlimit cur;
    if (getrlimit(resource, &cur) != 0)
        return -1;
    if (cur.rlim_max != RLIM_INFINITY && (hard == RLIM_INFINITY || hard > cur.rlim_max))
        hard = cur.rlim_max; /* not root: we may only lower it */
    if (soft > hard)
        soft = hard;
    struct rlimit want = { soft, hard };
    return setrlimit(resource, &want);
}

static int apply_limits(const struct plan *p)
{
    const grade_limits *l = p->lim;
    int rc = set_limit(RLIMIT_CORE, 0, 0);
    if (l->cpu_seconds > 0) {
        rlim_t s = (rlim_t)ceil(l->cpu_seconds);
        rc |= set_limit(RLIMIT_CPU, s, s + 1); /* SIGXCPU at s, SIGKILL at s + 1 */
    }
    if (l->address_space > 0)
        rc |= set_limit(RLIMIT_AS, l->address_space, l->address_space);
    if (l->file_size > 0)
        rc |= set_limit(RLIMIT_FSIZE, l->file_size, l->file_size);
    if (l->max_files > 0)
        rc |= set_limit(RLIMIT_NOFILE, (rlim_t)l->max_files, (rlim_t)l->max_files);
    if (p->nproc != RLIM_INFINITY)
        rc |= set_limit(RLIMIT_NPROC, p->nproc, p->nproc);
    return rc;
}

/* Whether dir may be covered: an absolute path that is not "/" nor holds a folder the program
 * needs to run (its libraries, devices, /proc, /tmp). */
static int may_hide(const char *dir)
{
    static const char *const needed[] = { "/usr/",  "/lib/",     "/lib64/", "/lib32/", "/bin/",
                                          "/sbin/", "/etc/",     "/proc/",  "/dev/",   "/sys/",
                                          "/tmp/",  "/var/tmp/", "/run/" };
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (dir[0] != '/' || n <= 1)
        return 0;
    for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
        if (strncmp(needed[i], dir, n) == 0 && (needed[i][n] == '/'))
            return 0; /* dir is that folder or holds it */
    return 1;
}

/* A mount namespace of the run's own (the working directory is already its cwd, so covering the
 * folder that holds it changes nothing for it): a /proc that shows only the run's own processes
 * (hidepid=invisible: not the grader's command line, not other runs), an empty private /tmp,
 * /var/tmp and /dev/shm (what it leaves there goes with the namespace; a kit inside one of them
 * keeps the folder that holds the program), and an empty read-only folder over each of
 * grade_limits::hide. Returns 0 or the errno of the first failure. */
static int private_mounts(const struct plan *p)
{
    static const char *const tmps[] = { "/tmp", "/var/tmp", "/dev/shm" };
    struct stat sb;
    if (unshare(CLONE_NEWNS) != 0)
        return errno;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return errno;
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible") != 0)
        return errno;
    for (size_t i = 0; i < sizeof(tmps) / sizeof(tmps[0]); i++) {
        if (stat(tmps[i], &sb) != 0 || !S_ISDIR(sb.st_mode))
            continue;
        /* A kit that lives in /tmp (a checkout in /tmp/x): the folder of it that holds the
         * program stays reachable, bound back into the fresh tmpfs. */
        char keep[4096] = "";
        int keep_fd = -1;
        size_t n = strlen(tmps[i]);
        if (strncmp(p->path, tmps[i], n) == 0 && p->path[n] == '/') {
            const char *end = strchr(p->path + n + 1, '/');
            if (end && (size_t)(end - p->path) < sizeof(keep)) {
                memcpy(keep, p->path, (size_t)(end - p->path));
                keep[end - p->path] = '\0';
                keep_fd = open(keep, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            }
        }
        if (mount("tmpfs", tmps[i], "tmpfs", MS_NOSUID | MS_NODEV,
                  "mode=1777,size=" GRADE_RUN_TMP_SIZE ",nr_inodes=" GRADE_RUN_TMP_INODES) != 0) {
            int e = errno;
            if (keep_fd >= 0)
                close(keep_fd);
            return e;
        }
        if (keep_fd >= 0) {
            char from[64];
            snprintf(from, sizeof(from), "/proc/self/fd/%d", keep_fd);
            int bad =
                mkdir(keep, 0755) != 0 || mount(from, keep, NULL, MS_BIND | MS_REC, NULL) != 0;
            int e = errno;
            close(keep_fd);
            if (bad)
                return e;
        }
    }
    for (size_t i = 0; p->lim->hide && p->lim->hide[i]; i++)
        if (may_hide(p->lim->hide[i]) && stat(p->lim->hide[i], &sb) == 0 && S_ISDIR(sb.st_mode) &&
            mount("tmpfs", p->lim->hide[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  "mode=0,size=4k,nr_inodes=1") != 0)
            return errno;
    return 0;
}

static _Noreturn void child_main(const struct plan *p)
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
    if (apply_limits(p) != 0)
        child_fail(st, ST_RLIMIT);
    /* Opened before the mounts below can cover its folder; executed by descriptor. */
    int exe = open(p->path, O_RDONLY | O_CLOEXEC);
    char magic[2] = { 0, 0 };
    if (exe < 0)
        child_fail(st, ST_OPEN);
    if (pread(exe, magic, 2, 0) == 2 && magic[0] == '#' && magic[1] == '!')
        fcntl(exe, F_SETFD, 0); /* a script: its interpreter reads it from /dev/fd/N */
    if (p->root) {
        if (unshare(CLONE_NEWNET) == 0)
            report(st, ST_NETNS_OK, 0);
        else
            report(st, ST_NETNS_FAILED, errno);
        int e = private_mounts(p);
        report(st, e ? ST_MNTNS_FAILED : ST_MNTNS_OK, e);
    }
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
    if (getppid() != p->parent)
        _exit(127);
    syscall(SYS_execveat, exe, "", p->argv, p->envp, AT_EMPTY_PATH);
    child_fail(st, ST_EXEC);
}

/* ---------------------------------------------------------------------------------------------
 * The parent: reads both pipes, watches the wall clock, waits
 */

struct sink {
    int fd;    /* -1 once closed */
    char *buf; /* kept bytes, NUL-terminated */
    size_t len, cap, limit;
    int truncated;
};

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

struct watch {
    struct sink out, err;
    int status_fd;             /* child's reports; EOF at a successful execve */
    struct child_report fatal; /* stage 0: none */
    int netns;                 /* 0 not tried, 1 ok, -errno failed */
    int mntns;                 /* the same for the private mounts */
    int timed_out, unkillable;
    int wstatus;
    struct rusage ru;
};

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
    else if (rep.stage >= ST_FATAL_FIRST)
        w->fatal = rep;
}

/* Pumps the pipes until the child ends (or the wall limit kills it). Returns 0 or LAB_ENOMEM. */
static int watch_child(struct watch *w, pid_t pid, int pidfd, double start, double wall_limit)
{
    double deadline = wall_limit > 0 ? start + wall_limit : 0;
    int rc = 0;
    for (;;) {
        pid_t got = wait4(pid, &w->wstatus, WNOHANG, &w->ru);
        if (got == pid)
            return rc;
        double now = now_seconds();
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
static int drain(struct watch *w)
{
    int rc = 0;
    double until = now_seconds() + 0.5;
    while ((w->out.fd >= 0 || w->err.fd >= 0 || w->status_fd >= 0) && now_seconds() < until) {
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

static void start_failed(grade_run *r, const struct plan *p, const struct watch *w)
{
    r->end = GRADE_START_FAILED;
    r->exit_status = -1;
    r->signal = 0;
    r->signal_name[0] = '\0';
    grade_say(r->reason, sizeof(r->reason), "could not start %s: %s failed: %s", p->path,
              stage_words(w->fatal.stage), strerror(w->fatal.err));
    if (w->fatal.stage == ST_EXEC && (w->fatal.err == EACCES || w->fatal.err == ENOENT) && p->drop)
        grade_append(r->reason, sizeof(r->reason),
                     " (it runs as an unprivileged user: the program and the directories above it "
                     "must be readable and executable by everyone)");
}

/* ---------------------------------------------------------------------------------------------
 * Public functions
 */

/* The caller's environment with envp_extra's names replaced; strings are borrowed. */
static char **build_env(const char *const extra[])
{
    size_t n_env = 0, n_extra = 0;
    while (environ && environ[n_env])
        n_env++;
    while (extra && extra[n_extra])
        n_extra++;
    char **env = malloc((n_env + n_extra + 1) * sizeof(*env));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n_env; i++) {
        const char *eq = strchr(environ[i], '=');
        size_t name_len = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
        int replaced = 0;
        for (size_t j = 0; j < n_extra && !replaced; j++)
            replaced = !strncmp(extra[j], environ[i], name_len) && extra[j][name_len] == '=';
        if (!replaced)
            env[k++] = environ[i];
    }
    for (size_t j = 0; j < n_extra; j++)
        env[k++] = (char *)extra[j];
    env[k] = NULL;
    return env;
}

static void run_init(grade_run *r)
{
    memset(r, 0, sizeof(*r));
    r->end = GRADE_START_FAILED;
    r->exit_status = -1;
    r->pid = -1;
}

/* Records a failure of the runner itself in both the run and the error record. */
static int runner_failed(grade_run *r, lab_error *err, int code, const char *what)
{
    int e = errno;
    r->end = GRADE_START_FAILED;
    grade_say(r->reason, sizeof(r->reason), "the grader could not run the program: %s: %s", what,
              strerror(e));
    return lab_error_set(err, code, "%s: %s", what, strerror(e));
}

static void describe_isolation(grade_run *r, const struct plan *p, const struct watch *w,
                               const char *user)
{
    grade_say(r->isolation, sizeof(r->isolation), "process group, rlimits");
    if (p->drop)
        grade_append(r->isolation, sizeof(r->isolation), ", unprivileged user %s", user);
    else if (p->root && p->user_found)
        grade_append(r->isolation, sizeof(r->isolation), ", as root (user %s was asked for)", user);
    else if (p->root)
        grade_append(r->isolation, sizeof(r->isolation), ", still root (no user %s)", user);
    else
        grade_append(r->isolation, sizeof(r->isolation), ", the grader's own user (not root)");
    if (w->netns > 0)
        grade_append(r->isolation, sizeof(r->isolation), ", no network (new net namespace)");
    else if (w->netns < 0)
        grade_append(r->isolation, sizeof(r->isolation), ", network not isolated (unshare: %s)",
                     strerror(-w->netns));
    int hidden = 0;
    while (p->lim->hide && p->lim->hide[hidden])
        hidden++;
    if (w->mntns > 0)
        grade_append(r->isolation, sizeof(r->isolation),
                     ", own mounts (private /tmp, a /proc of its own processes%s)",
                     hidden ? ", the kit and the reports hidden" : "");
    else if (w->mntns < 0)
        grade_append(r->isolation, sizeof(r->isolation), ", mounts not isolated (%s)",
                     strerror(-w->mntns));
}

int grade_run_program(grade_run *out, lab_error *err, const char *const argv[],
                      const char *const envp_extra[], const grade_limits *limits,
                      const char *setup_dir)
{
    if (!out)
        return lab_error_set(err, LAB_EINVAL, "grade_run_program: out is NULL");
    run_init(out);
    if (!argv || !argv[0] || !argv[0][0]) {
        errno = EINVAL;
        return runner_failed(out, err, LAB_EINVAL, "no program given");
    }
    grade_limits lim = { 0 };
    if (limits)
        lim = *limits;
    if (lim.output_bytes == 0)
        lim.output_bytes = DEFAULT_OUTPUT_BYTES;
    char own_user[48];
    const char *user = lim.user;

    struct plan p = { 0 };
    p.lim = &lim;
    p.root = geteuid() == 0;
    p.uid = (uid_t)-1;
    p.gid = (gid_t)-1;
    p.nproc = RLIM_INFINITY;
    p.parent = getpid();
    p.workdir = out->workdir;
    p.argv = (char *const *)argv;
    if (p.root && !user) {
        /* A user of its own: no other run (of this grader or another) has this uid, so
         * none can signal it or share its RLIMIT_NPROC count. One run at a time per
         * process, so the grader's pid makes it unique among live runs. */
        p.drop = p.user_found = 1;
        p.uid = (uid_t)(GRADE_RUN_UID_BASE + (unsigned long)getpid());
        p.gid = (gid_t)p.uid;
        snprintf(own_user, sizeof(own_user), "uid %lu (this run's own)", (unsigned long)p.uid);
        user = own_user;
    } else if (p.root) {
        struct passwd *pw = getpwnam(user);
        p.user_found = pw != NULL;
        if (pw && pw->pw_uid != 0) {
            p.drop = 1;
            p.uid = pw->pw_uid;
            p.gid = pw->pw_gid;
        }
    }
    if (!user)
        user = "nobody"; /* not root: only named in the isolation words */
    if (lim.max_processes > 0) {
        /* RLIMIT_NPROC counts all tasks of the real user; root ignores it. */
        long others = grade_count_user_tasks(p.drop ? p.uid : getuid());
        p.nproc = (rlim_t)(others + lim.max_processes);
    }
    /* Orphans of the program come back to us, to be killed and reaped. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    int rc = grade_workdir_make(out, err, setup_dir, p.uid, p.gid);
    if (rc != LAB_OK) {
        grade_say(out->reason, sizeof(out->reason), "the grader could not prepare a directory: %s",
                  err ? err->msg : "see the grader's log");
        return rc;
    }

    char path[4096];
    if (argv[0][0] == '/') {
        snprintf(path, sizeof(path), "%s", argv[0]);
    } else {
        char cwd[3072];
        if (!getcwd(cwd, sizeof(cwd)))
            return runner_failed(out, err, LAB_EIO, "getcwd");
        snprintf(path, sizeof(path), "%s/%s", cwd, argv[0]);
    }
    p.path = path;

    struct watch w = { 0 };
    w.out.fd = w.err.fd = w.status_fd = -1;
    w.out.limit = w.err.limit = lim.output_bytes;
    char **env = build_env(envp_extra);
    int pout[2] = { -1, -1 }, perr[2] = { -1, -1 }, pst[2] = { -1, -1 };
    if (!env) {
        errno = ENOMEM;
        rc = runner_failed(out, err, LAB_ENOMEM, "environment");
        goto free_pipes;
    }
    p.envp = env;
    if (pipe2(pout, O_CLOEXEC) != 0 || pipe2(perr, O_CLOEXEC) != 0 || pipe2(pst, O_CLOEXEC) != 0) {
        rc = runner_failed(out, err, LAB_EIO, "pipe");
        goto free_pipes;
    }
    p.out_w = pout[1];
    p.err_w = perr[1];
    p.status_w = pst[1];

    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    double start = now_seconds();
    pid_t pid = fork();
    if (pid < 0) {
        rc = runner_failed(out, err, LAB_EIO, "fork");
        goto free_pipes;
    }
    if (pid == 0)
        child_main(&p);
    out->pid = pid;
    close(pout[1]);
    close(perr[1]);
    close(pst[1]);
    pout[1] = perr[1] = pst[1] = -1;
    w.out.fd = pout[0];
    w.err.fd = perr[0];
    w.status_fd = pst[0];
    pout[0] = perr[0] = pst[0] = -1;
    fcntl(w.out.fd, F_SETFL, O_NONBLOCK);
    fcntl(w.err.fd, F_SETFL, O_NONBLOCK);
    fcntl(w.status_fd, F_SETFL, O_NONBLOCK);
#ifdef SYS_pidfd_open
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
    int pidfd = -1;
#endif

    rc = watch_child(&w, pid, pidfd, start, lim.wall_seconds);
    out->wall_seconds = now_seconds() - start;
    if (pidfd >= 0)
        close(pidfd);
    grade_sweep(pid);
    if (drain(&w) != 0)
        rc = LAB_ENOMEM;
    if (w.out.fd >= 0)
        close(w.out.fd);
    if (w.err.fd >= 0)
        close(w.err.fd);
    if (w.status_fd >= 0)
        close(w.status_fd);
    getrusage(RUSAGE_CHILDREN, &after);
    out->cpu_seconds = tv_seconds(after.ru_utime) - tv_seconds(before.ru_utime) +
                       tv_seconds(after.ru_stime) - tv_seconds(before.ru_stime);

    out->out = w.out.buf ? w.out.buf : calloc(1, 1);
    out->out_len = w.out.len;
    out->out_truncated = w.out.truncated;
    out->err = w.err.buf ? w.err.buf : calloc(1, 1);
    out->err_len = w.err.len;
    out->err_truncated = w.err.truncated;
    describe_isolation(out, &p, &w, user);
    if (w.fatal.stage) {
        start_failed(out, &p, &w);
    } else {
        double cpu_main = tv_seconds(w.ru.ru_utime) + tv_seconds(w.ru.ru_stime);
        grade_classify(out, w.wstatus, w.timed_out, w.unkillable, &lim, cpu_main);
    }
    if (rc == LAB_ENOMEM || !out->out || !out->err)
        rc = lab_error_set(err, LAB_ENOMEM, "out of memory keeping the program's output");

free_pipes:
    for (int i = 0; i < 2; i++) {
        if (pout[i] >= 0)
            close(pout[i]);
        if (perr[i] >= 0)
            close(perr[i]);
        if (pst[i] >= 0)
            close(pst[i]);
    }
    free(env);
    return rc;
}

void grade_run_free(grade_run *r)
{
    if (!r)
        return;
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
    r->out_len = r->err_len = 0;
    grade_workdir_remove(r->workdir);
    r->workdir[0] = '\0';
}
