/*
 * cpu_train.c - the CPU trainer: forward, backward and Adam for an l5_net,
 * in C11 with OpenBLAS for every matrix product. The device trainer
 * (device_train.cu) takes the same steps in the same order, so the two can
 * be compared tensor for tensor.
 *
 * The network is run in two parts:
 *   - the per-sample part, its leading conv, ReLU, max-pool and flatten
 *     layers: each sample goes through them on its own, so the batch is
 *     shared among threads, and a sample's data stays in the core's cache
 *     from one layer to the next;
 *   - the per-batch part, the linear layers and their ReLUs: one GEMM over
 *     the batch per layer.
 *
 * A convolution of one sample (NCHW, P = oh*ow output pixels, K = C*k*k):
 *   im2col: cols (K, P); column p holds the input patch under output pixel
 *           p (zeros where the patch hangs over the padding);
 *   GEMM:   y (OC, P) = W (OC, K) . cols + bias, straight into the sample's
 *           NCHW output, which holds the bias before the GEMM (beta = 1).
 * Backward, with dy (OC, P) the sample's output gradient:
 *   dW += dy . cols^T,  db += row sums of dy,  dcols = W^T . dy,
 *   col2im: each input pixel gathers the dcols entries it was copied to.
 * Every output column depends on its own column of cols alone, so these
 * GEMMs compute the same products as the device's one im2col and one GEMM
 * over the whole batch. cols is recomputed in the backward pass: one
 * sample's stays in cache, where the whole batch's would take megabytes.
 *
 * Same bits for any number of threads: the batch is cut into L5_CPU_SLICES
 * fixed slices of consecutive samples; a slice sums its samples' weight
 * gradients in sample order into its own buffer, and the slices are added
 * in slice order. Which thread works on which slice changes nothing.
 * OpenBLAS runs single-threaded inside the trainer (these threads are the
 * parallelism; OpenBLAS's own threads lose on such small matrices).
 */
#define _POSIX_C_SOURCE 200809L
#include "net.h"

#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void l5_gemm_cpu(int ta, int tb, int M, int N, int K, float alpha, const float *A, const float *B,
                 float beta, float *C)
{
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N,
                K, alpha, A, ta ? M : K, B, tb ? K : N, beta, C, N);
}

/* ---- layers of one sample -------------------------------------------------- */

/*
 * im2col at the padded width. With xp the sample's input zero-padded to
 * (C, hp, wp), hp = h + 2 pad, wp = w + 2 pad, output pixel (oy, ox) reads
 * xp[c][oy + ki][ox + kj]. Computing every output row at the full width wp
 * (the columns from ow on are thrown away) makes row (c, ki, kj) of cols one
 * contiguous run of xp:
 *   cols[(c, ki, kj)][oy wp + ox] = xp[(c hp + ki) wp + kj + oy wp + ox]
 * that is one copy of oh*wp floats per row instead of oh copies of ow
 * floats. On these small images the many short copies cost more than the
 * GEMMs' extra (wp - ow) / ow columns.
 */
static int wide(const l5_layer *l) /* wp */
{
    return l->w + 2 * l->pad;
}

/* xp's floats: the padded planes and k - 1 more, which the last row of
 * cols (kj = k - 1) reads past the last plane. */
static size_t padded_size(const l5_layer *l)
{
    return (size_t)l->c * (l->h + 2 * l->pad) * wide(l) + l->k - 1;
}

static size_t wide_cols_size(const l5_layer *l)
{
    return (size_t)l->c * l->k * l->k * l->oh * wide(l);
}

/* A conv layer's scratch for one sample: xp, cols and the output (OC, oh*wp). */
static size_t conv_scratch_size(const l5_layer *l)
{
    return padded_size(l) + wide_cols_size(l) + (size_t)l->oc * l->oh * wide(l);
}

/* xp from one sample's x (C, H, W). */
static void pad_input(float *restrict xp, const float *restrict x, const l5_layer *l)
{
    const int hp = l->h + 2 * l->pad, wp = wide(l);
    memset(xp, 0, sizeof(float) * padded_size(l));
    for (int c = 0; c < l->c; c++)
        for (int iy = 0; iy < l->h; iy++)
            memcpy(xp + ((size_t)c * hp + iy + l->pad) * wp + l->pad,
                   x + ((size_t)c * l->h + iy) * l->w, sizeof(float) * (size_t)l->w);
}

