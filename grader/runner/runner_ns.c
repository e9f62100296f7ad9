/*
 * runner_ns.c — the namespaces of a run as root: a PID namespace whose init is the runner's
 * child (the program is its child: it sees and signals only its own processes, and whatever it
 * leaves dies with the init), and the private mounts (/proc, /tmp, the hidden kit).
 * See runner.h for what each gives.
 */
#define _GNU_SOURCE

#include "runner_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define GRADE_RUN_TMP_SIZE "64m"   /* each private /tmp, /var/tmp, /dev/shm of a run (as root) */
#define GRADE_RUN_TMP_INODES "256" /* ... and how many files and folders each may hold */

int grade_enter_pidns(void)
{
    if (unshare(CLONE_NEWPID) != 0)
        return 0; /* needs CAP_SYS_ADMIN */
    pid_t init = fork();
    if (init < 0)
        return -1;
    if (init == 0)
        return 1;
    /* The keeper: holds nothing of the run (no pipe end, no descriptor), waits for the init,
     * dies with the grader (and the init, whose parent it is, with it). */
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
    }
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
    {
        for (int fd = 3; fd < 65536; fd++)
            close(fd);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    while (waitpid(init, NULL, 0) < 0 && errno == EINTR) {
    }
    _exit(0);
}

_Noreturn void grade_pidns_init(pid_t main, int status_fd)
{
    /* It holds no end of the output pipes: they close when the program's processes end. */
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2)
            close(null);
    }
    /* Dies with the grader, and with it every process of the namespace. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int main_status = 0, have = 0;
    for (;;) {
        int ws;
        pid_t got = waitpid(-1, &ws, __WALL);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            break; /* ECHILD: nothing is left */
        }
        if (got == main && !have) {
            main_status = ws;
            have = 1;
            kill(-1, SIGKILL); /* what the program left: every process of the namespace but us */
        }
    }
    if (have)
        grade_child_report(status_fd, ST_EXITED, main_status);
    _exit(0);
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
int grade_private_mounts(const struct plan *p)
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
