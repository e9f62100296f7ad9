/*
 * test_runner.c — runs each purpose-built faulty program (tests/faults/) through
 * grade_run_program and checks how the runner says it ended, its timings,
 * its output, and that nothing of the program is left running.
 *
 * Usage: test-runner FAULTS_DIR [all|isolation|NAME...]
 *   all (default)  every test that does not need root
 *   isolation      the tests of the privilege drop, the network namespace and the mounts;
 *                  returns 77 (skipped) when not run as root
 *   NAME...        only the tests whose names contain one of these words
 *                  (for valgrind: test-runner DIR ok segv)
 */
#define _GNU_SOURCE

#include "lab_test.h"
#include "runner.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *faults_dir;
static int is_root;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Processes (zombies included) of the run's group or session, or children of ours. */
static int leftovers(pid_t group)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], buf[1024];
        snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = '\0';
        char *rp = strrchr(buf, ')');
        char state;
        int ppid, pgrp, sid;
        if (!rp || sscanf(rp + 1, " %c %d %d %d", &state, &ppid, &pgrp, &sid) != 4)
            continue;
        if (pgrp == group || sid == group || ppid == getpid()) {
            printf("  left behind: pid %s state %c ppid %d pgrp %d sid %d\n", e->d_name, state,
                   ppid, pgrp, sid);
            found++;
        }
    }
    closedir(d);
    return found;
}

/* A process whose command line's first word ends in "/name", other than @p skip; 0: none. */
static pid_t find_program(const char *name, pid_t skip)
{
    DIR *d = opendir("/proc");
    pid_t found = 0;
    struct dirent *e;
    size_t n = strlen(name);
    while (d && !found && (e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]) || atol(e->d_name) == (long)skip)
            continue;
        char path[300], cmd[4096] = "";
        snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t k = fread(cmd, 1, sizeof(cmd) - 1, f);
        fclose(f);
        cmd[k] = '\0';
        size_t len = strlen(cmd);
        if (len > n && cmd[len - n - 1] == '/' && !strcmp(cmd + len - n, name))
            found = (pid_t)atol(e->d_name);
    }
    if (d)
        closedir(d);
    return found;
}

/* Limits for the tests. The wall limit is far from what any program here
 * needs, however busy the machine: a test that is about the wall limit sets
 * its own and asserts only that the run lasted at least that long. */
static grade_limits short_limits(void)
{
    grade_limits l = { 0 };
    l.wall_seconds = 60.0;
    l.cpu_seconds = 5.0;
    l.address_space = (size_t)1 << 30;
    l.file_size = (size_t)64 << 20;
    l.max_processes = 50;
    l.output_bytes = (size_t)64 << 10;
    return l;
}

/* Runs faults_dir/name with up to two arguments and prints a one-line summary. */
static int run_fault(grade_run *r, const char *name, const char *arg1, const char *arg2,
                     const grade_limits *l, const char *setup)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", faults_dir, name);
    const char *argv[] = { path, arg1, arg2, NULL };
    const char *extra[] = { "GPULAB_RUNNER_TEST=42", NULL };
    lab_error err = { 0 };
    int rc = grade_run_program(r, &err, argv, extra, l, setup);
    printf("  %s: %s, %s; wall %.2f s, cpu %.2f s; out %zu bytes%s, err %zu bytes; [%s]\n", name,
           grade_end_name(r->end), r->reason, r->wall_seconds, r->cpu_seconds, r->out_len,
           r->out_truncated ? " (truncated)" : "", r->err_len, r->isolation);
    if (rc != LAB_OK)
        printf("  runner error: %s\n", err.msg);
    return rc;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Tests that run anywhere
 */