/* x (C, H, W) from the inside of xp's padding. */
static void unpad(float *restrict x, const float *restrict xp, const l5_layer *l)
{
    const int hp = l->h + 2 * l->pad, wp = wide(l);
    for (int c = 0; c < l->c; c++)
        for (int iy = 0; iy < l->h; iy++)
            memcpy(x + ((size_t)c * l->h + iy) * l->w,
                   xp + ((size_t)c * hp + iy + l->pad) * wp + l->pad, sizeof(float) * (size_t)l->w);
}

static void im2col(float *restrict cols, const float *restrict xp, const l5_layer *l)
{
    const int hp = l->h + 2 * l->pad, wp = wide(l);
    const size_t n = (size_t)l->oh * wp;
    for (int c = 0; c < l->c; c++)
        for (int ki = 0; ki < l->k; ki++)
            for (int kj = 0; kj < l->k; kj++) {
                size_t r = (size_t)(c * l->k + ki) * l->k + kj;
                memcpy(cols + r * n, xp + ((size_t)c * hp + ki) * wp + kj, sizeof(float) * n);
            }
}

/* dxp (as xp) from dcols: each padded pixel gathers the entries it was copied
 * to. The thrown-away columns of dcols must be zeros (they land on other
 * pixels). */
static void col2im(float *restrict dxp, const float *restrict dcols, const l5_layer *l)
{
    const int hp = l->h + 2 * l->pad, wp = wide(l);
    const size_t n = (size_t)l->oh * wp;
    memset(dxp, 0, sizeof(float) * padded_size(l));
    for (int c = 0; c < l->c; c++)
        for (int ki = 0; ki < l->k; ki++)
            for (int kj = 0; kj < l->k; kj++) {
                const float *src = dcols + ((size_t)(c * l->k + ki) * l->k + kj) * n;
                float *dst = dxp + ((size_t)c * hp + ki) * wp + kj;
                for (size_t i = 0; i < n; i++)
                    dst[i] += src[i];
            }
}

/*
 * C (M, N) = op(A) . op(B) + beta C as l5_gemm_cpu, in bands of at most
 * `band` columns of C. OpenBLAS (x86-64, SkylakeX kernels) multiplies small
 * matrices with kernels that skip packing the operands, up to M*N*K = 1e6
 * and, for C = A . B^T, up to M*N = 1200: a conv's skinny products run
 * faster as a few such bands than as one packed product.
 */
#define L5_SMALL_MNK 1000000
#define L5_SMALL_ABT_MN 1200

static void gemm_bands(int ta, int tb, int M, int N, int K, const float *A, const float *B,
                       float beta, float *C, int band)
{
    for (int j0 = 0; j0 < N; j0 += band) {
        int n = N - j0 < band ? N - j0 : band;
        cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                    M, n, K, 1.0f, A, ta ? M : K, tb ? B + (size_t)j0 * K : B + j0, tb ? K : N,
                    beta, C + j0, N);
    }
}

static int band_of(int n_per_column)
{
    return n_per_column < L5_SMALL_MNK ? L5_SMALL_MNK / n_per_column : 1;
}

static void conv_forward(const l5_cpu *c, const l5_layer *l, const float *x, float *y,
                         float *scratch)
{
    const float *W = c->params + c->net->tensor[l->weight].offset;
    const float *bias = c->params + c->net->tensor[l->bias].offset;
    const int wp = wide(l);
    float *xp = scratch, *cols = xp + padded_size(l), *yw = cols + wide_cols_size(l);
    pad_input(xp, x, l);
    im2col(cols, xp, l);
    const int K = l->c * l->k * l->k;
    gemm_bands(0, 0, l->oc, l->oh * wp, K, W, cols, 0.0f, yw, band_of(l->oc * K));
    for (int o = 0; o < l->oc; o++) /* y = the first ow columns of yw's rows, + bias */
        for (int oy = 0; oy < l->oh; oy++)
            for (int ox = 0; ox < l->ow; ox++)
                y[((size_t)o * l->oh + oy) * l->ow + ox] =
                    yw[((size_t)o * l->oh + oy) * wp + ox] + bias[o];
}

