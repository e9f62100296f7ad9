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
    // >>> SOLUTION
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] > 0.0f ? x[i] : 0.0f;
    // === STUB
    // TODO: one thread per element i < n: y[i] = x[i] if x[i] > 0, else 0.
    (void)y;
    (void)x;
    (void)n;
    // <<< END
}

__global__ void relu_backward_kernel(float *dx, const float *dy, const float *y, size_t n)
{
    // >>> SOLUTION
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float g = dy[i]; /* read whatever y is: a select, not a branch */
        dx[i] = y[i] > 0.0f ? g : 0.0f;
    }
    // === STUB
    // TODO: one thread per element: dx[i] = dy[i] where y[i] > 0, else 0.
    (void)dx;
    (void)dy;
    (void)y;
    (void)n;
    // <<< END
}

__global__ void bias_add_kernel(float *y, const float *b, size_t n, int channels, int inner)
{
    // >>> SOLUTION
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += b[(i / (size_t)inner) % (size_t)channels];
    // === STUB
    // TODO: one thread per element i < n: y[i] += b[(i / inner) % channels].
    (void)y;
    (void)b;
    (void)n;
    (void)channels;
    (void)inner;
    // <<< END
}

__global__ void maxpool_forward_kernel(float *y, int *argmax, const float *x, int planes, int h,
                                       int w)
{
    // >>> SOLUTION
    int oh = h / 2, ow = w / 2;
    size_t o = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= (size_t)planes * oh * ow)
        return;
    size_t row = o / ow, plane = row / oh; /* output row of all planes, plane */
    int ox = (int)(o - row * ow), oy = (int)(row - plane * oh);
    size_t first = plane * h * w + (size_t)(2 * oy) * w + 2 * ox;
    size_t best = first;
    float m = x[first];
    for (int dy = 0; dy < 2; dy++)
        for (int dx = 0; dx < 2; dx++) {
            size_t i = first + (size_t)dy * w + dx;
            float v = x[i];
            int more = v > m; /* strictly greater: the first maximum wins */
            best = more ? i : best;
            m = more ? v : m;
        }
    y[o] = m;
    argmax[o] = (int)best;
    // === STUB
    // TODO: one thread per output o < planes * (h/2) * (w/2). Output (oy, ox)
    // of plane p looks at the 2x2 window of x at rows 2oy, 2oy+1 and columns
    // 2ox, 2ox+1 of plane p (plane p starts at x + p*h*w). Write its maximum
    // to y[o] and the flat index into x of that maximum to argmax[o]; on a
    // tie keep the first in row-major order (compare with >, not >=).
    (void)y;
    (void)argmax;
    (void)x;
    (void)planes;
    (void)h;
    (void)w;
    // <<< END
}

__global__ void maxpool_backward_kernel(float *dx, const float *dy, const int *argmax, size_t n_out)
{
    // >>> SOLUTION
    size_t o = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (o < n_out)
        dx[argmax[o]] = dy[o]; /* windows do not overlap: no two outputs share an input */
    // === STUB
    // TODO: one thread per output o < n_out: dx[argmax[o]] = dy[o].
    (void)dx;
    (void)dy;
    (void)argmax;
    (void)n_out;
    // <<< END
}

__global__ void softmax_xent_kernel(float *dlogits, float *losses, const float *logits,
                                    const int *y, int B, int C)
{
    // >>> SOLUTION
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= B)
        return;
    const float *z = logits + (size_t)b * C;
    float *dz = dlogits + (size_t)b * C;
    float mx = z[0], sum = 0.0f;
    for (int j = 1; j < C; j++)
        mx = fmaxf(mx, z[j]);
    for (int j = 0; j < C; j++)
        sum += expf(z[j] - mx); /* subtracting the max keeps exp from overflowing */
    losses[b] = logf(sum) - (z[y[b]] - mx);
    for (int j = 0; j < C; j++)
        dz[j] = (expf(z[j] - mx) / sum - (j == y[b] ? 1.0f : 0.0f)) / (float)B;
    // === STUB
    // TODO: one thread per sample b < B, row z = logits + b*C:
    //   mx = max_j z[j];  sum = sum_j expf(z[j] - mx)
    //   losses[b] = logf(sum) - (z[y[b]] - mx)
    //   dlogits[b*C + j] = (expf(z[j] - mx) / sum - (j == y[b])) / B
    (void)dlogits;
    (void)losses;
    (void)logits;
    (void)y;
    (void)B;
    (void)C;
    // <<< END
}

