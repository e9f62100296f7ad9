/* submit_guard.c — what keeps a submission's build honest (see submit.h): the copy it is
 * built from (regular files and folders only, each checked), and the build itself run as an
 * unprivileged user under limits, with a line in the build log for each limit it hits. */
#define _GNU_SOURCE
#include "submit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COPY_DEPTH_MAX 8                   /* folders within folders of a submission */
#define COPY_FILES_MAX 4096                /* entries of a submission, all folders together */
#define COPY_FILE_BYTES ((off_t)16 << 20)  /* one file */
#define COPY_TOTAL_BYTES ((off_t)64 << 20) /* all of them */

static void log_line(const char *log_path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void log_line(const char *log_path, const char *fmt, ...)
{
    FILE *f = log_path ? fopen(log_path, "a") : NULL;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f ? f : stderr, fmt, ap);
    va_end(ap);
    fputc('\n', f ? f : stderr);
    if (f)
        fclose(f);
}

/* ---------------------------------------------------------------------------------------------
 * The copy
 */

struct copy_state {
    const char *log_path;
    uid_t uid;
    gid_t gid;
    int files;
    off_t bytes;
};

static const char *kind_words(mode_t m)
{
    if (S_ISLNK(m))
        return "is a symbolic link";
    if (S_ISFIFO(m))
        return "is a FIFO (named pipe)";
    if (S_ISSOCK(m))
        return "is a socket";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "is a device file";
    return "is not a regular file";
}

/* Copies one regular file, opened without following links and without blocking (a file that
 * became a FIFO since lstat must not hang the grader). */
static int copy_one(int from_dir, int to_dir, const char *name, const struct stat *st,
                    struct copy_state *c)
{
    int in = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat now;
    if (in < 0 || fstat(in, &now) != 0 || !S_ISREG(now.st_mode) || now.st_ino != st->st_ino) {
        if (in >= 0)
            close(in);
        return -1;
    }
    int out = openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0) {
        close(in);
        return -1;
    }
    char buf[65536];
    off_t left = COPY_FILE_BYTES;
    ssize_t n;
    int rc = 0;
    while (left > 0 && (n = read(in, buf, sizeof(buf))) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = -1;
            break;
        }
        if (write(out, buf, (size_t)n) != n) {
            rc = -1;
            break;
        }
        left -= n;
        c->bytes += n;
    }
    if (c->uid != (uid_t)-1 && fchown(out, c->uid, c->gid) != 0)
        rc = -1;
    close(in);
    close(out);
    return rc;
}

