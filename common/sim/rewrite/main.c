/*
 * gpulab-sim-rewrite — rewrites the kernel launches of a CUDA C file into
 * ordinary C++ calls for the CPU simulator, and its `extern __shared__`
 * declarations into the simulator's dynamic shared memory (see rewrite.h).
 *
 *   gpulab-sim-rewrite [--traits] IN.cu OUT.cpp     ("-" reads stdin / writes stdout)
 *
 * Exit status: 0 done, 1 malformed launches (each reported as file:line:
 * message on stderr; OUT is not written), 2 bad usage or an unreadable or
 * unwritable file.
 */
#include "rewrite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: gpulab-sim-rewrite [--traits] IN.cu OUT.cpp\n"
    "  Rewrites k<<<grid, block[, shmem[, stream]]>>>(args) into\n"
    "  GPULAB_SIM_LAUNCH((k), \"k\", line, \"args\")(grid, block[, ...])(args)\n"
    "  and extern __shared__ T s[]; into\n"
    "  extern __thread T s[] GPULAB_SIM_DYNAMIC_SHARED;\n"
    "  '-' is stdin or stdout.\n"
    "  --traits  also emit GPULAB_SIM_KERNEL_TRAITS(kernel, 0|1) lines\n";

/* Reads all of @p f into a malloc'd buffer; returns NULL on a read error or no memory. */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    *len = n;
    return buf;
}

static char *read_input(const char *path, size_t *len)
{
    if (strcmp(path, "-") == 0)
        return read_all(stdin, len);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = read_all(f, len);
    fclose(f);
    return buf;
}

static int write_output(const char *path, const char *text, size_t len)
{
    int to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(text, 1, len, f) != len;
    bad |= to_stdout ? fflush(f) != 0 : fclose(f) != 0;
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    unsigned flags = 0;
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "--traits") == 0) {
        flags = GPULAB_RW_TRAITS;
        first = 2;
    }
    if (argc - first != 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *in = argv[first], *out = argv[first + 1];
    size_t len;
    char *src = read_input(in, &len);
    if (!src) {
        fprintf(stderr, "gpulab-sim-rewrite: cannot read %s: %s\n", in, strerror(errno));
        return 2;
    }
    gpulab_rw_result res;
    int rc = gpulab_rw_rewrite(src, len, strcmp(in, "-") == 0 ? "<stdin>" : in, flags, &res);
    free(src);
    if (rc == GPULAB_RW_ENOMEM) {
        fputs("gpulab-sim-rewrite: out of memory\n", stderr);
        return 2;
    }
    int status = 0;
    if (rc > 0) {
        fputs(res.errors, stderr);
        status = 1;
    } else if (write_output(out, res.text, res.len) != 0) {
        fprintf(stderr, "gpulab-sim-rewrite: cannot write %s: %s\n", out, strerror(errno));
        status = 2;
    }
    gpulab_rw_result_free(&res);
    return status;
}