/* Adds the sample's dW and db to grads (a slice's buffer); dx may be NULL. */
static void conv_backward(const l5_cpu *c, const l5_layer *l, const float *x, const float *dy,
                          float *dx, float *grads, float *scratch)
{
    const l5_tensor *tw = &c->net->tensor[l->weight], *tb = &c->net->tensor[l->bias];
    const float *W = c->params + tw->offset;
    const int wp = wide(l), K = l->c * l->k * l->k;
    float *xp = scratch, *cols = xp + padded_size(l), *dyw = cols + wide_cols_size(l);
    pad_input(xp, x, l);
    im2col(cols, xp, l);
    for (int o = 0; o < l->oc; o++) { /* dyw: dy at the padded width, zeros after ow */
        float sum = 0.0f;
        for (int oy = 0; oy < l->oh; oy++)
            for (int ox = 0; ox < wp; ox++) {
                float g = ox < l->ow ? dy[((size_t)o * l->oh + oy) * l->ow + ox] : 0.0f;
                dyw[((size_t)o * l->oh + oy) * wp + ox] = g;
                sum += g;
            }
        grads[tb->offset + (size_t)o] += sum;
    }
    gemm_bands(0, 1, l->oc, K, l->oh * wp, dyw, cols, 1.0f, grads + tw->offset,
               L5_SMALL_ABT_MN / l->oc);
    if (dx) { /* cols and xp are free again: dcols and dxp go there */
        gemm_bands(1, 0, K, l->oh * wp, l->oc, W, dyw, 0.0f, cols, band_of(K * l->oc));
        col2im(xp, cols, l);
        unpad(dx, xp, l);
    }
}

/* 2x2, stride 2; argmax[o] is the index in x of output o's maximum. */
static void maxpool_forward(int *argmax, float *y, const float *x, const l5_layer *l)
{
    for (int c = 0; c < l->c; c++)
        for (int oy = 0; oy < l->oh; oy++)
            for (int ox = 0; ox < l->ow; ox++) {
                int base = (c * l->h + 2 * oy) * l->w + 2 * ox, best = base;
                const int window[3] = { base + 1, base + l->w, base + l->w + 1 };
                for (int i = 0; i < 3; i++)
                    if (x[window[i]] > x[best]) /* the first maximum wins, as in PyTorch */
                        best = window[i];
                int o = (c * l->oh + oy) * l->ow + ox;
                y[o] = x[best];
                argmax[o] = best;
            }
}

static void maxpool_backward(float *dx, const float *dy, const int *argmax, const l5_layer *l)
{
    size_t n_out = l5_layer_out_size(l);
    memset(dx, 0, sizeof(float) * l5_layer_in_size(l));
    for (size_t o = 0; o < n_out; o++)
        dx[argmax[o]] = dy[o]; /* windows do not overlap: one output per input */
}

static void relu_forward(float *restrict y, const float *restrict x, size_t n)
{
    for (size_t j = 0; j < n; j++)
        y[j] = x[j] > 0.0f ? x[j] : 0.0f;
}

/* dx = dy where the output y is positive; dx may be dy. */
static void relu_backward(float *dx, const float *dy, const float *y, size_t n)
{
    for (size_t j = 0; j < n; j++)
        dx[j] = y[j] > 0.0f ? dy[j] : 0.0f;
}

/* The per-sample layers' forward pass for sample b. */
static void sample_forward(const l5_cpu *c, int b, float *scratch)
{
    for (int i = 0; i < c->n_sample; i++) {
        const l5_layer *l = &c->net->layer[i];
        size_t in = l5_layer_in_size(l), out = l5_layer_out_size(l);
        const float *x = c->act[i] + b * in;
        float *y = c->act[i + 1] + b * out;
        switch (l->kind) {
        case L5_CONV:
            conv_forward(c, l, x, y, scratch + 2 * c->sample_floats);
            break;
        case L5_RELU:
            relu_forward(y, x, out);
            break;
        case L5_MAXPOOL:
            maxpool_forward(c->argmax[i] + b * out, y, x, l);
            break;
        case L5_FLATTEN:
            memcpy(y, x, sizeof(float) * out);
            break;
        case L5_LINEAR: /* not in the per-sample part */
            break;
        }
    }
}

/* The per-sample layers' backward pass for sample b, from its row of
 * dact[n_sample]; weight gradients are added to grads (a slice's buffer).
 * The layer gradients go back and forth between two scratch buffers. */
