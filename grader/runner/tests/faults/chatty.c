/* chatty.c — prints 1 GiB to stdout, 64 KiB at a time, then "done" to stderr. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    static char chunk[1 << 16];
    memset(chunk, 'y', sizeof(chunk));
    for (long sent = 0; sent < (1L << 30);) {
        ssize_t n = write(1, chunk, sizeof(chunk));
        if (n <= 0) {
            perror("chatty: write");
            return 4;
        }
        sent += n;
    }
    fprintf(stderr, "done\n");
    return 0;
}
