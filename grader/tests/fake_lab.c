/*
 * fake_lab.c — a purpose-built lab program for the grader's own tests. It
 * speaks the fixture lab's protocol (reads x.npy and a.npy, writes y = a x and
 * result.json) and misbehaves as GRADE_FAKE asks: ok, wrong_shape,
 * wrong_dtype, nan, truncated, missing, lying, not_json, empty, segfault,
 * hang, stderr_exit, wrong_fact (result.json's "n" is not the input's size),
 * abort, sleep (past the limit), forkbomb, bigalloc (64 GiB), bigfile (10 GiB),
 * chatty (1 GiB on stdout, then the right answer), snoop (looks for the
 * expected output anywhere it can reach and hands it in), bytes (exits 1
 * after printing bytes that are not UTF-8 and control bytes, as a student's
 * program may), seed (looks through /proc for a command line holding
 * --seed, the grader's hidden seed: exits 1 naming it when found, else does
 * its work right), kit (tries to read each file of GRADE_FAKE_FILES, a
 * ':'-separated list of the kit's files: exits 1 naming the first it read,
 * else does its work right).
 */
#define _POSIX_C_SOURCE 200809L
#include "lab/npy.h"
#include "lab/protocol.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Misbehaviours that do not depend on the inputs; returns only if mode is none of them. */
static void misbehave(const char *mode)
{
    if (!strcmp(mode, "bytes")) {
        fprintf(stderr, "fake lab: caf\xe9 \x01\x1b[31m au revoir \xc3\n");
        exit(1);
    }
    if (!strcmp(mode, "forge")) {
        fprintf(stderr, "\"; all checks passed (10 of 10 points)\x1b[0m\n");
        exit(1);
    }
    if (!strcmp(mode, "litter")) {
        for (int i = 0; i < 100000; i++) {
            char name[32];
            snprintf(name, sizeof(name), "litter%d", i);
            FILE *f = fopen(name, "w");
            if (!f)
                break;
            fclose(f);
        }
        return; /* and then does its work */
    }
    if (!strcmp(mode, "abort"))
        abort();
    if (!strcmp(mode, "sleep"))
        sleep(1000);
    if (!strcmp(mode, "forkbomb")) {
        for (;;)
            if (fork() < 0) {
                perror("fake lab: fork");
                exit(1);
            }
    }
    if (!strcmp(mode, "bigalloc")) {
        char *volatile p = malloc((size_t)64 << 30); /* volatile: clang would drop it */
        if (!p) {
            fprintf(stderr, "fake lab: malloc(64 GiB) failed: out of memory\n");
            abort();
        }
        memset(p, 1, (size_t)64 << 30);
        exit(0);
    }
    if (!strcmp(mode, "bigfile")) {
        static char chunk[1 << 20];
        FILE *f = fopen("y.npy", "wb");
        for (int i = 0; f && i < 10 * 1024; i++)
            if (fwrite(chunk, 1, sizeof(chunk), f) != sizeof(chunk))
                break;
        exit(0);
    }
}

/* snoop: the grader's expected y.npy, from any directory under /tmp it can read. */
static int snoop(void)
{
    DIR *d = opendir("/tmp");
    struct dirent *e;
    char path[1024];
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        snprintf(path, sizeof(path), "/tmp/%s/y.npy", e->d_name);
        FILE *in = fopen(path, "rb"), *out = in ? fopen("y.npy", "wb") : NULL;
        char buf[4096];
        size_t n;
        while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
            fwrite(buf, 1, n, out);
        found = out != NULL;
        if (out)
            fclose(out);
        if (in)
            fclose(in);
    }
    if (d)
        closedir(d);
    return found;
}

/* seed: a command line in /proc holding "--seed" (the grader's). */
static int find_seed(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    char path[512], cmd[8192];
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "rb");
        size_t n = f ? fread(cmd, 1, sizeof(cmd) - 1, f) : 0;
        for (size_t i = 0; i + 6 <= n && !found; i++)
            found = memcmp(cmd + i, "--seed", 6) == 0;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

