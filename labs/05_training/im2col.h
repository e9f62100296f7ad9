/*
 * im2col.h - lab 05's im2col and col2im on the device (harness: you do not
 * edit it). device_train.cu calls them for each chunk of a conv layer's
 * batch; im2col.cu has the kernels and the plain CPU loop they port.
 */
#ifndef L5_IM2COL_H
#define L5_IM2COL_H

#include <stddef.h>

#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cols (C*k*k rows, ld floats apart; Bc*P columns used) from the Bc samples
 * of conv layer l's input x (Bc, C, H, W): column b*P + p is the patch under
 * output pixel p of sample b, zeros where it hangs over the padding.
 * ld must be a multiple of 4 (im2col_wide_kernel stores float4). */
void l5_im2col(float *cols, size_t ld, const l5_layer *l, const float *x, int Bc);
/* dx (Bc, C, H, W) = the sum, for each input pixel, of the dcols entries
 * im2col copied it to (dcols laid out as cols). */
void l5_col2im(float *dx, const float *dcols, size_t ld, const l5_layer *l, int Bc);

#ifdef __cplusplus
}
#endif

#endif
