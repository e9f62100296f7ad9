/* util.h — the nvcc driver test: functions of util.cu, helper.c and extra.cpp. */
#ifndef NVCC_TEST_UTIL_H
#define NVCC_TEST_UTIL_H

#ifdef __cplusplus
extern "C" {
#endif

/* y = SCALE * x on the device (util.cu). */
void scale_on_device(float *h_y, const float *h_x, int n);
/* Sum of 0 .. n-1 (helper.c, plain C). */
long sum_below(int n);

#ifdef __cplusplus
}
#endif

/* A C++ function (extra.cpp). */
#ifdef __cplusplus
int cxx_twice(int x);
#endif

#endif