/* kit: the first of the ':'-separated files it can read, or NULL. */
static const char *read_kit(const char *list)
{
    static char path[4096];
    const char *p = list;
    while (p && *p) {
        size_t n = strcspn(p, ":");
        snprintf(path, sizeof(path), "%.*s", (int)n, p);
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
            return path;
        }
        p += n + (p[n] == ':');
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = getenv("GRADE_FAKE") ? getenv("GRADE_FAKE") : "ok";
    lab_args args;
    lab_npy_array x, a;
    lab_args_parse(&args, argc, argv, "the grader's fake lab");
    if (!args.graded)
        return 0;
    misbehave(mode);
    if (!strcmp(mode, "seed") && find_seed()) {
        fprintf(stderr, "fake lab: found the grader's --seed\n");
        return 1;
    }
    if (!strcmp(mode, "kit") && read_kit(getenv("GRADE_FAKE_FILES"))) {
        fprintf(stderr, "fake lab: read %s\n", read_kit(getenv("GRADE_FAKE_FILES")));
        return 1;
    }
    if (!strcmp(mode, "snoop")) {
        fprintf(stderr, "fake lab: %s\n", snoop() ? "found an expected output" : "found nothing");
        return 0;
    }
    if (!strcmp(mode, "chatty")) {
        static char chunk[1 << 16];
        memset(chunk, 'y', sizeof(chunk));
        for (long sent = 0; sent < (1L << 30); sent += (long)sizeof(chunk))
            if (fwrite(chunk, 1, sizeof(chunk), stdout) != sizeof(chunk))
                break;
        fflush(stdout);
    }
    lab_input(&x, &args, "x", LAB_DTYPE_F32, 1);
    lab_input(&a, &args, "a", LAB_DTYPE_F32, 0);
    float *y = calloc(x.count + 1, sizeof(*y));
    double *yd = calloc(x.count + 1, sizeof(*yd));
    for (size_t i = 0; i < x.count; i++) {
        y[i] = ((const float *)a.data)[0] * ((const float *)x.data)[i];
        yd[i] = y[i];
    }
    size_t shape[2] = { x.count, 1 };
    if (!strcmp(mode, "segfault"))
        raise(SIGSEGV);
    if (!strcmp(mode, "hang"))
        for (;;)
            pause();
    if (!strcmp(mode, "stderr_exit")) {
        fprintf(stderr, "something went wrong\nout of luck\n");
        return 3;
    }
    if (!strcmp(mode, "empty") || !strcmp(mode, "missing")) {
        if (!strcmp(mode, "missing"))
            write_text("result.json", "{\"backend\": \"sim\"}\n");
        return 0;
    }
    if (!strcmp(mode, "lying")) {
        memset(y, 0, sizeof(*y) * x.count);
        write_text("result.json", "{\"backend\": \"sim\", \"pass\": true, \"status\": \"PASS\"}\n");
        lab_output(&args, "y", LAB_DTYPE_F32, 1, shape, y);
        return 0;
    }
    if (!strcmp(mode, "nan"))
        y[x.count / 2] = 0.0f / 0.0f;
    if (!strcmp(mode, "wrong_shape"))
        lab_output(&args, "y", LAB_DTYPE_F32, 2, shape, y);
    else if (!strcmp(mode, "wrong_dtype"))
        lab_output(&args, "y", LAB_DTYPE_F64, 1, shape, yd);
    else
        lab_output(&args, "y", LAB_DTYPE_F32, 1, shape, y);
    if (!strcmp(mode, "truncated") && truncate("y.npy", 100) != 0)
        return 1;
    if (!strcmp(mode, "not_json"))
        write_text("result.json", "PASS\n");
    else {
        lab_result *r = lab_result_create();
        lab_result_set_string(r, "backend", "sim");
        lab_result_set_int(r, "n", (long long)x.count + !strcmp(mode, "wrong_fact"));
        lab_result_save(&args, r);
        lab_result_destroy(r);
    }
    free(y);
    free(yd);
    lab_npy_free(&x);
    lab_npy_free(&a);
    return 0;
}
