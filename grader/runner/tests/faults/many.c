/*
 * many.c — creates empty files f0, f1, ... in its working directory until one cannot be made
 * (or argv[1] are, default 100000), prints "made N files: <why it stopped>" and exits 0. The run
 * directory's cap must stop it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int n = 0, most = argc > 1 ? atoi(argv[1]) : 100000;
    const char *why = "made them all";
    for (; n < most; n++) {
        char name[32];
        snprintf(name, sizeof(name), "f%d", n);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0) {
            why = strerror(errno);
            break;
        }
        close(fd);
    }
    printf("made %d files: %s\n", n, why);
    return 0;
}
