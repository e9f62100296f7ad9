/*
 * runner_os.c — the runner's dealings with the file system and /proc: the
 * fresh working directory (made, filled from the setup directory, removed
 * without following links) and the sweep that kills what a program left behind.
 */
#define _GNU_SOURCE

#include "runner_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TREE_DEPTH_MAX 32 /* setup copy; removal goes 4 times deeper */

/* ---------------------------------------------------------------------------------------------
 * The working directory: made fresh, filled from the setup directory, removed after
 */

static int copy_file(int src_dir, int dst_dir, const char *name, mode_t mode, uid_t uid, gid_t gid)
{
    int in = openat(src_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return -1;
    int outfd =
        openat(dst_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode & 0777) | 0600);
    if (outfd < 0) {
        close(in);
        return -1;
    }
    char buf[65536];
    int rc = 0;
    for (;;) {
        ssize_t n = read(in, buf, sizeof(buf));
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = -1;
            break;
        }
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(outfd, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                rc = -1;
                break;
            }
            off += w;
        }
        if (rc)
            break;
    }
    if (rc == 0 && uid != (uid_t)-1 && fchown(outfd, uid, gid) != 0)
        rc = -1;
    close(in);
    if (close(outfd) != 0)
        rc = -1;
    return rc;
}

/* Copies regular files and directories of src_dir into dst_dir; skips links and the rest. */
static int copy_tree(int src_dir, int dst_dir, uid_t uid, gid_t gid, int depth, char *bad,
                     size_t bad_cap)
{
    if (depth > TREE_DEPTH_MAX) {
        snprintf(bad, bad_cap, "directories nested deeper than %d", TREE_DEPTH_MAX);
        errno = ELOOP;
        return -1;
    }
    int fd = dup(src_dir);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        snprintf(bad, bad_cap, "(directory)");
        return -1;
    }
    rewinddir(d);
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        struct stat st;
        if (fstatat(src_dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = -1;
        } else if (S_ISREG(st.st_mode)) {
            rc = copy_file(src_dir, dst_dir, e->d_name, st.st_mode, uid, gid);
        } else if (S_ISDIR(st.st_mode)) {
            int s = -1, t = -1;
            rc = mkdirat(dst_dir, e->d_name, 0700);
            if (rc == 0)
                s = openat(src_dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (s >= 0)
                t = openat(dst_dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (t < 0 || (uid != (uid_t)-1 && fchown(t, uid, gid) != 0))
                rc = -1;
            if (rc == 0)
                rc = copy_tree(s, t, uid, gid, depth + 1, bad, bad_cap);
            if (s >= 0)
                close(s);
            if (t >= 0)
                close(t);
        }
        if (rc != 0 && !bad[0])
            grade_say(bad, bad_cap, "%s", e->d_name);
    }
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
}

/* Removes everything inside dir_fd, never following links. Best effort. */
static void remove_contents(int dir_fd, int depth)
{
    int fd = dup(dir_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        struct stat st;
        if (fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth >= TREE_DEPTH_MAX * 4)
                continue;
            fchmodat(dir_fd, e->d_name, 0700, 0); /* a program may have left it 0000 */
            int sub = openat(dir_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                remove_contents(sub, depth + 1);
                close(sub);
            }
            unlinkat(dir_fd, e->d_name, AT_REMOVEDIR);
        } else {
            unlinkat(dir_fd, e->d_name, 0);
        }
    }
    closedir(d);
}

int grade_tree_remove(const char *path)
{
    struct stat st;
    if (!path || !path[0]) {
        errno = EINVAL;
        return -1;
    }
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        remove_contents(fd, 0);
        close(fd);
    }
    return rmdir(path);
}

void grade_workdir_remove(const char *path)
{
    if (!path[0])
        return;
    umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW); /* the run's tmpfs, if it had one */
    chmod(path, 0700);
    (void)grade_tree_remove(path); /* best effort: a run's leftovers never stop the grading */
}

/* As root, once per process: a mount namespace of the caller's own, slave to the machine's (it
 * sees new mounts, its own stay in it), so that the runs' tmpfs go with the process. */
static int own_mounts(void)
{
    static int state; /* 0 not tried, 1 ok, -1 failed */
    if (state == 0)
        state = unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) == 0
                    ? 1
                    : -1;
    return state > 0;
}

/* Makes the run directory a tmpfs of its own holding at most l->dir_entries files and folders
 * and l->dir_bytes bytes (as root; 0 fields: no cap). Returns 1 when mounted. */
static int cap_workdir(const char *dir, const grade_limits *l)
{
    if (!l || l->dir_entries <= 0 || geteuid() != 0 || !own_mounts())
        return 0;
    char opts[128];
    snprintf(opts, sizeof(opts), "mode=0700,nr_inodes=%d,size=%zu", l->dir_entries + 1,
             l->dir_bytes ? l->dir_bytes : (size_t)1 << 30);
    return mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) == 0;
}

