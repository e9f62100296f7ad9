/*
 * forkbomb.c — every process forks as fast as it can, and every child does the
 * same; all of them stay alive. The limits of the runner must stop it.
 *
 * Safety net in case they do not: a counter shared by the whole tree stops the
 * forking after 2000 processes, and every process exits 5 s after the first
 * one started. Prints the number of failed forks it saw (once) to stderr.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_FORKS 2000
#define MAX_SECONDS 5.0

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    int *forks = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (forks == MAP_FAILED)
        return 2;
    double start = now();
    int reported = 0;
    while (now() - start < MAX_SECONDS) {
        if (__atomic_fetch_add(forks, 1, __ATOMIC_SEQ_CST) >= MAX_FORKS)
            break;
        pid_t pid = fork();
        if (pid < 0 && !reported) {
            perror("forkbomb: fork");
            reported = 1;
        }
    }
    while (now() - start < MAX_SECONDS) {
        struct timespec ts = { 0, 50000000L };
        nanosleep(&ts, NULL);
    }
    return 0;
}