static void sample_backward(const l5_cpu *c, int b, float *grads, float *scratch)
{
    const l5_net *net = c->net;
    float *buf[2] = { scratch, scratch + c->sample_floats }, *conv = buf[1] + c->sample_floats;
    float *dy = c->dact[c->n_sample] + b * l5_layer_out_size(&net->layer[c->n_sample - 1]);
    for (int i = c->n_sample - 1; i >= 0; i--) {
        const l5_layer *l = &net->layer[i];
        size_t in = l5_layer_in_size(l), out = l5_layer_out_size(l);
        /* Into the batch's dact[i] when it is kept (l5_cpu_keep_layer_grads). */
        float *dx = i == 0         ? NULL
                    : c->dact[i]   ? c->dact[i] + b * in
                    : dy == buf[0] ? buf[1]
                                   : buf[0];
        switch (l->kind) {
        case L5_CONV:
            conv_backward(c, l, c->act[i] + b * in, dy, dx, grads, conv);
            break;
        case L5_RELU:
            if (dx)
                relu_backward(dx, dy, c->act[i + 1] + b * out, out);
            break;
        case L5_MAXPOOL:
            if (dx)
                maxpool_backward(dx, dy, c->argmax[i] + b * out, l);
            break;
        case L5_FLATTEN:
        case L5_LINEAR:
            if (dx && c->dact[i])
                memcpy(dx, dy, sizeof(float) * out);
            else
                dx = dy; /* the same numbers */
            break;
        }
        dy = dx;
    }
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct l5_job {
    l5_cpu *c;
    int B, t, backward;
} l5_job;

static void *run_job(void *arg)
{
    const l5_job *j = arg;
    l5_cpu *c = j->c;
    float *scratch = c->scratch + (size_t)j->t * c->scratch_floats;
    if (!j->backward) { /* samples [B t / T, B (t+1) / T) */
        for (int b = j->B * j->t / c->threads; b < j->B * (j->t + 1) / c->threads; b++)
            sample_forward(c, b, scratch);
        return NULL;
    }
    /* slices [S t / T, S (t+1) / T); slice s: samples [B s / S, B (s+1) / S) */
    for (int s = L5_CPU_SLICES * j->t / c->threads; s < L5_CPU_SLICES * (j->t + 1) / c->threads;
         s++) {
        float *grads = c->slice_grads + (size_t)s * c->n_sample_params;
        memset(grads, 0, sizeof(float) * c->n_sample_params);
        for (int b = j->B * s / L5_CPU_SLICES; b < j->B * (s + 1) / L5_CPU_SLICES; b++)
            sample_backward(c, b, grads, scratch);
    }
    return NULL;
}

/* The per-sample part of the forward or backward pass on c->threads
 * threads, the calling thread one of them. */
static void run_parallel(l5_cpu *c, int B, int backward)
{
    l5_job job[L5_CPU_SLICES];
    pthread_t thread[L5_CPU_SLICES];
    int started[L5_CPU_SLICES] = { 0 };
    for (int t = 0; t < c->threads; t++) {
        job[t] = (l5_job){ c, B, t, backward };
        if (t > 0)
            started[t] = pthread_create(&thread[t], NULL, run_job, &job[t]) == 0;
    }
    run_job(&job[0]);
    for (int t = 1; t < c->threads; t++) {
        if (started[t])
            pthread_join(thread[t], NULL);
        else
            run_job(&job[t]); /* no thread: do its share here */
    }
}

/* OpenBLAS single-threaded while the trainer works; returns the count to restore. */
static int blas_serial(void)
{
    int n = openblas_get_num_threads();
    if (n != 1)
        openblas_set_num_threads(1);
    return n;
}

static void blas_restore(int n)
{
    if (n != 1)
        openblas_set_num_threads(n);
}

/* ---- layers of the batch ---------------------------------------------------- */

static void linear_forward(l5_cpu *c, const l5_layer *l, const float *x, float *y, int B)
{
    const float *W = c->params + c->net->tensor[l->weight].offset;
    const float *bias = c->params + c->net->tensor[l->bias].offset;
    /* y (B, OUT) = bias + x (B, IN) . W^T, W is (OUT, IN) */
    for (int b = 0; b < B; b++)
        memcpy(y + (size_t)b * l->oc, bias, sizeof(float) * (size_t)l->oc);
    l5_gemm_cpu(0, 1, B, l->oc, l->c, 1.0f, x, W, 1.0f, y);
}

static void linear_backward(l5_cpu *c, const l5_layer *l, const float *x, const float *dy,
                            float *dx, int B)
{
    const l5_tensor *tw = &c->net->tensor[l->weight], *tb = &c->net->tensor[l->bias];
    const float *W = c->params + tw->offset;
    float *db = c->grads + tb->offset;
    /* dW (OUT, IN) = dy^T . x;  db = column sums of dy;  dx (B, IN) = dy . W */
    l5_gemm_cpu(1, 0, l->oc, l->c, B, 1.0f, dy, x, 0.0f, c->grads + tw->offset);
    memset(db, 0, sizeof(float) * (size_t)l->oc);
    for (int b = 0; b < B; b++)
        for (int o = 0; o < l->oc; o++)
            db[o] += dy[(size_t)b * l->oc + o];
    if (dx)
        l5_gemm_cpu(0, 0, B, l->c, l->oc, 1.0f, dy, W, 0.0f, dx);
}

/* Per-sample loss log(sum exp(z - max)) - (z[y] - max) and the gradient of
 * the batch mean, (softmax(z) - onehot(y)) / B. */
static void softmax_xent(float *dlogits, float *losses, const float *logits, const int *y, int B,
                         int C)
{
    for (int b = 0; b < B; b++) {
        const float *z = logits + (size_t)b * C;
        float *dz = dlogits + (size_t)b * C;
        float mx = z[0], sum = 0.0f;
        for (int j = 1; j < C; j++)
            mx = fmaxf(mx, z[j]);
        for (int j = 0; j < C; j++)
            sum += expf(z[j] - mx);
        losses[b] = logf(sum) - (z[y[b]] - mx);
        for (int j = 0; j < C; j++)
            dz[j] = (expf(z[j] - mx) / sum - (j == y[b] ? 1.0f : 0.0f)) / (float)B;
    }
}

/* ---- the trainer ------------------------------------------------------------- */

void l5_cpu_destroy(l5_cpu *c)
{
    free(c->params);
    free(c->grads);
    free(c->m);
    free(c->v);
    for (int i = 0; i <= L5_MAX_LAYERS; i++) {
        free(c->act[i]);
        free(c->dact[i]);
        if (i < L5_MAX_LAYERS)
            free(c->argmax[i]);
    }
    free(c->slice_grads);
    free(c->scratch);
    free(c->losses);
    memset(c, 0, sizeof(*c));
}

static void *alloc_floats(size_t n, int *failed)
{
    void *p = calloc(n ? n : 1, sizeof(float));
    if (!p)
        *failed = 1;
    return p;
}

/* GPULAB_LAB05_THREADS, or one per online CPU; 1 .. L5_CPU_SLICES. */
static int thread_count(void)
{
    const char *env = getenv("GPULAB_LAB05_THREADS");
    long n = env && *env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > L5_CPU_SLICES ? L5_CPU_SLICES : (int)n;
}

int l5_cpu_create(l5_cpu *c, const l5_net *net, int max_batch, const float *params,
                  unsigned long long seed, double lr, char *why, size_t why_len)
{
    int failed = 0;
    size_t B = (size_t)max_batch, max_sample = 0, max_conv = 0;
    memset(c, 0, sizeof(*c));
    c->net = net;
    c->max_batch = max_batch;
    c->threads = thread_count();
    while (c->n_sample < net->n_layers && net->layer[c->n_sample].kind != L5_LINEAR) {
        const l5_layer *l = &net->layer[c->n_sample++];
        if (l->weight >= 0)
            c->n_sample_params = net->tensor[l->bias].offset + net->tensor[l->bias].count;
        if (l5_layer_in_size(l) > max_sample)
            max_sample = l5_layer_in_size(l);
        if (l->kind == L5_CONV && conv_scratch_size(l) > max_conv)
            max_conv = conv_scratch_size(l);
    }
    c->params = alloc_floats(net->n_params, &failed);
    c->grads = alloc_floats(net->n_params, &failed);
    c->m = alloc_floats(net->n_params, &failed);
    c->v = alloc_floats(net->n_params, &failed);
    c->act[0] = alloc_floats(B * l5_layer_in_size(&net->layer[0]), &failed);
    for (int i = 0; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        c->act[i + 1] = alloc_floats(B * l5_layer_out_size(l), &failed);
        if (i + 1 >= c->n_sample)
            c->dact[i + 1] = alloc_floats(B * l5_layer_out_size(l), &failed);
        if (l->kind == L5_MAXPOOL)
            c->argmax[i] = alloc_floats(B * l5_layer_out_size(l), &failed);
    }
    c->sample_floats = max_sample;
    c->scratch_floats = 2 * max_sample + max_conv;
    c->scratch = alloc_floats((size_t)c->threads * c->scratch_floats, &failed);
    c->slice_grads = alloc_floats(L5_CPU_SLICES * c->n_sample_params, &failed);
    c->losses = alloc_floats(B, &failed);
    if (failed) {
        snprintf(why, why_len, "out of memory for the CPU trainer (batch %d)", max_batch);
        l5_cpu_destroy(c);
        return -1;
    }
    if (params)
        memcpy(c->params, params, sizeof(float) * net->n_params);
    else
        l5_net_init(net, c->params, seed);
    l5_adam_init(&c->adam, lr);
    return 0;
}

/* The forward pass up to the logits, c->act[n_layers]. */
static void forward_logits(l5_cpu *c, const float *x, int B)
{
    const l5_net *net = c->net;
    int blas_threads = blas_serial();
    memcpy(c->act[0], x, sizeof(float) * (size_t)B * l5_layer_in_size(&net->layer[0]));
    if (c->n_sample > 0)
        run_parallel(c, B, 0);
    for (int i = c->n_sample; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        if (l->kind == L5_LINEAR)
            linear_forward(c, l, c->act[i], c->act[i + 1], B);
        else
            relu_forward(c->act[i + 1], c->act[i], (size_t)B * l5_layer_out_size(l));
    }
    blas_restore(blas_threads);
}

float l5_cpu_forward(l5_cpu *c, const float *x, const int *y, int B, int *correct)
{
    const l5_net *net = c->net;
    forward_logits(c, x, B);
    softmax_xent(c->dact[net->n_layers], c->losses, c->act[net->n_layers], y, B, net->n_classes);
    if (correct)
        *correct = l5_count_correct(c->act[net->n_layers], y, B, net->n_classes);
    return l5_mean_loss(c->losses, B);
}

void l5_cpu_backward(l5_cpu *c, int B)
{
    const l5_net *net = c->net;
    int blas_threads = blas_serial();
    for (int i = net->n_layers - 1; i >= c->n_sample; i--) {
        const l5_layer *l = &net->layer[i];
        float *dx = i > 0 ? c->dact[i] : NULL; /* no gradient for the input */
        if (l->kind == L5_LINEAR)
            linear_backward(c, l, c->act[i], c->dact[i + 1], dx, B);
        else if (dx)
            relu_backward(dx, c->dact[i + 1], c->act[i + 1], (size_t)B * l5_layer_out_size(l));
    }
    if (c->n_sample > 0) {
        run_parallel(c, B, 1);
        /* grads = slice 0 + slice 1 + ..., in that order */
        memcpy(c->grads, c->slice_grads, sizeof(float) * c->n_sample_params);
        for (int s = 1; s < L5_CPU_SLICES; s++)
            for (size_t j = 0; j < c->n_sample_params; j++)
                c->grads[j] += c->slice_grads[s * c->n_sample_params + j];
    }
    blas_restore(blas_threads);
}

int l5_cpu_keep_layer_grads(l5_cpu *c)
{
    int failed = 0;
    for (int i = 1; i < c->n_sample; i++)
        if (!c->dact[i])
            c->dact[i] =
                alloc_floats((size_t)c->max_batch * l5_layer_in_size(&c->net->layer[i]), &failed);
    return failed ? -1 : 0;
}

void l5_cpu_adam(l5_cpu *c)
{
    l5_adam_scalars s = l5_adam_next(&c->adam);
    l5_adam_update_cpu(c->params, c->grads, c->m, c->v, c->net->n_params, &s);
}

float l5_cpu_step(l5_cpu *c, const float *x, const int *y, int B, int *correct)
{
    float loss = l5_cpu_forward(c, x, y, B, correct);
    l5_cpu_backward(c, B);
    l5_cpu_adam(c);
    return loss;
}

int l5_cpu_evaluate(l5_cpu *c, const float *x, const int *y, int n)
{
    const l5_net *net = c->net;
    size_t in = l5_layer_in_size(&net->layer[0]);
    int correct = 0;
    for (int at = 0; at < n; at += c->max_batch) {
        int B = n - at < c->max_batch ? n - at : c->max_batch;
        forward_logits(c, x + (size_t)at * in, B);
        correct += l5_count_correct(c->act[net->n_layers], y + at, B, net->n_classes);
    }
    return correct;
}
