/*
 * student.h - what you write in lab 05, and what the harness calls.
 *
 * Part 1, to_device.cu: moving the model and each batch to the device.
 * Part 2, kernels.cu:   the kernels of the layers that are not a GEMM, and
 *                       the Adam update.
 *
 * Every pointer named d_... is device memory, h_... host memory. Every
 * launcher launches on the default stream and checks the launch
 * (LAB_CHECK_LAUNCH); none of them synchronizes.
 */
#ifndef L5_STUDENT_H
#define L5_STUDENT_H

#include <stddef.h>

#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The model on the device: four vectors of n floats each, allocated once and
 * kept there for the whole run. params and grads are laid out like the CPU
 * trainer's flat vectors (net.h); m and v are Adam's two moments. */
typedef struct l5_dev_model {
    size_t n;
    float *params, *grads, *m, *v;
} l5_dev_model;

/* ---- to_device.cu ---------------------------------------------------------- */

/* Allocates d's four vectors on the device, copies the n parameters of
 * h_params into d->params, and sets Adam's moments to zero. */
void model_to_device(l5_dev_model *d, const float *h_params, size_t n);
/* Copies the parameters (and, when h_grads is not NULL, the gradients) back. */
void model_to_host(float *h_params, float *h_grads, const l5_dev_model *d);
/* Frees the four vectors; sets them to NULL. */
void model_free(l5_dev_model *d);
/* Copies one batch to the device buffers the harness allocated:
 * x_floats floats of images and B labels. */
void batch_to_device(float *d_x, int *d_y, const float *h_x, const int *h_y, size_t x_floats,
                     int B);

/* ---- kernels.cu -------------------------------------------------------------- */

/* y = max(x, 0), n elements. */
void relu_forward(float *d_y, const float *d_x, size_t n);
/* dx = dy where the forward output y > 0, else 0 (PyTorch's choice at 0). */
void relu_backward(float *d_dx, const float *d_dy, const float *d_y, size_t n);
/* y[(i / inner) % channels] += b for the B * channels * inner elements of y:
 * a conv output (B, channels, inner = h*w) or a linear one (B, channels, 1). */
void bias_add(float *d_y, const float *d_b, int B, int channels, int inner);
/* 2x2 max-pool, stride 2, over `planes` planes of h x w (h, w even):
 * y (planes, h/2, w/2); argmax[o] = flat index into x of output o's maximum
 * (the first one in row-major order within the window on ties). */
void maxpool_forward(float *d_y, int *d_argmax, const float *d_x, int planes, int h, int w);
/* dx (planes, h, w): each output's gradient goes to its argmax position;
 * the harness has zeroed dx. */
void maxpool_backward(float *d_dx, const float *d_dy, const int *d_argmax, int planes, int h,
                      int w);
/* For logits (B, C) and labels y: losses[b] = log(sum_j exp(z_j - max)) -
 * (z_y - max), and dlogits = (softmax(z) - onehot(y)) / B, the gradient of the
 * batch's mean loss. */
void softmax_xent(float *d_dlogits, float *d_losses, const float *d_logits, const int *d_y, int B,
                  int C);
/* One Adam step for n parameters, with the scalars of net.h's l5_adam_scalars:
 *   m = beta1 m + (1 - beta1) g,  v = beta2 v + (1 - beta2) g g,
 *   p = p - step_size m / (sqrt(v) / bc2_sqrt + eps).  */
void adam_update(float *d_p, const float *d_g, float *d_m, float *d_v, size_t n, l5_adam_scalars s);

#ifdef __cplusplus
}
#endif

#endif
