/* plain_add.h - the plain C loop bench-sim compares its vector add with. */
#ifndef GPULAB_SIM_BENCH_PLAIN_ADD_H
#define GPULAB_SIM_BENCH_PLAIN_ADD_H

#ifdef __cplusplus
extern "C" {
#endif

/* c[i] = a[i] + b[i] for i < n. */
void bench_plain_add(float *c, const float *a, const float *b, int n);

#ifdef __cplusplus
}
#endif

#endif
