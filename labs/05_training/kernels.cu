/*
 * kernels.cu - lab 05, part 2: the device kernels of a training step that
 * are not matrix products (those go to cuBLAS in the harness).
 *
 * Kernels, each with its launcher below (256 threads a block, one thread per
 * element unless said otherwise):
 *   relu_forward_kernel     y = max(x, 0)
 *   relu_backward_kernel    dx = dy where y > 0
 *   bias_add_kernel         y += b, broadcast over samples and pixels
 *   maxpool_forward_kernel  2x2 max and where it was; one thread per output
 *   maxpool_backward_kernel each output's gradient to its argmax
 *   softmax_xent_kernel     loss and gradient of one sample; one thread per row
 *   adam_kernel             the whole model's Adam step in one launch
 *
 * The plain CPU loops they port (the CPU trainer, cpu_train.c, cpu_conv.c and
 * net.c, computes the same things in the same order: compare with it when a
 * check fails); each kernel's thread does one iteration of the outer loop:
 *
 *   for (i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;          // relu_forward
 *   for (i = 0; i < n; i++) dx[i] = y[i] > 0 ? dy[i] : 0;        // relu_backward
 *   for (i = 0; i < n; i++) y[i] += b[(i / inner) % channels];   // bias_add
 *   for (o = 0; o < planes * (h/2) * (w/2); o++) {               // maxpool_forward
 *       best = the first index of the largest x in o's 2x2 window;
 *       y[o] = x[best]; argmax[o] = best;
 *   }
 *   for (o = 0; o < n_out; o++) dx[argmax[o]] = dy[o];           // maxpool_backward
 *   for (b = 0; b < B; b++) {                                    // softmax_xent
 *       mx = max_j z[j]; sum = sum_j exp(z[j] - mx);             //   z: row b of logits
 *       losses[b] = log(sum) - (z[y[b]] - mx);
 *       for (j = 0; j < C; j++) dz[j] = (exp(z[j] - mx) / sum - (j == y[b])) / B;
 *   }
 *   for (i = 0; i < n; i++) {                                    // adam
 *       m[i] = b1 m[i] + (1 - b1) g[i];  v[i] = b2 v[i] + (1 - b2) g[i]^2;
 *       p[i] -= step_size m[i] / (sqrt(v[i]) / bc2_sqrt + eps);
 *   }
 *
 * Build and run: see README.md.
 */
#include "student.h"

#include "lab/check.h"
#include "lab/todo.h"

#include <math.h>

#define THREADS 256

/* Blocks of d threads that cover n elements. */
unsigned int ceil_div(size_t n, unsigned int d)
{
    return (unsigned int)((n + d - 1) / d);
}

// ----------------------------------------------------------------------------
// kernels

__global__ void relu_forward_kernel(float *y, const float *x, size_t n)
{
    // TODO 5: port the relu_forward loop at the top of this file: this thread
    // does element i. Hint: the last block's extra threads (i >= n) do nothing.
    // About 3 lines.
    LAB_TODO_UNUSED(y, x, n);
}

__global__ void relu_backward_kernel(float *dx, const float *dy, const float *y, size_t n)
{
    // TODO 6: port the relu_backward loop, one thread per element as in TODO 5.
    // Hint: the mask is the forward pass's output y, not its input. About 3 lines.
    LAB_TODO_UNUSED(dx, dy, y, n);
}

__global__ void bias_add_kernel(float *y, const float *b, size_t n, int channels, int inner)
{
    // TODO 7: port the bias_add loop, one thread per element of y. Hint: y holds
    // B samples of `channels` planes of `inner` pixels; the loop says which
    // channel's bias element i gets. About 3 lines.
    LAB_TODO_UNUSED(y, b, n, channels, inner);
}

__global__ void maxpool_forward_kernel(float *y, int *argmax, const float *x, int planes, int h,
                                       int w)
{
    // TODO 8: one thread per output o (planes * (h/2) * (w/2) of them): the
    // largest of the four inputs in its 2x2 window into y[o], and where it was
    // (a flat index into x) into argmax[o]. Hint: split o into its plane, row
    // and column first; plane p of x starts p*h*w floats in. On a tie keep the
    // first in row-major order (the CPU trainer compares with >). About 15 lines.
    LAB_TODO_UNUSED(y, argmax, x, planes, h, w);
}

