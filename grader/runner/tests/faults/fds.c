/*
 * fds.c — opens /dev/null until it may not (or 100000 times), prints
 * "opened N: <why it stopped>" and exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    int n = 0, err = 0;
    while (n < 100000) {
        if (open("/dev/null", O_RDONLY) < 0) {
            err = errno;
            break;
        }
        n++;
    }
    printf("opened %d: %s\n", n, err ? strerror(err) : "no limit");
    return 0;
}
