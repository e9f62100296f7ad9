/*
 * cpu_conv.h - the CPU trainer's vector loops (cpu_conv.c), one set per
 * instruction set: cpu_conv.c is compiled once for AVX-512, once for AVX2 +
 * FMA and once for the compiler's default, each with vectors and register
 * blocks that fit that set's registers, and l5_conv_ops_pick chooses one
 * when a trainer is made.
 *
 * The loops read a sample's planes laid out at a padded width (see
 * cpu_train.c): row r of X is in[off[r] ...], never built.
 *   conv_tile:  out (M, n) = init + Wt^T . X,   wt (K, M), X[r][p] = in[off[r] + p]
 *   wgrad_rows: G (M, K) += D (M, n) . X^T
 *   row_sums:   g[m] += the sum of row m of D (M, n)
 * and ReLU and 2x2 max-pooling, forward (ReLU backward too).
 * n is a multiple of L5_CONV_N (16 floats: a whole number of vectors on
 * every set). Every sum runs in an order fixed by the code and the set, so
 * a set gives the same bits whatever thread calls it.
 */
#ifndef LAB05_CPU_CONV_H
#define LAB05_CPU_CONV_H

#include <stddef.h>

#define L5_CONV_N 16

typedef struct l5_conv_ops {
    const char *name; /* "avx512", "avx2" or "generic" */
    void (*conv_tile)(float *out, size_t ldo, int M, const float *wt, const float *in,
                      const int *off, int K, size_t n, const float *init);
    void (*wgrad_rows)(float *g, int M, int K, const float *d, size_t ldd, const float *in,
                       const int *off, size_t n);
    void (*row_sums)(float *g, int M, const float *d, size_t n);
    /* rows rows of n floats, src_stride apart, to dst, dst_stride apart */
    void (*copy_rows)(float *dst, size_t dst_stride, const float *src, size_t src_stride, int rows,
                      int n);
    /* The other per-sample layers, plain loops the compiler vectorises for the set. */
    void (*relu_forward)(float *y, const float *x, size_t n);
    void (*relu_backward)(float *dx, const float *dy, const float *y, size_t n);
    void (*maxpool_forward)(int *argmax, float *y, const float *x, int C, int H, int W, int OH,
                            int OW);
} l5_conv_ops;

/* The set to use: GPULAB_LAB05_ISA (avx512, avx2 or generic) when set and
 * the CPU has it, else the widest the CPU has. NULL with a message in why
 * when GPULAB_LAB05_ISA names no set or one this CPU or build lacks. */
const l5_conv_ops *l5_conv_ops_pick(char *why, size_t why_len);

#endif
