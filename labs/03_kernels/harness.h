/*
 * harness.h — what the files of lab 03's harness share (main.c, timing.c).
 * Students do not edit it.
 */
#ifndef LAB03_HARNESS_H
#define LAB03_HARNESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The CPU loop the kernels port: c = a + b over n elements. */
void lab03_vec_add_cpu(float *c, const float *a, const float *b, size_t n);

/* Part 4 of the demo: vec_add against the CPU loop for N = 2^10 .. 2^max_log2,
 * the crossover and launch_overhead.svg. Returns the number of failures (the
 * timed kernel's result checked at the largest N). */
int lab03_demo_timing(int max_log2);

#ifdef __cplusplus
}
#endif

#endif
