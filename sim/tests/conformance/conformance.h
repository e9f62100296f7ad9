/*
 * conformance.h — the shared harness of the simulator's conformance programs.
 *
 * Each program in this folder is plain CUDA C that runs on both backends (real
 * nvcc + a GPU, and the CPU simulator). It starts with conf_require_device(),
 * checks results with conf_check(), and ends with `return conf_finish();`,
 * which prints one `PASS name` or `FAIL name (N checks failed)` line.
 * Exit status: 0 pass, 1 fail, 77 skipped (no usable device).
 *
 * Header-only and C-style so that it compiles as the C++ both backends use
 * for .cu files; everything here is static.
 */
#ifndef GPULAB_CONFORMANCE_H
#define GPULAB_CONFORMANCE_H

#include <cuda_runtime.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The exit status CTest reports as "skipped". */
#define CONF_SKIP 77

/* How many FAIL lines one program prints before it only counts. */
#define CONF_MAX_PRINTED 10

static int conf_failures;

/* Stops the program (exit 1) when a CUDA call that must succeed does not. */
#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        cudaError_t conf_err_ = (call);                                                            \
        if (conf_err_ != cudaSuccess) {                                                            \
            printf("%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,                       \
                   cudaGetErrorName(conf_err_), cudaGetErrorString(conf_err_));                    \
            printf("FAIL (aborted)\n");                                                            \
            fflush(stdout);                                                                        \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline void
conf_report_failure(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    conf_failures++;
    if (conf_failures > CONF_MAX_PRINTED) {
        if (conf_failures == CONF_MAX_PRINTED + 1)
            printf("(further failures are counted, not printed)\n");
        return;
    }
    printf("FAIL %s:%d: %s: ", file, line, cond);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* Counts a failed check and prints `FAIL file:line: cond: <message>`. */
#define conf_check(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond))                                                                               \
            conf_report_failure(__FILE__, __LINE__, #cond, __VA_ARGS__);                           \
    } while (0)

/* Checks that a call returned the expected error code, naming both when not. */
#define conf_check_err(got, want)                                                                  \
    do {                                                                                           \
        cudaError_t conf_got_ = (got), conf_want_ = (want);                                        \
        conf_check(conf_got_ == conf_want_, "got %s, expected %s", cudaGetErrorName(conf_got_),    \
                   cudaGetErrorName(conf_want_));                                                  \
    } while (0)

/* Exits 77 (skipped) with a message. */
static inline void conf_skip(const char *why)
{
    printf("SKIP: %s\n", why);
    fflush(stdout);
    exit(CONF_SKIP);
}

/* Exits 77 unless at least `n` CUDA devices are usable. */
static inline void conf_require_devices(int n)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        printf("SKIP: no usable CUDA device: cudaGetDeviceCount: %s (%s)\n", cudaGetErrorName(err),
               cudaGetErrorString(err));
        fflush(stdout);
        exit(CONF_SKIP);
    }
    if (count < n) {
        printf("SKIP: this program needs %d CUDA device(s), found %d\n", n, count);
        fflush(stdout);
        exit(CONF_SKIP);
    }
}

/* Exits 77 when there is no usable CUDA device. */
static inline void conf_require_device(void)
{
    conf_require_devices(1);
}

/* |got - want| <= atol + rtol * |want|; NaN is never near anything. */
static inline int conf_near(double got, double want, double atol, double rtol)
{
    if (got != got || want != want)
        return 0;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

/* A tiny deterministic generator: the next value in [0, 2^31). */
static inline unsigned conf_lcg(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 1) & 0x7fffffffu;
}

/* A deterministic float in [lo, hi). */
static inline float conf_lcg_float(unsigned *state, float lo, float hi)
{
    return lo + (hi - lo) * (float)conf_lcg(state) / 2147483648.0f;
}

/* Host wall clock in milliseconds (CLOCK_MONOTONIC). */
static inline double conf_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Prints the result line and returns the exit status (0 pass, 1 fail). */
static inline int conf_finish_named(const char *file)
{
    const char *base = strrchr(file, '/');
    char name[128];
    size_t len;
    base = base ? base + 1 : file;
    len = strcspn(base, ".");
    if (len >= sizeof(name))
        len = sizeof(name) - 1;
    memcpy(name, base, len);
    name[len] = '\0';
    if (conf_failures)
        printf("FAIL %s (%d checks failed)\n", name, conf_failures);
    else
        printf("PASS %s\n", name);
    fflush(stdout);
    return conf_failures ? 1 : 0;
}

/* `return conf_finish();` at the end of main: named after the .cu file. */
#define conf_finish() conf_finish_named(__FILE__)

#endif /* GPULAB_CONFORMANCE_H */