static void test_ok(void)
{
    char setup[] = "/tmp/gpulab-runner-setup-XXXXXX";
    CHECK(mkdtemp(setup) != NULL);
    char path[4200];
    snprintf(path, sizeof(path), "%s/input.txt", setup);
    write_file(path, "hello\n");
    snprintf(path, sizeof(path), "%s/out", setup);
    CHECK(mkdir(path, 0755) == 0);
    snprintf(path, sizeof(path), "%s/link", setup);
    CHECK(symlink("/etc/passwd", path) == 0); /* links are not copied */

    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "ok", NULL, NULL, &l, setup), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_EXITED);
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_EQ_INT(r.signal, 0);
    CHECK_STREQ(r.signal_name, "");
    CHECK_STREQ(r.reason, "exited with status 0");
    CHECK_STREQ(r.out, "hello stdout; input=hello; var=42\n");
    CHECK_STREQ(r.err, "hello stderr\n");
    CHECK(!r.out_truncated && !r.err_truncated);
    CHECK(r.wall_seconds > 0); /* no upper bound: wall time depends on the machine's load */
    CHECK(r.cpu_seconds >= 0 && r.cpu_seconds < l.cpu_seconds);
    CHECK_CONTAINS(r.isolation, "process group, rlimits");
    if (is_root) {
        CHECK_CONTAINS(r.isolation, "unprivileged user uid");
        CHECK_CONTAINS(r.isolation, "no network (new net namespace)");
    }
    CHECK(strncmp(r.workdir, "/tmp/gpulab-run-", 16) == 0 || getenv("TMPDIR"));
    snprintf(path, sizeof(path), "%s/out/result.txt", r.workdir);
    FILE *f = fopen(path, "r");
    char line[64] = "";
    CHECK(f != NULL);
    if (f) {
        CHECK(fgets(line, sizeof(line), f) != NULL);
        fclose(f);
    }
    CHECK_STREQ(line, "result of hello\n");
    snprintf(path, sizeof(path), "%s/link", r.workdir);
    struct stat st;
    CHECK(lstat(path, &st) != 0);
    CHECK_EQ_INT(leftovers(r.pid), 0);

    char workdir[sizeof(r.workdir)];
    snprintf(workdir, sizeof(workdir), "%s", r.workdir);
    grade_run_free(&r);
    CHECK(stat(workdir, &st) != 0 && errno == ENOENT);
    grade_run_free(&r); /* twice is fine */
    grade_run_free(NULL);

    snprintf(path, sizeof(path), "%s/input.txt", setup);
    unlink(path);
    snprintf(path, sizeof(path), "%s/link", setup);
    unlink(path);
    snprintf(path, sizeof(path), "%s/out", setup);
    rmdir(path);
    rmdir(setup);
}

static void test_exit_status(void)
{
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "ok", "3", NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_EXITED);
    CHECK_EQ_INT(r.exit_status, 3);
    CHECK_STREQ(r.reason, "exited with status 3");
    CHECK_CONTAINS(r.out, "input=;"); /* no setup: no input.txt */
    grade_run_free(&r);
}

static void test_missing_program(void)
{
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "no-such-program", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_START_FAILED);
    CHECK_EQ_INT(r.exit_status, -1);
    CHECK_CONTAINS(r.reason, "could not start");
    CHECK_CONTAINS(r.reason, "no-such-program");
    CHECK_CONTAINS(r.reason, "No such file or directory");
    CHECK(r.out != NULL && r.out_len == 0);
    CHECK_EQ_INT(leftovers(r.pid), 0);
    grade_run_free(&r);

    lab_error err = { 0 };
    const char *none[] = { NULL };
    CHECK_EQ_INT(grade_run_program(&r, &err, none, NULL, &l, NULL), LAB_EINVAL);
    CHECK_EQ_INT(r.end, GRADE_START_FAILED);
    CHECK_CONTAINS(err.msg, "no program");
    grade_run_free(&r);
}

static void test_segv(void)
{
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "segv", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_SIGNALED);
    CHECK_EQ_INT(r.signal, SIGSEGV);
    CHECK_STREQ(r.signal_name, "SIGSEGV");
    CHECK_CONTAINS(r.reason, "crashed with SIGSEGV (segmentation fault");
    CHECK_STREQ(r.out, "before the crash\n");
    CHECK_EQ_INT(leftovers(r.pid), 0);
    grade_run_free(&r);
}

static void test_abort(void)
{
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "abort", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_SIGNALED);
    CHECK_STREQ(r.signal_name, "SIGABRT");
    CHECK_CONTAINS(r.reason, "crashed with SIGABRT (aborted");
    CHECK_CONTAINS(r.err, "check failed: n > 0");
    grade_run_free(&r);
}

