/*
 * lab_test_child.h — run a function in a child process and capture what it
 * prints to stderr and how it exits, for testing code that exits on error.
 */
#ifndef LAB_TEST_CHILD_H
#define LAB_TEST_CHILD_H

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs fn(arg) in a child with stderr captured into buf (NUL-terminated).
 * Returns the child's exit status, or 128 + signal number if it was killed. */
static int lab_test_run_child(void (*fn)(void *), void *arg, char *buf, size_t len)
{
    int fds[2];
    size_t used = 0;
    int status = 0;
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        fn(arg);
        fflush(stdout);
        _exit(0);
    }
    close(fds[1]);
    for (;;) {
        ssize_t got = read(fds[0], buf + used, len - 1 - used);
        if (got <= 0)
            break;
        used += (size_t)got;
        if (used == len - 1)
            break;
    }
    buf[used] = '\0';
    close(fds[0]);
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

#endif /* LAB_TEST_CHILD_H */
