/*
 * escape.c — leaves a process behind in a session of its own (fork, setsid,
 * fork) that sleeps 30 s, prints that process's id and exits 0 at once.
 * The runner must kill it anyway.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
    int fds[2];
    if (pipe(fds) != 0)
        return 2;
    pid_t mid = fork();
    if (mid == 0) {
        setsid();
        pid_t deep = fork();
        if (deep == 0) {
            close(fds[0]);
            close(fds[1]);
            struct timespec ts = { 30, 0 };
            nanosleep(&ts, NULL);
            _exit(0);
        }
        ssize_t n = write(fds[1], &deep, sizeof(deep));
        _exit(n == sizeof(deep) ? 0 : 1);
    }
    pid_t deep = -1;
    ssize_t n = read(fds[0], &deep, sizeof(deep));
    waitpid(mid, NULL, 0);
    printf("left behind: %d\n", n == sizeof(deep) ? (int)deep : -1);
    return 0;
}