/* The CPU-time limit stops a spinning program whatever the machine's load:
 * the wall limit is far away, so only CPU time can end the run, and what is
 * asserted is how it ended and the CPU time it used, never wall time. */
static void test_spin(void)
{
    grade_limits l = short_limits();
    l.cpu_seconds = 1.0;
    l.wall_seconds = 120.0;
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "spin", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_CPU_TIMEOUT);
    CHECK_STREQ(r.signal_name, "SIGXCPU");
    CHECK_CONTAINS(r.reason, "exceeded the CPU time limit of 1 s");
    /* Only that some CPU time was counted: the kernel enforces the limit on
     * its tick-sampled clock, while rusage reports the scheduler's exact
     * runtime, and under load the two part (0.62 s reported for a 1 s limit
     * with eight programs on one core), so no bound tied to the limit holds. */
    CHECK(r.cpu_seconds > 0);
    CHECK_EQ_INT(leftovers(r.pid), 0);
    grade_run_free(&r);
}

static void test_sleeper(void)
{
    grade_limits l = short_limits();
    l.wall_seconds = 1.0;
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "sleeper", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_WALL_TIMEOUT);
    CHECK_EQ_INT(r.signal, SIGKILL);
    CHECK_CONTAINS(r.reason, "killed after 1.0 s of wall time (hang?");
    CHECK(r.wall_seconds >= 1.0); /* killed at the limit, not before; no upper bound (load) */
    CHECK(r.cpu_seconds < 0.5);
    CHECK_STREQ(r.out, "sleeping\n");
    CHECK_EQ_INT(leftovers(r.pid), 0);
    grade_run_free(&r);
}

static void test_forkbomb(void)
{
    grade_limits l = short_limits();
    l.wall_seconds = 2.0;
    l.max_processes = 50;
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "forkbomb", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_WALL_TIMEOUT);
    CHECK(r.wall_seconds >= 2.0);
    /* RLIMIT_NPROC held: forks failed (as nobody, or as a user with the raised limit). */
    CHECK_CONTAINS(r.err, "forkbomb: fork: Resource temporarily unavailable");
    CHECK_EQ_INT(leftovers(r.pid), 0);
    grade_run_free(&r);
}

static void test_bigalloc(void)
{
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "bigalloc", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_SIGNALED);
    CHECK_STREQ(r.signal_name, "SIGABRT");
    CHECK_CONTAINS(r.reason, "ran out of memory (address space limit 1 GiB)");
    CHECK_CONTAINS(r.reason, "SIGABRT");
    grade_run_free(&r);
}

static void test_bigfile(void)
{
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "bigfile", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_SIGNALED);
    CHECK_STREQ(r.signal_name, "SIGXFSZ");
    CHECK_CONTAINS(r.reason, "tried to write a file bigger than the limit of 64 MiB");
    char path[4200];
    snprintf(path, sizeof(path), "%s/big.bin", r.workdir);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size == ((off_t)64 << 20));
    grade_run_free(&r);
}

/* A runner that stopped reading once the kept output was full would block
 * the program until the wall limit; one that keeps draining lets it finish.
 * The limits are far away so that a loaded machine cannot end the run. */
static void test_chatty(void)
{
    grade_limits l = short_limits();
    l.wall_seconds = 120.0;
    l.cpu_seconds = 120.0;
    grade_run r;
    double t0 = now_seconds();
    CHECK_EQ_INT(run_fault(&r, "chatty", NULL, NULL, &l, NULL), LAB_OK);
    printf("  1 GiB of stdout read and dropped in %.2f s (CPU wall clock)\n", now_seconds() - t0);
    CHECK_EQ_INT(r.end, GRADE_EXITED); /* finished: the runner never blocked it */
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_EQ_INT(r.out_len, 64 << 10);
    CHECK_EQ_INT(strlen(r.out), 64 << 10);
    CHECK(r.out_truncated);
    CHECK(!r.err_truncated);
    CHECK_STREQ(r.err, "done\n");
    grade_run_free(&r);
}

static void test_escape(void)
{
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "escape", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_EXITED);
    int deep = -1;
    CHECK(sscanf(r.out, "left behind: %d", &deep) == 1 && deep > 0);
    if (deep > 0 && !strstr(r.isolation, "own PID namespace")) {
        errno = 0;
        CHECK(kill(deep, 0) != 0 && errno == ESRCH); /* killed and reaped */
    }
    CHECK_EQ_INT(find_program("escape", 0), 0); /* (in a PID namespace its number is not ours) */
    CHECK_EQ_INT(leftovers(r.pid), 0);
    grade_run_free(&r);
}