__global__ void adam_kernel(float *p, const float *g, float *m, float *v, size_t n,
                            l5_adam_scalars s)
{
    // >>> SOLUTION
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float mi = s.beta1 * m[i] + s.one_minus_beta1 * g[i];
    float vi = s.beta2 * v[i] + s.one_minus_beta2 * g[i] * g[i];
    m[i] = mi;
    v[i] = vi;
    p[i] = p[i] - s.step_size * mi / (sqrtf(vi) / s.bc2_sqrt + s.eps);
    // === STUB
    // TODO: one thread per parameter i < n (see adam_update in student.h):
    //   m[i] = beta1 m[i] + (1 - beta1) g[i]; v[i] = beta2 v[i] + (1 - beta2) g[i]^2
    //   p[i] -= step_size m[i] / (sqrtf(v[i]) / bc2_sqrt + eps)
    // using the fields of s (s.one_minus_beta1 is 1 - beta1, already rounded
    // as PyTorch rounds it).
    (void)p;
    (void)g;
    (void)m;
    (void)v;
    (void)n;
    (void)s;
    // <<< END
}

// ----------------------------------------------------------------------------
// launchers

void relu_forward(float *d_y, const float *d_x, size_t n)
{
    // >>> SOLUTION
    relu_forward_kernel<<<ceil_div(n, THREADS), THREADS>>>(d_y, d_x, n);
    LAB_CHECK_LAUNCH();
    // === STUB
    // TODO: launch relu_forward_kernel with ceil_div(n, THREADS) blocks of
    // THREADS threads, then LAB_CHECK_LAUNCH(). The same for every launcher
    // below, with the thread count each kernel's comment gives.
    (void)d_y;
    (void)d_x;
    (void)n;
    // <<< END
}

void relu_backward(float *d_dx, const float *d_dy, const float *d_y, size_t n)
{
    // >>> SOLUTION
    relu_backward_kernel<<<ceil_div(n, THREADS), THREADS>>>(d_dx, d_dy, d_y, n);
    LAB_CHECK_LAUNCH();
    // === STUB
    // TODO: launch relu_backward_kernel, one thread per element.
    (void)d_dx;
    (void)d_dy;
    (void)d_y;
    (void)n;
    // <<< END
}

void bias_add(float *d_y, const float *d_b, int B, int channels, int inner)
{
    // >>> SOLUTION
    size_t n = (size_t)B * channels * inner;
    bias_add_kernel<<<ceil_div(n, THREADS), THREADS>>>(d_y, d_b, n, channels, inner);
    LAB_CHECK_LAUNCH();
    // === STUB
    // TODO: launch bias_add_kernel, one thread per element of y
    // (n = B * channels * inner of them).
    (void)d_y;
    (void)d_b;
    (void)B;
    (void)channels;
    (void)inner;
    // <<< END
}

void maxpool_forward(float *d_y, int *d_argmax, const float *d_x, int planes, int h, int w)
{
    // >>> SOLUTION
    size_t n_out = (size_t)planes * (h / 2) * (w / 2);
    maxpool_forward_kernel<<<ceil_div(n_out, THREADS), THREADS>>>(d_y, d_argmax, d_x, planes, h, w);
    LAB_CHECK_LAUNCH();
    // === STUB
    // TODO: launch maxpool_forward_kernel, one thread per output
    // (n_out = planes * (h / 2) * (w / 2) of them).
    (void)d_y;
    (void)d_argmax;
    (void)d_x;
    (void)planes;
    (void)h;
    (void)w;
    // <<< END
}

void maxpool_backward(float *d_dx, const float *d_dy, const int *d_argmax, int planes, int h, int w)
{
    // >>> SOLUTION
    size_t n_out = (size_t)planes * (h / 2) * (w / 2);
    maxpool_backward_kernel<<<ceil_div(n_out, THREADS), THREADS>>>(d_dx, d_dy, d_argmax, n_out);
    LAB_CHECK_LAUNCH();
    // === STUB
    // TODO: launch maxpool_backward_kernel, one thread per output
    // (n_out = planes * (h / 2) * (w / 2) of them).
    (void)d_dx;
    (void)d_dy;
    (void)d_argmax;
    (void)planes;
    (void)h;
    (void)w;
    // <<< END
}

void softmax_xent(float *d_dlogits, float *d_losses, const float *d_logits, const int *d_y, int B,
                  int C)
{
    // >>> SOLUTION
    softmax_xent_kernel<<<ceil_div((size_t)B, THREADS), THREADS>>>(d_dlogits, d_losses, d_logits,
                                                                   d_y, B, C);
    LAB_CHECK_LAUNCH();
    // === STUB
    // TODO: launch softmax_xent_kernel, one thread per sample (B).
    (void)d_dlogits;
    (void)d_losses;
    (void)d_logits;
    (void)d_y;
    (void)B;
    (void)C;
    // <<< END
}

void adam_update(float *d_p, const float *d_g, float *d_m, float *d_v, size_t n, l5_adam_scalars s)
{
    // >>> SOLUTION
    adam_kernel<<<ceil_div(n, THREADS), THREADS>>>(d_p, d_g, d_m, d_v, n, s);
    LAB_CHECK_LAUNCH();
    // === STUB
    // TODO: launch adam_kernel, one thread per parameter (n).
    (void)d_p;
    (void)d_g;
    (void)d_m;
    (void)d_v;
    (void)n;
    (void)s;
    // <<< END
}
