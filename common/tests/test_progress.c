/* Unit tests of lab/progress.h. Most use a scripted clock so the output is exact. */
#define _DEFAULT_SOURCE /* openpty, setenv */

#include "lab/progress.h"
#include "lab/timer.h"
#include "lab_test.h"

#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static double fake_now;

static double fake_clock(void)
{
    return fake_now;
}

/* Reads what was written to @p f (a tmpfile) into @p buf and closes it. */
static void read_back(FILE *f, char *buf, size_t cap)
{
    rewind(f);
    size_t len = fread(buf, 1, cap - 1, f);
    buf[len] = '\0';
    fclose(f);
}

static int count_char(const char *s, char c)
{
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

/* A LINES display of @p total items, updated @p updates times, @p dt seconds apart. */
static void run_lines(char *buf, size_t cap, uint64_t total, int updates, double dt)
{
    FILE *f = tmpfile();
    lab_progress *p = lab_progress_create(f, "train", total, LAB_PROGRESS_LINES);
    fake_now = 0.0;
    lab_progress_set_clock(p, fake_clock);
    for (int k = 1; k <= updates; k++) {
        fake_now = k * dt;
        lab_progress_update(p, total ? total * (uint64_t)k / (uint64_t)updates : 100u * k);
    }
    lab_progress_finish(p);
    lab_progress_destroy(p);
    read_back(f, buf, cap);
}

static void test_lines_slow_run_prints_every_ten_percent(void)
{
    char buf[4096];
    run_lines(buf, sizeof(buf), 1000, 100, 1.0); /* 100 s in all */
    CHECK_EQ_INT(count_char(buf, '\n'), 10);
    const char *first = "train: 10% (100/1000) elapsed 10.0 s, eta 90.0 s\n";
    CHECK(strncmp(buf, first, strlen(first)) == 0);
    CHECK_CONTAINS(buf, "\ntrain: 30% (300/1000) elapsed 30.0 s, eta 70.0 s\n");
    CHECK_CONTAINS(buf, "\ntrain: 90% (900/1000) elapsed 90.0 s, eta 10.0 s\n");
    CHECK_CONTAINS(buf, "\ntrain: 100% (1000/1000) done in 100.0 s\n");
    CHECK(strstr(buf, "100% (1000/1000) elapsed") == NULL); /* 100% only in the final line */
    CHECK(strchr(buf, '\r') == NULL && strchr(buf, '\033') == NULL);
}

static void test_lines_two_seconds_apart(void)
{
    char buf[4096];
    run_lines(buf, sizeof(buf), 1000, 10, 0.5); /* a 10% step every 0.5 s */
    CHECK_STREQ(buf, "train: 40% (400/1000) elapsed 2.0 s, eta 3.0 s\n"
                     "train: 80% (800/1000) elapsed 4.0 s, eta 1.0 s\n"
                     "train: 100% (1000/1000) done in 5.0 s\n");
    run_lines(buf, sizeof(buf), 1000, 1000, 0.001); /* a fast run: the final line only */
    CHECK_STREQ(buf, "train: 100% (1000/1000) done in 1.0 s\n");
}

static void test_lines_stopped_early_and_destroy_finishes(void)
{
    FILE *f = tmpfile();
    lab_progress *p = lab_progress_create(f, "grade", 1000, LAB_PROGRESS_LINES);
    fake_now = 10.0;
    lab_progress_set_clock(p, fake_clock);
    fake_now = 12.5;
    lab_progress_update(p, 450);
    lab_progress_destroy(p); /* finishes: prints the final line */
    char buf[1024];
    read_back(f, buf, sizeof(buf));
    CHECK_STREQ(buf, "grade: 45% (450/1000) elapsed 2.5 s, eta 3.1 s\n"
                     "grade: stopped at 45% (450/1000) after 2.5 s\n");
    lab_progress_destroy(NULL);
}

static void test_unknown_total(void)
{
    char buf[4096];
    run_lines(buf, sizeof(buf), 0, 20, 1.0); /* lines when elapsed doubles: 2, 4, 8, 16 s */
    CHECK_STREQ(buf, "train: 200 done, 100.0/s, elapsed 2.0 s\n"
                     "train: 400 done, 100.0/s, elapsed 4.0 s\n"
                     "train: 800 done, 100.0/s, elapsed 8.0 s\n"
                     "train: 1600 done, 100.0/s, elapsed 16.0 s\n"
                     "train: 2000 done in 20.0 s (100.0/s)\n");
    FILE *f = tmpfile();
    lab_progress *p = lab_progress_create(f, "scan", 0, LAB_PROGRESS_TTY);
    lab_progress_update(p, 7);
    lab_progress_destroy(p);
    read_back(f, buf, sizeof(buf));
    CHECK_CONTAINS(buf, "\rscan 0 done, 0.0/s, elapsed 0.0 s\033[K");
    CHECK(strstr(buf, " [") == NULL && strchr(buf, '%') == NULL); /* no bar, no percent */
    CHECK_CONTAINS(buf, "scan: 7 done in ");
}

static void test_tty_redraws_in_place(void)
{
    FILE *f = tmpfile();
    lab_progress *p = lab_progress_create(f, "epoch", 200, LAB_PROGRESS_TTY);
    fake_now = 0.0;
    lab_progress_set_clock(p, fake_clock);
    fake_now = 1.0;
    lab_progress_update(p, 50);
    fake_now = 1.01; /* too soon: not drawn */
    lab_progress_update(p, 60);
    fake_now = 4.0;
    lab_progress_update(p, 200);
    lab_progress_finish(p);
    lab_progress_update(p, 100); /* after finish: ignored */
    lab_progress_destroy(p);
    char buf[4096];
    read_back(f, buf, sizeof(buf));
    CHECK_CONTAINS(buf, "\repoch [....................] 0% (0/200) elapsed 0.0 s, eta ?\033[K");
    CHECK_CONTAINS(buf,
                   "\repoch [#####...............] 25% (50/200) elapsed 1.0 s, eta 3.0 s\033[K");
    CHECK(strstr(buf, "(60/200)") == NULL);
    CHECK_CONTAINS(buf,
                   "\repoch [####################] 100% (200/200) elapsed 4.0 s, eta 0.0 s\033[K");
    CHECK_CONTAINS(buf, "\repoch: 100% (200/200) done in 4.0 s\033[K\n");
    CHECK_EQ_INT(count_char(buf, '\r'), 4);
    CHECK_EQ_INT(count_char(buf, '\n'), 1);
}

static void test_tty_throttle(void)
{
    const uint64_t n = 1000000;
    FILE *f = tmpfile();
    double t0 = lab_wall_seconds();
    lab_progress *p = lab_progress_create(f, "tight", n, LAB_PROGRESS_TTY);
    for (uint64_t i = 1; i <= n; i++)
        lab_progress_update(p, i);
    double elapsed = lab_wall_seconds() - t0;
    lab_progress_destroy(p);
    static char buf[1 << 16];
    read_back(f, buf, sizeof(buf));
    int draws = count_char(buf, '\r');
    /* First state, one per 0.1 s, the 100% state and the final line. */
    CHECK(draws <= 3 + (int)(elapsed / 0.1) + 1);
    CHECK(draws < 1000);
    CHECK_CONTAINS(buf, "100% (1000000/1000000) elapsed");
}

static void test_quiet_prints_nothing(void)
{
    FILE *f = tmpfile();
    lab_progress *p = lab_progress_create(f, "q", 10, LAB_PROGRESS_QUIET);
    for (uint64_t i = 0; i <= 10; i++)
        lab_progress_update(p, i);
    lab_progress_destroy(p);
    CHECK_EQ_INT(ftell(f), 0);
    fclose(f);
    p = lab_progress_create(NULL, NULL, 10, LAB_PROGRESS_TTY); /* no stream: quiet */
    CHECK(p != NULL);
    lab_progress_update(p, 5);
    lab_progress_destroy(p);
}

/* Output of an AUTO display of 10 items written to @p f. */
static void run_auto(FILE *f)
{
    lab_progress *p = lab_progress_create(f, "auto", 10, LAB_PROGRESS_AUTO);
    lab_progress_update(p, 10);
    lab_progress_destroy(p);
    fflush(f);
}

/* Everything the pseudo-terminal's master side has to read, without blocking. */
static void read_master(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    struct pollfd pfd = { fd, POLLIN, 0 };
    while (len + 1 < cap && poll(&pfd, 1, 50) > 0 && (pfd.revents & POLLIN)) {
        ssize_t got = read(fd, buf + len, cap - 1 - len);
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    buf[len] = '\0';
}

static void test_auto_on_pty_and_file(void)
{
    int master, slave;
    if (openpty(&master, &slave, NULL, NULL, NULL) != 0) {
        printf("  (no pseudo-terminal available: pty half skipped)\n");
    } else {
        FILE *f = fdopen(slave, "w");
        char buf[4096];
        unsetenv("GPULAB_PROGRESS");
        setenv("TERM", "xterm", 1);
        run_auto(f);
        read_master(master, buf, sizeof(buf));
        CHECK_CONTAINS(buf, "\033[K"); /* TTY style */
        setenv("TERM", "dumb", 1);
        run_auto(f);
        read_master(master, buf, sizeof(buf));
        CHECK_CONTAINS(buf, "auto: 100% (10/10) done in");
        CHECK(strchr(buf, '\033') == NULL); /* LINES style on a dumb terminal */
        fclose(f);
        close(master);
    }
    setenv("TERM", "xterm", 1);
    FILE *f = tmpfile();
    run_auto(f);
    char buf[1024];
    read_back(f, buf, sizeof(buf));
    CHECK_CONTAINS(buf, "auto: 100% (10/10) done in"); /* LINES style on a file */
    CHECK(strchr(buf, '\r') == NULL && strchr(buf, '\033') == NULL);
}

static void test_env_forces_quiet_in_auto_only(void)
{
    setenv("GPULAB_PROGRESS", "0", 1);
    FILE *f = tmpfile();
    run_auto(f);
    CHECK_EQ_INT(ftell(f), 0);
    lab_progress *p = lab_progress_create(f, "forced", 10, LAB_PROGRESS_LINES);
    lab_progress_destroy(p);
    CHECK(ftell(f) > 0);
    fclose(f);
    unsetenv("GPULAB_PROGRESS");
}

/* The child of test_piped_output_keeps_order: headers on stdout, progress
 * on stderr, both into one pipe, stdout fully buffered as it is on a pipe. */
static void print_headers_and_progress(void)
{
    setvbuf(stdout, NULL, _IOFBF, 4096);
    printf("== header one ==\n");
    lab_progress *p = lab_progress_create(stderr, "piped", 10, LAB_PROGRESS_LINES);
    fake_now = 0.0;
    lab_progress_set_clock(p, fake_clock);
    fake_now = 5.0;
    lab_progress_update(p, 5);
    printf("== header two ==\n");
    fake_now = 10.0;
    lab_progress_update(p, 10);
    lab_progress_destroy(p);
    printf("== after ==\n");
    fflush(stdout);
}

static void test_piped_output_keeps_order(void)
{
    int fds[2];
    char buf[4096];
    size_t len = 0;
    CHECK(pipe(fds) == 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[1]);
        print_headers_and_progress();
        _exit(0);
    }
    close(fds[1]);
    for (ssize_t got;
         len + 1 < sizeof(buf) && (got = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0;)
        len += (size_t)got;
    buf[len] = '\0';
    close(fds[0]);
    waitpid(pid, NULL, 0);
    const char *one = strstr(buf, "== header one =="), *mid = strstr(buf, "piped: 50%");
    const char *two = strstr(buf, "== header two =="), *last = strstr(buf, "piped: 100%");
    const char *after = strstr(buf, "== after ==");
    CHECK(one && mid && two && last && after);
    if (one && mid && two && last && after)
        CHECK(one < mid && mid < two && two < last && last < after);
    else
        printf("  what the pipe held:\n%s", buf);
}

int main(void)
{
    LAB_TEST_RUN(test_lines_slow_run_prints_every_ten_percent);
    LAB_TEST_RUN(test_lines_two_seconds_apart);
    LAB_TEST_RUN(test_lines_stopped_early_and_destroy_finishes);
    LAB_TEST_RUN(test_unknown_total);
    LAB_TEST_RUN(test_tty_redraws_in_place);
    LAB_TEST_RUN(test_tty_throttle);
    LAB_TEST_RUN(test_quiet_prints_nothing);
    LAB_TEST_RUN(test_auto_on_pty_and_file);
    LAB_TEST_RUN(test_env_forces_quiet_in_auto_only);
    LAB_TEST_RUN(test_piped_output_keeps_order);
    LAB_TEST_MAIN_END();
}
