/* sleeper.c — prints a line, then sleeps 30 s (a hang): stopped by the wall-time limit. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

int main(void)
{
    printf("sleeping\n");
    fflush(stdout);
    struct timespec ts = { 30, 0 };
    while (nanosleep(&ts, &ts) != 0) {
    }
    return 0;
}