__global__ void maxpool_backward_kernel(float *dx, const float *dy, const int *argmax, size_t n_out)
{
    // TODO 9: port the maxpool_backward loop: each output's gradient goes to the
    // input its maximum came from. Hint: no two windows share an input, so no
    // atomics are needed. About 3 lines.
    LAB_TODO_UNUSED(dx, dy, argmax, n_out);
}

__global__ void softmax_xent_kernel(float *dlogits, float *losses, const float *logits,
                                    const int *y, int B, int C)
{
    // TODO 10: port the softmax_xent loop at the top of this file, one thread
    // per sample b (row b of logits and of dlogits). Hint: subtract the row's
    // largest logit before expf, or a large logit overflows to inf. About 12
    // lines.
    LAB_TODO_UNUSED(dlogits, losses, logits, y, B, C);
}

__global__ void adam_kernel(float *p, const float *g, float *m, float *v, size_t n,
                            l5_adam_scalars s)
{
    // TODO 11: port the adam loop, one thread per parameter, with the fields of
    // s (student.h, adam_update, says what each is; s.one_minus_beta1 is
    // 1 - beta1 already rounded as PyTorch rounds it). Hint: read m[i] and v[i]
    // once, write them back once. About 8 lines.
    LAB_TODO_UNUSED(p, g, m, v, n, s);
}

// ----------------------------------------------------------------------------
// launchers

void relu_forward(float *d_y, const float *d_x, size_t n)
{
    // TODO 12: launch relu_forward_kernel with THREADS threads a block and
    // enough blocks for n elements (ceil_div), then LAB_CHECK_LAUNCH(). About 2
    // lines. TODOs 13-18 are the same for the launchers below.
    LAB_TODO_UNUSED(d_y, d_x, n);
}

void relu_backward(float *d_dx, const float *d_dy, const float *d_y, size_t n)
{
    // TODO 13: as TODO 12, for relu_backward_kernel (n elements). About 2 lines.
    LAB_TODO_UNUSED(d_dx, d_dy, d_y, n);
}

void bias_add(float *d_y, const float *d_b, int B, int channels, int inner)
{
    // TODO 14: as TODO 12, for bias_add_kernel: one thread per element of y
    // (B * channels * inner of them). About 3 lines.
    LAB_TODO_UNUSED(d_y, d_b, B, channels, inner);
}

void maxpool_forward(float *d_y, int *d_argmax, const float *d_x, int planes, int h, int w)
{
    // TODO 15: as TODO 12, for maxpool_forward_kernel: one thread per output
    // (planes * (h / 2) * (w / 2) of them). About 3 lines.
    LAB_TODO_UNUSED(d_y, d_argmax, d_x, planes, h, w);
}

void maxpool_backward(float *d_dx, const float *d_dy, const int *d_argmax, int planes, int h, int w)
{
    // TODO 16: as TODO 12, for maxpool_backward_kernel: one thread per output
    // (planes * (h / 2) * (w / 2) of them). About 3 lines.
    LAB_TODO_UNUSED(d_dx, d_dy, d_argmax, planes, h, w);
}

void softmax_xent(float *d_dlogits, float *d_losses, const float *d_logits, const int *d_y, int B,
                  int C)
{
    // TODO 17: as TODO 12, for softmax_xent_kernel: one thread per sample (B).
    // About 2 lines.
    LAB_TODO_UNUSED(d_dlogits, d_losses, d_logits, d_y, B, C);
}

void adam_update(float *d_p, const float *d_g, float *d_m, float *d_v, size_t n, l5_adam_scalars s)
{
    // TODO 18: as TODO 12, for adam_kernel: one thread per parameter (n). About
    // 2 lines.
    LAB_TODO_UNUSED(d_p, d_g, d_m, d_v, n, s);
}