/* Copies folder from_dir (rel: its path in the submission, "" at the top) into to_dir. */
static int copy_dir(int from_dir, int to_dir, const char *rel, int depth, struct copy_state *c)
{
    DIR *d = fdopendir(dup(from_dir));
    if (!d)
        return -1;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        struct stat st;
        if (fstatat(from_dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (++c->files > COPY_FILES_MAX) {
            log_line(c->log_path,
                     "gpulab-grade: the submission holds more than %d files and folders: the rest "
                     "is left out",
                     COPY_FILES_MAX);
            break;
        }
        if (S_ISDIR(st.st_mode)) {
            if (depth >= COPY_DEPTH_MAX)
                continue;
            if (mkdirat(to_dir, e->d_name, 0755) != 0) {
                rc = -1;
                break;
            }
            int sub_from = openat(from_dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
            int sub_to = openat(to_dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
            if (c->uid != (uid_t)-1 && sub_to >= 0 && fchown(sub_to, c->uid, c->gid) != 0)
                rc = -1;
            if (sub_from >= 0 && sub_to >= 0 && rc == 0)
                rc = copy_dir(sub_from, sub_to, path, depth + 1, c);
            if (sub_from >= 0)
                close(sub_from);
            if (sub_to >= 0)
                close(sub_to);
        } else if (!S_ISREG(st.st_mode)) {
            /* Left out of the copy: the lab's build then says the file is missing, after this
             * line, which the grader takes as the reason. */
            log_line(c->log_path,
                     "gpulab-grade: the submission's %s %s: refused (a submission holds regular "
                     "files and folders only)",
                     path, kind_words(st.st_mode));
        } else if (st.st_size > COPY_FILE_BYTES || c->bytes + st.st_size > COPY_TOTAL_BYTES) {
            log_line(c->log_path,
                     "gpulab-grade: the submission's %s is too big (%lld bytes; a file may have "
                     "%lld, all of them %lld): refused",
                     path, (long long)st.st_size, (long long)COPY_FILE_BYTES,
                     (long long)COPY_TOTAL_BYTES);
        } else if (copy_one(from_dir, to_dir, e->d_name, &st, c) != 0) {
            log_line(c->log_path, "gpulab-grade: the submission's %s could not be read: refused",
                     path);
        }
    }
    closedir(d);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return (flag == FTW_DP ? rmdir(path) : unlink(path)) != 0 && errno != ENOENT ? -1 : 0;
}

int grade_copy_submission(const char *from, const char *to, uid_t uid, gid_t gid,
                          const char *log_path)
{
    struct stat st;
    if (lstat(to, &st) == 0 && nftw(to, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        return -1;
    if (mkdir(to, 0755) != 0 || (uid != (uid_t)-1 && chown(to, uid, gid) != 0))
        return -1;
    int src = open(from, O_RDONLY | O_DIRECTORY);
    int dst = open(to, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    struct copy_state c = { log_path, uid, gid, 0, 0 };
    int rc = src >= 0 && dst >= 0 ? copy_dir(src, dst, "", 0, &c) : -1;
    if (src >= 0)
        close(src);
    if (dst >= 0)
        close(dst);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * The build under limits
 */

static uid_t chown_uid;
static gid_t chown_gid;

static int chown_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)flag;
    (void)ftw;
    if (st->st_uid != chown_uid || st->st_gid != chown_gid)
        return lchown(path, chown_uid, chown_gid) != 0 ? -1 : 0;
    return 0;
}

int grade_build_owner(const char *build_dir, uid_t uid, gid_t gid)
{
    chown_uid = uid;
    chown_gid = gid;
    return nftw(build_dir, chown_entry, 16, FTW_PHYS);
}

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
    struct rlimit cur, want = { soft, hard };
    if (getrlimit(resource, &cur) == 0 && cur.rlim_max != RLIM_INFINITY && hard > cur.rlim_max)
        want.rlim_max = cur.rlim_max; /* not root: we may only lower it */
    if (want.rlim_cur > want.rlim_max)
        want.rlim_cur = want.rlim_max;
    setrlimit(resource, &want);
}

int grade_run_build(const char *const argv[], const char *log_path, const grade_build_limits *l)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        grade_child_stdio(argv, log_path);
        /* Per process (each compiler has its own): CPU seconds, address space; no core files. */
        set_limit(RLIMIT_CORE, 0, 0);
        if (l->cpu_seconds > 0) /* SIGXCPU first (the compiler's driver names it), SIGKILL later */
            set_limit(RLIMIT_CPU, (rlim_t)l->cpu_seconds, (rlim_t)l->cpu_seconds + 5);
        if (l->memory_bytes > 0)
            set_limit(RLIMIT_AS, (rlim_t)l->memory_bytes, (rlim_t)l->memory_bytes);
        set_limit(RLIMIT_FSIZE, (rlim_t)1 << 30, (rlim_t)1 << 30);
        if (l->drop) {
            if (setgroups(0, NULL) != 0 || setgid(l->gid) != 0 || setuid(l->uid) != 0 ||
                setuid(0) == 0) {
                dprintf(STDERR_FILENO, "gpulab-grade: cannot drop to uid %lu for the build\n",
                        (unsigned long)l->uid);
                _exit(127);
            }
            setenv("HOME", l->home, 1);
        }
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execvp(argv[0], (char *const *)argv);
        dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0, killed = 0;
    for (;;) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR)
            return -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double spent = (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
        if (!killed && l->wall_seconds > 0 && spent > l->wall_seconds) {
            kill(-pid, SIGKILL);
            killed = 1;
        }
        struct timespec ts = { 0, 50000000L };
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL); /* what it left running in its group */
    if (killed) {
        log_line(log_path,
                 "gpulab-grade: the build was stopped at its time limit of %g s of wall time "
                 "(CPU wall clock; a submission that takes this long to build is refused)",
                 l->wall_seconds);
        return GRADE_BUILD_TIMED_OUT;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
