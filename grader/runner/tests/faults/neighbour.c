/*
 * neighbour.c — an honest program that takes its time: sleeps argv[1] seconds (default 3),
 * then prints "woke" and exits 0. The concurrent-run test runs it beside killer.c, which
 * tries to kill it; it must wake all the same.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    struct timespec ts = { argc > 1 ? atoi(argv[1]) : 3, 0 };
    if (ts.tv_sec < 0 || ts.tv_sec > 60)
        return 2;
    while (nanosleep(&ts, &ts) != 0) {
    }
    printf("woke\n");
    return 0;
}
