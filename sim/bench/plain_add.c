/*
 * plain_add.c - bench-sim's "c" row: the vector add as a plain C loop,
 * compiled as the build compiles C, not as the simulator compiles kernel
 * code (-O3, which vectorizes this loop four floats at a time where a
 * simulated thread's body adds one element: that would compare the
 * vectorizer, not the simulator's overhead per thread).
 */
#include "plain_add.h"

void bench_plain_add(float *c, const float *a, const float *b, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
