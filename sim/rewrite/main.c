/*
 * gpulab-sim-rewrite — rewrites the kernel launches of a CUDA C file into
 * ordinary C++ calls for the CPU simulator, and its `extern __shared__`
 * declarations into the simulator's dynamic shared memory (see rewrite.h).
 *
 *   gpulab-sim-rewrite [--traits] [--headers] [--depfile F] [--nvcc-checks [--rdc]] IN.cu OUT.cpp
 *
 * ("-" reads stdin / writes stdout). With --headers, every header IN includes
 * with quotes that lies beside it ("kernels.cuh", "sub/x.h") is rewritten too,
 * into the same place relative to OUT, recursively: the compiler looks for a
 * quoted include beside the file being compiled first, so it finds those.
 * --depfile writes a make-style dependency file listing every file read.
 * --nvcc-checks reports, as nvcc does, calls between host and device code
 * that cross execution spaces, and (unless --rdc) device functions called but
 * defined in none of the files read (see gpulab_rw_spaces_check()).
 *
 * Exit status: 0 done, 1 malformed launches (each reported as file:line:
 * message on stderr; OUT is not written) or errors of --nvcc-checks, 2 bad usage or an unreadable
 * or unwritable file.
 */
#include "rewrite.h"

#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: gpulab-sim-rewrite [--traits] [--headers] [--depfile FILE] [--nvcc-checks [--rdc]]\n"
    "                          IN.cu OUT.cpp\n"
    "  Rewrites k<<<grid, block[, shmem[, stream]]>>>(args) into\n"
    "  GPULAB_SIM_LAUNCH((k), \"k\", line, \"args\")(grid, block[, ...])(args)\n"
    "  and extern __shared__ T s[]; into\n"
    "  extern __thread T s[] GPULAB_SIM_DYNAMIC_SHARED;\n"
    "  '-' is stdin or stdout.\n"
    "  --traits   also emit GPULAB_SIM_KERNEL_TRAITS(kernel, 0|1) lines\n"
    "  --headers  also rewrite the headers IN includes with quotes, beside OUT\n"
    "  --depfile  write a make-style list of the files read to FILE\n"
    "  --nvcc-checks  nvcc's errors for calls across host and device code and, without\n"
    "             --rdc, for device functions defined in none of the files read\n";

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

/* Files read so far (for --depfile and to rewrite each header once). */
typedef struct file_list {
    char **v;
    size_t n, cap;
} file_list;

static int list_has(const file_list *l, const char *path)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], path) == 0)
            return 1;
    return 0;
}

static int list_add(file_list *l, const char *path)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **v = realloc(l->v, cap * sizeof(*v));
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n] = strdup(path);
    return l->v[l->n++] ? 0 : -1;
}

static void list_free(file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* The directory part of path ("." when none), into buf. */
static void dir_of(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, len, ".");
    else
        snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* mkdir -p of the directory that will hold path. */
static int make_parent_dirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

/* Whether a quoted include name stays below its directory: no absolute
 * path, no ".." part (its copy must not land outside the output directory). */
static int stays_below(const char *name)
{
    if (name[0] == '/' || strcmp(name, "..") == 0 || strncmp(name, "../", 3) == 0)
        return 0;
    return strstr(name, "/../") == NULL &&
           !(strlen(name) >= 3 && strcmp(name + strlen(name) - 3, "/..") == 0);
}

static int rewrite_file(const char *in, const char *out, unsigned flags, int headers,
                        file_list *seen);

/* The files read, for --nvcc-checks (NULL without it). */
static gpulab_rw_spaces *spaces;

/* Rewrites every header src includes with quotes that exists beside in. */
static int rewrite_includes(const char *src, size_t len, const char *in, const char *out,
                            unsigned flags, file_list *seen)
{
    char in_dir[PATH_MAX], out_dir[PATH_MAX];
    int status = 0;
    dir_of(in, in_dir, sizeof(in_dir));
    dir_of(out, out_dir, sizeof(out_dir));
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && src[end] != '\n')
            end++;
        const char *p = src + i, *e = src + end;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p < e && *p == '#') {
            p++;
            while (p < e && (*p == ' ' || *p == '\t'))
                p++;
            if (e - p > 7 && strncmp(p, "include", 7) == 0) {
                p += 7;
                while (p < e && (*p == ' ' || *p == '\t'))
                    p++;
                const char *close =
                    p < e && *p == '"' ? memchr(p + 1, '"', (size_t)(e - p - 1)) : NULL;
                if (close) {
                    char name[PATH_MAX], hin[2 * PATH_MAX + 2], hout[2 * PATH_MAX + 2];
                    struct stat st;
                    snprintf(name, sizeof(name), "%.*s", (int)(close - p - 1), p + 1);
                    int a = snprintf(hin, sizeof(hin), "%s/%s", in_dir, name);
                    int b = snprintf(hout, sizeof(hout), "%s/%s", out_dir, name);
                    if (a > 0 && (size_t)a < PATH_MAX && b > 0 && (size_t)b < PATH_MAX &&
                        stays_below(name) && stat(hin, &st) == 0 && S_ISREG(st.st_mode) &&
                        !list_has(seen, hin)) {
                        int rc = rewrite_file(hin, hout, flags, 1, seen);
                        status = rc > status ? rc : status;
                    }
                }
            }
        }
        i = end + 1;
    }
    return status;
}

