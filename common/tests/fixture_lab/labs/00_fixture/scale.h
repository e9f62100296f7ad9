/* The fixture lab's interface between harness (C) and student file (CUDA). */
#ifndef FIXTURE_SCALE_H
#define FIXTURE_SCALE_H

#ifdef __cplusplus
extern "C" {
#endif

/* y = a * x on the device, for n elements; h_x and h_y are host arrays. */
void scale_on_device(float *h_y, const float *h_x, float a, int n);

#ifdef __cplusplus
}
#endif

#endif
