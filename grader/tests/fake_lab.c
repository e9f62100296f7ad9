/*
 * fake_lab.c — a purpose-built lab program for the grader's own tests. It
 * speaks the fixture lab's protocol (reads x.npy and a.npy, writes y = a x and
 * result.json) and misbehaves as GRADE_FAKE asks: ok, wrong_shape,
 * wrong_dtype, nan, truncated, missing, lying, not_json, empty, segfault,
 * hang, stderr_exit, wrong_fact (result.json's "n" is not the input's size).
 */
#define _POSIX_C_SOURCE 200809L
#include "lab/npy.h"
#include "lab/protocol.h"

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

int main(int argc, char **argv)
{
    const char *mode = getenv("GRADE_FAKE") ? getenv("GRADE_FAKE") : "ok";
    lab_args args;
    lab_npy_array x, a;
    lab_args_parse(&args, argc, argv, "the grader's fake lab");
    if (!args.graded)
        return 0;
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