int grade_workdir_make(grade_run *r, lab_error *err, const char *setup_dir, uid_t uid, gid_t gid,
                       const grade_limits *l)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !tmp[0])
        tmp = "/tmp";
    int n = snprintf(r->workdir, sizeof(r->workdir), "%s/gpulab-run-XXXXXX", tmp);
    if (n < 0 || (size_t)n >= sizeof(r->workdir)) {
        r->workdir[0] = '\0';
        return lab_error_set(err, LAB_EINVAL, "TMPDIR is too long: %s", tmp);
    }
    if (!mkdtemp(r->workdir)) {
        int e = errno;
        r->workdir[0] = '\0';
        return lab_error_set(err, LAB_EIO, "cannot make a directory in %s: %s", tmp, strerror(e));
    }
    r->dir_capped = cap_workdir(r->workdir, l);
    if (uid != (uid_t)-1 && chown(r->workdir, uid, gid) != 0)
        return lab_error_set(err, LAB_EIO, "%s: cannot hand it to uid %d: %s", r->workdir, (int)uid,
                             strerror(errno));
    if (!setup_dir)
        return LAB_OK;
    int src = open(setup_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (src < 0)
        return lab_error_set(err, LAB_EIO, "%s: %s", setup_dir, strerror(errno));
    int dst = open(r->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char bad[256] = "";
    int rc = dst >= 0 ? copy_tree(src, dst, uid, gid, 0, bad, sizeof(bad)) : -1;
    int e = errno;
    close(src);
    if (dst >= 0)
        close(dst);
    if (rc != 0)
        return lab_error_set(err, LAB_EIO, "cannot copy %s/%s into %s: %s", setup_dir, bad,
                             r->workdir, strerror(e));
    return LAB_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The leftover sweep: processes found through /proc
 */

struct proc_stat {
    pid_t pid, ppid, pgrp, sid;
    char state;
};

static int read_proc_stat(const char *pid_name, struct proc_stat *ps)
{
    char path[300], buf[1024];
    snprintf(path, sizeof(path), "/proc/%s/stat", pid_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *rp = strrchr(buf, ')'); /* the command name may itself contain ')' */
    int pid, ppid, pgrp, sid;
    if (!rp || sscanf(buf, "%d", &pid) != 1 ||
        sscanf(rp + 1, " %c %d %d %d", &ps->state, &ppid, &pgrp, &sid) != 4)
        return -1;
    ps->pid = pid;
    ps->ppid = ppid;
    ps->pgrp = pgrp;
    ps->sid = sid;
    return 0;
}

/* Threads (tasks) whose real uid is @p uid: what RLIMIT_NPROC counts. */
long grade_count_user_tasks(uid_t uid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    long total = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], line[256];
        snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        long real_uid = -1, threads = 0;
        while (fgets(line, sizeof(line), f)) {
            if (!strncmp(line, "Uid:", 4))
                real_uid = strtol(line + 4, NULL, 10);
            else if (!strncmp(line, "Threads:", 8))
                threads = strtol(line + 8, NULL, 10);
        }
        fclose(f);
        if (real_uid == (long)uid)
            total += threads;
    }
    closedir(d);
    return total;
}

/*
 * One pass: SIGKILLs every live process of the program's group or session and
 * every process re-parented to us from another session; reaps our zombies.
 * Returns how many matching processes it still saw (0: nothing is left).
 */
static int sweep_once(pid_t group)
{
    pid_t self = getpid(), self_sid = getsid(0);
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int seen = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct proc_stat ps;
        if (!isdigit((unsigned char)e->d_name[0]) || read_proc_stat(e->d_name, &ps) != 0)
            continue;
        if (ps.pid == self)
            continue;
        int ours = ps.ppid == self && ps.sid != self_sid;
        if (ps.pgrp != group && ps.sid != group && !ours)
            continue;
        seen++;
        if (ps.state == 'Z') {
            if (ps.ppid == self)
                waitpid(ps.pid, NULL, WNOHANG);
        } else {
            kill(ps.pid, SIGKILL);
        }
    }
    closedir(d);
    return seen;
}

/* Kills and reaps what the program left behind; gives up after about 5 s. Returns what is left. */
int grade_sweep(pid_t group)
{
    int left = 0;
    for (int pass = 0; pass < 500; pass++) {
        kill(-group, SIGKILL);
        while (waitpid(-group, NULL, WNOHANG) > 0) {
        }
        left = sweep_once(group);
        if (left == 0)
            break;
        struct timespec ts = { 0, pass < 20 ? 1000000L : 10000000L };
        nanosleep(&ts, NULL);
    }
    return left;
}