static void test_signal_names(void)
{
    CHECK_STREQ(grade_signal_name(SIGSEGV), "SIGSEGV");
    CHECK_STREQ(grade_signal_name(SIGXFSZ), "SIGXFSZ");
    CHECK_STREQ(grade_signal_name(0), "SIG?");
    CHECK_STREQ(grade_signal_name(1000), "SIG?");
    CHECK_CONTAINS(grade_signal_description(SIGFPE), "division by zero");
    CHECK_STREQ(grade_end_name(GRADE_CPU_TIMEOUT), "cpu timeout");
}

/* grade_tree_remove: a tree with a read-only folder, a link to a file and a link to a folder
 * outside it goes, and what the links point to stays. */
static void test_tree_remove(void)
{
    char outside[] = "/tmp/gpulab-tree-outside-XXXXXX", tree[] = "/tmp/gpulab-tree-XXXXXX";
    char path[256], target[256];
    CHECK(mkdtemp(outside) != NULL);
    CHECK(mkdtemp(tree) != NULL);
    snprintf(target, sizeof(target), "%s/keep.txt", outside);
    FILE *f = fopen(target, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    snprintf(path, sizeof(path), "%s/a", tree);
    CHECK_EQ_INT(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/a/b", tree);
    CHECK_EQ_INT(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/a/b/file", tree);
    f = fopen(path, "w");
    if (f)
        fclose(f);
    snprintf(path, sizeof(path), "%s/a/to-file", tree);
    CHECK_EQ_INT(symlink(target, path), 0);
    snprintf(path, sizeof(path), "%s/a/to-folder", tree);
    CHECK_EQ_INT(symlink(outside, path), 0);
    snprintf(path, sizeof(path), "%s/a/b", tree);
    CHECK_EQ_INT(chmod(path, 0500), 0); /* a program may leave a folder read-only */
    CHECK_EQ_INT(grade_tree_remove(tree), 0);
    struct stat st;
    CHECK(lstat(tree, &st) != 0 && errno == ENOENT);
    CHECK_EQ_INT(stat(target, &st), 0);       /* not followed */
    CHECK_EQ_INT(grade_tree_remove(tree), 0); /* nothing there: done */
    CHECK_EQ_INT(grade_tree_remove(target), 0);
    CHECK_EQ_INT(grade_tree_remove(outside), 0);
    CHECK(grade_tree_remove("") != 0 && errno == EINVAL);
}

/* RLIMIT_NOFILE: the program may hold only grade_limits::max_files descriptors open. */
static void test_fds(void)
{
    grade_limits l = short_limits();
    l.max_files = 64;
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "fds", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_CONTAINS(r.out, "opened 61: Too many open files"); /* 64 less stdin, stdout, stderr */
    grade_run_free(&r);
}

/* ---------------------------------------------------------------------------------------------
 * Tests of the isolation that root makes possible
 */

static void test_snoop(void)
{
    /* The grader's expected outputs, in a private directory (not under /tmp: the run has a
     * /tmp of its own, where the file would not be found whatever its permissions). */
    char secret_dir[4096];
    CHECK(getcwd(secret_dir, sizeof(secret_dir) - 64) != NULL);
    strcat(secret_dir, "/gpulab-runner-expected-XXXXXX");
    CHECK(mkdtemp(secret_dir) != NULL);
    char secret[256];
    snprintf(secret, sizeof(secret), "%s/expected.npy", secret_dir);
    write_file(secret, "SECRET-EXPECTED-OUTPUT\n");
    chmod(secret, 0644); /* even a world-readable file: the directory is 0700 */

    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "snoop", secret, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_EXITED);
    CHECK_EQ_INT(r.exit_status, 1);
    CHECK_STREQ(r.out, "denied: Permission denied\n");
    CHECK(!strstr(r.out, "SECRET"));
    grade_run_free(&r);

    /* The control: run as root, the same program does read it (so the check above can fail). */
    l.user = "root";
    CHECK_EQ_INT(run_fault(&r, "snoop", secret, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_CONTAINS(r.out, "READ: SECRET-EXPECTED-OUTPUT");
    CHECK_CONTAINS(r.isolation, "as root");
    grade_run_free(&r);

    unlink(secret);
    rmdir(secret_dir);
}

/* The kit (its sources, solutions/, its build tree) is hidden: a folder of grade_limits::hide is
 * empty for the program, even a world-readable file in it. The program itself may live there. */
static void test_hidden_kit(void)
{
    char dir[4096], file[4200];
    CHECK(getcwd(dir, sizeof(dir) - 64) != NULL);
    strcat(dir, "/gpulab-runner-kit-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    chmod(dir, 0755);
    snprintf(file, sizeof(file), "%s/devices.c", dir);
    write_file(file, "SOLUTION-SOURCE\n");
    chmod(file, 0644);

    grade_limits l = short_limits();
    grade_run r;
    /* The control: without hide the run reads it (so the check below can fail). */
    CHECK_EQ_INT(run_fault(&r, "snoop", file, NULL, &l, NULL), LAB_OK);
    CHECK_CONTAINS(r.out, "READ: SOLUTION-SOURCE");
    grade_run_free(&r);

    const char *hide[] = { dir, faults_dir, "/", "/usr", NULL }; /* "/" and "/usr" are left out */
    l.hide = hide;
    CHECK_EQ_INT(run_fault(&r, "snoop", file, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_EXITED); /* it started, though its own folder is hidden */
    CHECK_EQ_INT(r.exit_status, 1);
    CHECK_CONTAINS(r.out, "denied: ");
    CHECK(!strstr(r.out, "SOLUTION"));
    CHECK_CONTAINS(r.isolation, "own mounts");
    grade_run_free(&r);

    unlink(file);
    rmdir(dir);
}

/* The grader's command line (--seed, other students' folders, the reports' paths) is not
 * readable by the program: its /proc shows only its own processes. */
static void test_parent_hidden(void)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)getpid());
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "snoop", path, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.exit_status, 1);
    CHECK_CONTAINS(r.out, "denied: ");
    CHECK(!strstr(r.out, "test-runner"));
    grade_run_free(&r);
    /* Its own processes it does see (so the check above can fail). */
    CHECK_EQ_INT(run_fault(&r, "snoop", "/proc/self/cmdline", NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_CONTAINS(r.out, "READ: ");
    CHECK_CONTAINS(r.out, "snoop");
    grade_run_free(&r);
}

/* /tmp, /var/tmp and /dev/shm are the run's own: what it writes there is gone after it. */
static void test_private_tmp(void)
{
    char a[64], b[64];
    snprintf(a, sizeof(a), "/tmp/gpulab-runner-litter-%ld", (long)getpid());
    snprintf(b, sizeof(b), "/dev/shm/gpulab-runner-litter-%ld", (long)getpid());
    unlink(a);
    unlink(b);
    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "litter", a, b, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_CONTAINS(r.out, "wrote /tmp/"); /* it could write there ... */
    CHECK_CONTAINS(r.out, "wrote /dev/shm/");
    CHECK(access(a, F_OK) != 0); /* ... and nothing stayed */
    CHECK(access(b, F_OK) != 0);
    grade_run_free(&r);
    unlink(a);
    unlink(b);
}

static void test_no_network(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(s >= 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    CHECK(bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(s, 4) == 0);
    CHECK(getsockname(s, (struct sockaddr *)&a, &len) == 0);
    char port[16];
    snprintf(port, sizeof(port), "%d", ntohs(a.sin_port));

    grade_limits l = short_limits();
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "net", port, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_EXITED);
    CHECK_EQ_INT(r.exit_status, 1);
    CHECK_CONTAINS(r.out, "no network: connect:");
    CHECK_CONTAINS(r.isolation, "no network");
    grade_run_free(&r);
    close(s);
}

/* Each run has a uid of its own (not a shared "nobody"): concurrent runs can neither signal
 * each other nor eat into each other's RLIMIT_NPROC count. */
static void test_own_uid(void)
{
    grade_limits l = short_limits();
    l.max_processes = 16;
    const char *argv[] = { "/usr/bin/id", "-u", NULL };
    grade_run r;
    CHECK_EQ_INT(grade_run_program(&r, NULL, argv, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.exit_status, 0);
    char want[32];
    snprintf(want, sizeof(want), "%lu\n", GRADE_RUN_UID_BASE + (unsigned long)getpid());
    CHECK_STREQ(r.out, want);
    CHECK(atol(r.out) != 65534); /* not nobody */
    CHECK_CONTAINS(r.isolation, "this run's own");
    grade_run_free(&r);
}

/* Runs faults_dir/name in a child process as @p user with the given wall limit; the child exits
 * 0 when the run ended as @p end with @p want in its stdout. Returns the child's pid. */
static pid_t start_run(const char *name, const char *arg1, const char *arg2, const char *user,
                       double wall, grade_end end, const char *want)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    grade_limits l = short_limits();
    l.user = user;
    l.wall_seconds = wall;
    grade_run r;
    int rc = run_fault(&r, name, arg1, arg2, &l, NULL);
    int ok = rc == LAB_OK && r.end == end && r.out && strstr(r.out, want);
    grade_run_free(&r);
    _exit(ok ? 0 : 1);
}

/* One run tries to kill a concurrent neighbour (its process and group ids handed to it, every
 * process in its /proc, kill(-1)) while more take what they can beside it: a hoard of memory up
 * to its address space, a /tmp filled to its cap and (with uids of their own) a fork bomb up to
 * its process limit, each held for seconds. The neighbour must still end as it would alone.
 * All run as the same user first (the shared "nobody" of old, where only the PID namespace
 * protects the neighbour), then each as a uid of its own (the default). */
static void test_neighbour_survives(void)
{
    const char *users[] = { "nobody", NULL };
    for (int u = 0; u < 2; u++) {
        printf("  all as %s\n", users[u] ? users[u] : "uids of their own");
        pid_t helper = start_run("neighbour", "4", NULL, users[u], 60.0, GRADE_EXITED, "woke");
        CHECK(helper >= 0);
        pid_t victim = 0;
        for (int i = 0; i < 500 && !victim; i++) {
            struct timespec ts = { 0, 10000000L };
            nanosleep(&ts, NULL);
            victim = find_program("neighbour", helper);
        }
        CHECK(victim > 0);
        /* Started once the neighbour runs. Processes count per user (RLIMIT_NPROC): under a
         * shared user a fork bomb at its limit keeps every other run of that user from
         * starting at all (execve: EAGAIN), which is why each run gets a uid of its own by
         * default; the shared-user round leaves the fork bomb out. */
        pid_t hostile[3] = {
            users[u] ? 0 : start_run("forkbomb", NULL, NULL, users[u], 3.0, GRADE_WALL_TIMEOUT, ""),
            start_run("hoard", "mem", "3", users[u], 60.0, GRADE_EXITED,
                      "of mem: Cannot allocate memory"), /* its address space: 1 GiB */
            /* its /tmp is a private tmpfs of 64 MiB: filled, not the machine's */
            start_run("hoard", "tmp", "3", users[u], 60.0, GRADE_EXITED,
                      "of tmp: No space left on device"),
        };
        char vpid[32];
        snprintf(vpid, sizeof(vpid), "%ld", (long)victim);
        grade_limits l = short_limits();
        l.user = users[u];
        grade_run r;
        CHECK_EQ_INT(run_fault(&r, "killer", vpid, NULL, &l, NULL), LAB_OK);
        CHECK_EQ_INT(r.end, GRADE_EXITED);
        CHECK_CONTAINS(r.out, "accepted ");
        CHECK_CONTAINS(r.isolation, "own PID namespace");
        grade_run_free(&r);
        const char *what[3] = { "the fork bomb", "the memory hoard", "the /tmp filler" };
        for (int k = users[u] ? 1 : 0; k < 3; k++) {
            int st = -1;
            CHECK(hostile[k] > 0 && waitpid(hostile[k], &st, 0) == hostile[k]);
            if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
                printf("  %s did not run as expected\n", what[k]);
            CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        }
        int status = -1;
        CHECK(waitpid(helper, &status, 0) == helper);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* the neighbour woke and exited 0 */
    }
}

/* The run directory holds at most grade_limits::dir_entries files and folders (a tmpfs of its
 * own, as root): a program that makes files without end is stopped there, the run says so, and
 * the tmpfs goes with grade_run_free. */
static void test_dir_cap(void)
{
    grade_limits l = short_limits();
    l.dir_entries = 100;
    l.dir_bytes = (size_t)16 << 20;
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "many", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_CONTAINS(r.out, "No space left on device");
    int made = -1;
    CHECK(sscanf(r.out, "made %d files", &made) == 1 && made >= 90 && made <= 100);
    CHECK_EQ_INT(r.dir_capped, 1);
    CHECK_EQ_INT(r.dir_full, 1);
    CHECK_CONTAINS(r.isolation, "100 files and folders at most");
    char dir[sizeof(r.workdir)];
    snprintf(dir, sizeof(dir), "%s", r.workdir);
    grade_run_free(&r);
    struct stat st;
    CHECK(stat(dir, &st) != 0); /* unmounted and removed */
    /* The control: without the cap it makes them all. */
    l.dir_entries = 0;
    CHECK_EQ_INT(run_fault(&r, "many", "1000", NULL, &l, NULL), LAB_OK);
    CHECK_CONTAINS(r.out, "made 1000 files");
    CHECK_EQ_INT(r.dir_capped, 0);
    grade_run_free(&r);
}

/* As root without the drop, RLIMIT_NPROC does not hold: only the wall-time kill stops it. */
static void test_forkbomb_as_root(void)
{
    grade_limits l = short_limits();
    l.wall_seconds = 2.0;
    l.max_processes = 50;
    l.user = "root";
    grade_run r;
    CHECK_EQ_INT(run_fault(&r, "forkbomb", NULL, NULL, &l, NULL), LAB_OK);
    CHECK_EQ_INT(r.end, GRADE_WALL_TIMEOUT);
    CHECK(!strstr(r.err, "Resource temporarily unavailable")); /* root ignores RLIMIT_NPROC */
    CHECK(r.wall_seconds >= 2.0);
    CHECK_EQ_INT(leftovers(r.pid), 0);
    grade_run_free(&r);
}

/* ---------------------------------------------------------------------------------------------
 * main
 */

static int argc_;
static char **argv_;

static int wanted(const char *name, int isolation)
{
    if (argc_ < 3 || !strcmp(argv_[2], "all"))
        return !isolation;
    if (!strcmp(argv_[2], "isolation"))
        return isolation;
    for (int i = 2; i < argc_; i++)
        if (strstr(name, argv_[i]))
            return !isolation || is_root;
    return 0;
}

#define RUN(fn, isolation)                                                                         \
    do {                                                                                           \
        if (wanted(#fn, isolation)) {                                                              \
            double t0_ = now_seconds();                                                            \
            LAB_TEST_RUN(fn);                                                                      \
            printf("     (%.2f s)\n", now_seconds() - t0_);                                        \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FAULTS_DIR [all|isolation|NAME...]\n", argv[0]);
        return 2;
    }
    argc_ = argc;
    argv_ = argv;
    faults_dir = argv[1];
    is_root = geteuid() == 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 3 && !strcmp(argv[2], "isolation") && !is_root) {
        printf("skipped: the isolation tests need root (privilege drop, network namespace)\n");
        return LAB_TEST_SKIP;
    }
    RUN(test_signal_names, 0);
    RUN(test_tree_remove, 0);
    RUN(test_ok, 0);
    RUN(test_exit_status, 0);
    RUN(test_missing_program, 0);
    RUN(test_segv, 0);
    RUN(test_abort, 0);
    RUN(test_spin, 0);
    RUN(test_sleeper, 0);
    RUN(test_forkbomb, 0);
    RUN(test_bigalloc, 0);
    RUN(test_bigfile, 0);
    RUN(test_chatty, 0);
    RUN(test_escape, 0);
    RUN(test_fds, 0);
    RUN(test_snoop, 1);
    RUN(test_hidden_kit, 1);
    RUN(test_parent_hidden, 1);
    RUN(test_private_tmp, 1);
    RUN(test_no_network, 1);
    RUN(test_forkbomb_as_root, 1);
    RUN(test_own_uid, 1);
    RUN(test_neighbour_survives, 1);
    RUN(test_dir_cap, 1);
    LAB_TEST_MAIN_END();
}
