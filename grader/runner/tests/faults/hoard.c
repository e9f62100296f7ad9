/*
 * hoard.c — a neighbour that takes what it can and holds it: "hoard mem SECONDS" allocates and
 * touches memory 64 MiB at a time until malloc fails, "hoard tmp SECONDS" writes files
 * /tmp/hoard-<pid>-<k> (16 MiB each) 1 MiB at a time until a write fails; either then holds
 * it SECONDS seconds (default 3), prints "held N MiB of mem|tmp: <why it stopped>" and exits 0.
 * The concurrent-run test runs it beside an honest program, which must end as it would alone.
 *
 * Safety net if no limit stops it: at most 1 GiB of memory or 256 MiB of /tmp, at most 60 s.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK ((size_t)1 << 20)
#define MEM_MAX_MIB 1024
#define TMP_MAX_MIB 256

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "mem") && strcmp(argv[1], "tmp")))
        return 2;
    int mem = !strcmp(argv[1], "mem");
    struct timespec hold = { argc > 2 ? atoi(argv[2]) : 3, 0 };
    if (hold.tv_sec < 0 || hold.tv_sec > 60)
        return 2;
    const char *why = "reached its own cap";
    int mib = 0;
    if (mem) {
        for (; mib + 64 <= MEM_MAX_MIB; mib += 64) {
            char *volatile p = malloc(64 * CHUNK); /* volatile: kept under clang */
            if (!p) {
                why = strerror(errno);
                break;
            }
            memset(p, 1, 64 * CHUNK); /* kept: it is held until exit */
        }
    } else {
        char buf[4096];
        memset(buf, 'x', sizeof(buf));
        FILE *f = NULL;
        for (; mib < TMP_MAX_MIB; mib++) {
            if (mib % 16 == 0) { /* a file of 16 MiB each: under any file size limit */
                char path[64];
                snprintf(path, sizeof(path), "/tmp/hoard-%ld-%d", (long)getpid(), mib / 16);
                if ((f && fclose(f) != 0) || !(f = fopen(path, "w"))) {
                    f = NULL;
                    why = strerror(errno);
                    break;
                }
            }
            size_t k = 0;
            while (k < CHUNK && fwrite(buf, 1, sizeof(buf), f) == sizeof(buf))
                k += sizeof(buf);
            if (k < CHUNK || fflush(f) != 0) {
                why = strerror(errno);
                break;
            }
        }
        if (f)
            fclose(f);
    }
    while (nanosleep(&hold, &hold) != 0) {
    }
    printf("held %d MiB of %s: %s\n", mib, argv[1], why);
    return 0;
}
