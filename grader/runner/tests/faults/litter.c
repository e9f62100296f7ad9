/*
 * litter.c — writes a file at each path given (outside its working directory:
 * /tmp, /dev/shm, ...), prints "wrote <path>" or "cannot write <path>: <why>"
 * for each, and exits 0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "w");
        if (!f) {
            printf("cannot write %s: %s\n", argv[i], strerror(errno));
            continue;
        }
        fputs("left behind by a graded program\n", f);
        fclose(f);
        printf("wrote %s\n", argv[i]);
    }
    return 0;
}
