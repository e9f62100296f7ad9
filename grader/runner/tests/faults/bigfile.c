/*
 * bigfile.c — writes a 10 GiB file, 1 MiB at a time.
 * Safety net if no limit stops it: stops after 100 MiB and exits 3.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof(chunk));
    FILE *f = fopen("big.bin", "wb");
    if (!f) {
        perror("bigfile: big.bin");
        return 2;
    }
    for (long i = 0; i < 10L * 1024; i++) {
        if (fwrite(chunk, 1, sizeof(chunk), f) != sizeof(chunk)) {
            perror("bigfile: fwrite");
            return 4;
        }
        if (i >= 100) {
            fprintf(stderr, "bigfile: the file-size limit was not enforced\n");
            fclose(f);
            return 3;
        }
    }
    fclose(f);
    return 0;
}