/* Whether the line [p, e) is an #include directive. */
static int is_include_line(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p == e || *p != '#')
        return 0;
    p++;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return e - p >= 7 && strncmp(p, "include", 7) == 0;
}

/* Writes text to out with a `#line N "file"` after each #include line: the
 * compiler goes back to the real file's name after an included file, and the
 * reports of the simulator's check mode must name the .cu file. Output line
 * k (k >= 2) is line k - 1 of the source. */
static int write_with_line_marks(const char *out, const char *text, size_t len, const char *file)
{
    char esc[2 * PATH_MAX + 2];
    size_t j = 0;
    for (const char *c = file; *c && j + 2 < sizeof(esc); c++) {
        if (*c == '"' || *c == '\\')
            esc[j++] = '\\';
        esc[j++] = *c;
    }
    esc[j] = '\0';
    FILE *f = strcmp(out, "-") == 0 ? stdout : fopen(out, "wb");
    if (!f)
        return -1;
    size_t line = 0;
    int bad = 0;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        bad |= fwrite(text + i, 1, end - i, f) != end - i;
        if (end < len)
            bad |= fputc('\n', f) == EOF;
        if (line >= 2 && end < len && is_include_line(text + i, text + end))
            fprintf(f, "#line %zu \"%s\"\n", line, esc); /* next source line is `line` */
        i = end + 1;
    }
    bad |= f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    return bad ? -1 : 0;
}

/* Rewrites in into out (and, with headers, what in includes); 0, 1 or 2 as main. */
static int rewrite_file(const char *in, const char *out, unsigned flags, int headers,
                        file_list *seen)
{
    size_t len;
    if (strcmp(in, "-") != 0 && list_add(seen, in) != 0) {
        fputs("gpulab-sim-rewrite: out of memory\n", stderr);
        return 2;
    }
    char *src = read_input(in, &len);
    if (!src) {
        fprintf(stderr, "gpulab-sim-rewrite: cannot read %s: %s\n", in, strerror(errno));
        return 2;
    }
    if (spaces &&
        gpulab_rw_spaces_add(spaces, src, len, strcmp(in, "-") == 0 ? "<stdin>" : in) != 0) {
        free(src);
        fputs("gpulab-sim-rewrite: out of memory\n", stderr);
        return 2;
    }
    gpulab_rw_result res;
    int rc = gpulab_rw_rewrite(src, len, strcmp(in, "-") == 0 ? "<stdin>" : in, flags, &res);
    if (rc == GPULAB_RW_ENOMEM) {
        free(src);
        fputs("gpulab-sim-rewrite: out of memory\n", stderr);
        return 2;
    }
    int status = 0;
    if (rc > 0) {
        fputs(res.errors, stderr);
        status = 1;
    } else if ((strcmp(out, "-") != 0 && make_parent_dirs(out) != 0) ||
               write_with_line_marks(out, res.text, res.len,
                                     strcmp(in, "-") == 0 ? "<stdin>" : in) != 0) {
        fprintf(stderr, "gpulab-sim-rewrite: cannot write %s: %s\n", out, strerror(errno));
        status = 2;
    }
    gpulab_rw_result_free(&res);
    if (status == 0 && headers && strcmp(in, "-") != 0 && strcmp(out, "-") != 0)
        status = rewrite_includes(src, len, in, out, flags, seen);
    free(src);
    return status;
}

static int write_depfile(const char *path, const char *out, const file_list *seen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "%s:", out);
    for (size_t i = 0; i < seen->n; i++)
        fprintf(f, " \\\n  %s", seen->v[i]);
    fputc('\n', f);
    return fclose(f);
}

int main(int argc, char **argv)
{
    unsigned flags = 0;
    int headers = 0, i = 1, checks = 0, rdc = 0;
    const char *depfile = NULL;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--traits") == 0)
            flags |= GPULAB_RW_TRAITS;
        else if (strcmp(argv[i], "--headers") == 0)
            headers = 1;
        else if (strcmp(argv[i], "--depfile") == 0 && i + 1 < argc)
            depfile = argv[++i];
        else if (strcmp(argv[i], "--nvcc-checks") == 0)
            checks = 1;
        else if (strcmp(argv[i], "--rdc") == 0)
            rdc = 1;
        else
            break;
    }
    if (argc - i != 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *in = argv[i], *out = argv[i + 1];
    file_list seen = { 0 };
    if (checks && !(spaces = gpulab_rw_spaces_new())) {
        fputs("gpulab-sim-rewrite: out of memory\n", stderr);
        return 2;
    }
    int status = rewrite_file(in, out, flags, headers, &seen);
    if (status == 0 && spaces) {
        char *errors = NULL;
        int n = gpulab_rw_spaces_check(spaces, rdc, &errors);
        if (n < 0) {
            fputs("gpulab-sim-rewrite: out of memory\n", stderr);
            status = 2;
        } else if (n > 0) {
            fputs(errors, stderr);
            fprintf(stderr, "%d error%s detected in the compilation of \"%s\".\n", n,
                    n == 1 ? "" : "s", in);
            status = 1;
        }
        free(errors);
    }
    gpulab_rw_spaces_free(spaces);
    if (status == 0 && depfile && write_depfile(depfile, out, &seen) != 0) {
        fprintf(stderr, "gpulab-sim-rewrite: cannot write %s: %s\n", depfile, strerror(errno));
        status = 2;
    }
    list_free(&seen);
    return status;
}
