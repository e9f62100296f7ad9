/*
 * runner.c — runs one lab program in a fresh directory under limits (see runner.h): the
 * public functions, which plan the run, start the child and say how it went.
 *
 * The child and the watch over it are in runner_exec.c, the namespaces and mounts in
 * runner_ns.c, the rlimits in runner_limits.c, the working directory and the sweep of
 * leftovers in runner_os.c, the words in runner_words.c.
 */
#define _GNU_SOURCE

#include "runner_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

extern char **environ;

#define DEFAULT_OUTPUT_BYTES ((size_t)1 << 20) /* when grade_limits::output_bytes is 0 */

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

static void start_failed(grade_run *r, const struct plan *p, const struct watch *w)
{
    r->end = GRADE_START_FAILED;
    r->exit_status = -1;
    r->signal = 0;
    r->signal_name[0] = '\0';
    grade_say(r->reason, sizeof(r->reason), "could not start %s: %s failed: %s", p->path,
              grade_stage_words(w->fatal.stage), strerror(w->fatal.err));
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
    if (w->pidns)
        grade_append(r->isolation, sizeof(r->isolation),
                     ", own PID namespace (sees and signals only its own processes)");
    if (w->netns > 0)
        grade_append(r->isolation, sizeof(r->isolation), ", no network (new net namespace)");
    else if (w->netns < 0)
        grade_append(r->isolation, sizeof(r->isolation), ", network not isolated (unshare: %s)",
                     strerror(-w->netns));
    int hidden = 0;
    while (p->lim->hide && p->lim->hide[hidden])
        hidden++;
    if (r->dir_capped)
        grade_append(r->isolation, sizeof(r->isolation),
                     ", a run directory of its own (%d files and folders at most)",
                     p->lim->dir_entries);
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

    int rc = grade_workdir_make(out, err, setup_dir, p.uid, p.gid, &lim);
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
    double start = grade_now_seconds();
    pid_t pid = fork();
    if (pid < 0) {
        rc = runner_failed(out, err, LAB_EIO, "fork");
        goto free_pipes;
    }
    if (pid == 0)
        grade_child_main(&p);
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

    rc = grade_watch_child(&w, pid, pidfd, start, lim.wall_seconds);
    out->wall_seconds = grade_now_seconds() - start;
    if (pidfd >= 0)
        close(pidfd);
    grade_sweep(pid);
    if (grade_drain(&w) != 0)
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
    struct statvfs vfs;
    if (out->dir_capped && statvfs(out->workdir, &vfs) == 0)
        out->dir_full = vfs.f_favail == 0 ? 1 : vfs.f_bavail == 0 ? 2 : 0;
    describe_isolation(out, &p, &w, user);
    if (w.fatal.stage) {
        start_failed(out, &p, &w);
    } else {
        double cpu_main = tv_seconds(w.ru.ru_utime) + tv_seconds(w.ru.ru_stime);
        /* In a PID namespace the init's own end says little: it relays the program's. */
        int ws = w.relayed && !w.timed_out ? w.relayed_status : w.wstatus;
        grade_classify(out, ws, w.timed_out, w.unkillable, &lim, cpu_main);
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
