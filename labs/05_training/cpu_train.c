/*
 * cpu_train.c - the CPU trainer: forward, backward and Adam for an l5_net,
 * in C11 with OpenBLAS for every matrix product. The device trainer
 * (device_train.cu) takes the same steps in the same order, so the two can
 * be compared tensor for tensor.
 *
 * A convolution over a batch of B samples is one GEMM:
 *   im2col: cols (C*k*k, B*P), P = oh*ow; column b*P + p holds the input
 *           patch under output pixel p of sample b (zeros where the patch
 *           hangs over the padding);
 *   GEMM:   tmp (OC, B*P) = W (OC, C*k*k) . cols;
 *   layout: out[b][oc][p] = tmp[oc][b*P + p], then the bias is added.
 * Backward, with dtmp the output gradient in tmp's layout:
 *   dW = dtmp . cols^T,  db = row sums of dtmp,  dcols = W^T . dtmp,
 *   col2im: each input pixel gathers the dcols entries it was copied to.
 * The CPU walks the batch's columns in chunks of a few samples (conv_chunk),
 * so that each chunk's part of cols stays in cache: every output column
 * depends on its own column of cols alone, so the chunks' GEMMs compute the
 * same products as one GEMM over B*P columns; dW and db add the chunks' sums.
 * The device trainer makes one im2col and one GEMM over the whole batch.
 */
#include "net.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Floats of one chunk's im2col block (1 MiB). */
#define L5_CPU_CHUNK_FLOATS (1 << 18)

void l5_gemm_cpu(int ta, int tb, int M, int N, int K, float alpha, const float *A, const float *B,
                 float beta, float *C)
{
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N,
                K, alpha, A, ta ? M : K, B, tb ? K : N, beta, C, N);
}

/* ---- layers ---------------------------------------------------------------- */

/* The output columns [*ox0, *ox1) whose input column ox + kj - pad is inside
 * the image; the rest read the zero padding. Stride 1, so the inside is one
 * contiguous run of the input row. */
static void inside(const l5_layer *l, int kj, int *ox0, int *ox1)
{
    *ox0 = l->pad - kj > 0 ? l->pad - kj : 0;
    *ox1 = l->w + l->pad - kj < l->ow ? l->w + l->pad - kj : l->ow;
    if (*ox1 < *ox0)
        *ox1 = *ox0;
}

/* cols (C*k*k, B*P) from x (B, C, H, W); see the file comment. */
static void im2col(float *cols, const float *x, const l5_layer *l, int B)
{
    const int P = l->oh * l->ow;
    const size_t BP = (size_t)B * P;
    for (int c = 0; c < l->c; c++)
        for (int ki = 0; ki < l->k; ki++)
            for (int kj = 0; kj < l->k; kj++) {
                float *row = cols + ((size_t)(c * l->k + ki) * l->k + kj) * BP;
                int ox0, ox1;
                inside(l, kj, &ox0, &ox1);
                for (int b = 0; b < B; b++) {
                    const float *plane = x + ((size_t)b * l->c + c) * l->h * l->w;
                    for (int oy = 0; oy < l->oh; oy++) {
                        int iy = oy + ki - l->pad;
                        float *dst = row + (size_t)b * P + (size_t)oy * l->ow;
                        if (iy < 0 || iy >= l->h) {
                            memset(dst, 0, sizeof(float) * (size_t)l->ow);
                            continue;
                        }
                        const float *src = plane + (size_t)iy * l->w + kj - l->pad;
                        for (int ox = 0; ox < ox0; ox++)
                            dst[ox] = 0.0f;
                        memcpy(dst + ox0, src + ox0, sizeof(float) * (size_t)(ox1 - ox0));
                        for (int ox = ox1; ox < l->ow; ox++)
                            dst[ox] = 0.0f;
                    }
                }
            }
}

/* dx (B, C, H, W) from dcols: the sum over every place a pixel was copied to. */
static void col2im(float *dx, const float *dcols, const l5_layer *l, int B)
{
    const int P = l->oh * l->ow;
    const size_t BP = (size_t)B * P;
    memset(dx, 0, sizeof(float) * (size_t)B * l5_layer_in_size(l));
    for (int c = 0; c < l->c; c++)
        for (int ki = 0; ki < l->k; ki++)
            for (int kj = 0; kj < l->k; kj++) {
                const float *row = dcols + ((size_t)(c * l->k + ki) * l->k + kj) * BP;
                int ox0, ox1;
                inside(l, kj, &ox0, &ox1);
                for (int b = 0; b < B; b++) {
                    float *plane = dx + ((size_t)b * l->c + c) * l->h * l->w;
                    for (int oy = 0; oy < l->oh; oy++) {
                        int iy = oy + ki - l->pad;
                        if (iy < 0 || iy >= l->h)
                            continue;
                        const float *restrict src = row + (size_t)b * P + (size_t)oy * l->ow;
                        float *restrict dst = plane + (size_t)iy * l->w + kj - l->pad;
                        for (int ox = ox0; ox < ox1; ox++)
                            dst[ox] += src[ox];
                    }
                }
            }
}

/* y[(i / inner) % channels] += b: a conv's (B, OC, P) with inner = P, a
 * linear layer's (B, OUT) with inner = 1. */
static void bias_add(float *y, const float *bias, int B, int channels, int inner)
{
    for (int b = 0; b < B; b++)
        for (int c = 0; c < channels; c++) {
            float *p = y + ((size_t)b * channels + c) * inner;
            for (int i = 0; i < inner; i++)
                p[i] += bias[c];
        }
}

/* Samples per chunk of a conv layer: its im2col block stays near 1 MiB, so
 * that im2col, the GEMM and the copies after it work in cache. */
static int conv_chunk(const l5_layer *l, int B)
{
    size_t per_sample = (size_t)l->c * l->k * l->k * l->oh * l->ow;
    size_t s = (L5_CPU_CHUNK_FLOATS) / per_sample;
    if (s < 1)
        s = 1;
    return s < (size_t)B ? (int)s : B;
}

static void conv_forward(l5_cpu *c, const l5_layer *l, const float *x, float *y, int B)
{
    const float *W = c->params + c->net->tensor[l->weight].offset;
    const float *bias = c->params + c->net->tensor[l->bias].offset;
    const int P = l->oh * l->ow, CKK = l->c * l->k * l->k, S = conv_chunk(l, B);
    const size_t in = l5_layer_in_size(l);
    for (int b0 = 0; b0 < B; b0 += S) {
        int n = B - b0 < S ? B - b0 : S;
        im2col(c->cols, x + (size_t)b0 * in, l, n);
        l5_gemm_cpu(0, 0, l->oc, n * P, CKK, 1.0f, W, c->cols, 0.0f, c->tmp);
        /* (OC, n*P) -> (n, OC, P), plus the bias */
        for (int b = 0; b < n; b++)
            for (int o = 0; o < l->oc; o++) {
                const float *src = c->tmp + ((size_t)o * n + b) * P;
                float *dst = y + ((size_t)(b0 + b) * l->oc + o) * P;
                for (int p = 0; p < P; p++)
                    dst[p] = src[p] + bias[o];
            }
    }
}

static void conv_backward(l5_cpu *c, const l5_layer *l, const float *x, const float *dy, float *dx,
                          int B)
{
    const l5_tensor *tw = &c->net->tensor[l->weight], *tb = &c->net->tensor[l->bias];
    const float *W = c->params + tw->offset;
    const int P = l->oh * l->ow, CKK = l->c * l->k * l->k, S = conv_chunk(l, B);
    const size_t in = l5_layer_in_size(l);
    for (int b0 = 0; b0 < B; b0 += S) {
        int n = B - b0 < S ? B - b0 : S;
        float beta = b0 == 0 ? 0.0f : 1.0f; /* the first chunk overwrites, the rest add */
        for (int b = 0; b < n; b++)
            for (int o = 0; o < l->oc; o++)
                memcpy(c->dtmp + ((size_t)o * n + b) * P, dy + ((size_t)(b0 + b) * l->oc + o) * P,
                       sizeof(float) * (size_t)P);
        im2col(c->cols, x + (size_t)b0 * in, l, n); /* recomputed: less memory than keeping it */
        l5_gemm_cpu(0, 1, l->oc, CKK, n * P, 1.0f, c->dtmp, c->cols, beta, c->grads + tw->offset);
        cblas_sgemv(CblasRowMajor, CblasNoTrans, l->oc, n * P, 1.0f, c->dtmp, n * P, c->ones, 1,
                    beta, c->grads + tb->offset, 1);
        if (!dx)
            continue;
        /* cols is free again: dcols goes there. */
        l5_gemm_cpu(1, 0, CKK, n * P, l->oc, 1.0f, W, c->dtmp, 0.0f, c->cols);
        col2im(dx + (size_t)b0 * in, c->cols, l, n);
    }
}

static void linear_forward(l5_cpu *c, const l5_layer *l, const float *x, float *y, int B)
{
    const float *W = c->params + c->net->tensor[l->weight].offset;
    const float *bias = c->params + c->net->tensor[l->bias].offset;
    /* y (B, OUT) = x (B, IN) . W^T, W is (OUT, IN) */
    l5_gemm_cpu(0, 1, B, l->oc, l->c, 1.0f, x, W, 0.0f, y);
    bias_add(y, bias, B, l->oc, 1);
}

static void linear_backward(l5_cpu *c, const l5_layer *l, const float *x, const float *dy,
                            float *dx, int B)
{
    const l5_tensor *tw = &c->net->tensor[l->weight], *tb = &c->net->tensor[l->bias];
    const float *W = c->params + tw->offset;
    /* dW (OUT, IN) = dy^T . x;  db = column sums of dy;  dx (B, IN) = dy . W */
    l5_gemm_cpu(1, 0, l->oc, l->c, B, 1.0f, dy, x, 0.0f, c->grads + tw->offset);
    cblas_sgemv(CblasRowMajor, CblasTrans, B, l->oc, 1.0f, dy, l->oc, c->ones, 1, 0.0f,
                c->grads + tb->offset, 1);
    if (dx)
        l5_gemm_cpu(0, 0, B, l->c, l->oc, 1.0f, dy, W, 0.0f, dx);
}

static void maxpool_forward(int *argmax, float *y, const float *x, const l5_layer *l, int B)
{
    const int planes = B * l->c;
    for (int pl = 0; pl < planes; pl++)
        for (int oy = 0; oy < l->oh; oy++)
            for (int ox = 0; ox < l->ow; ox++) {
                size_t base = (size_t)pl * l->h * l->w,
                       best = base + (size_t)(2 * oy) * l->w + 2 * ox;
                for (int dy = 0; dy < 2; dy++)
                    for (int dx = 0; dx < 2; dx++) {
                        size_t i = base + (size_t)(2 * oy + dy) * l->w + 2 * ox + dx;
                        if (x[i] > x[best]) /* the first maximum wins, as in PyTorch */
                            best = i;
                    }
                size_t o = ((size_t)pl * l->oh + oy) * l->ow + ox;
                y[o] = x[best];
                argmax[o] = (int)best;
            }
}

static void maxpool_backward(float *dx, const float *dy, const int *argmax, const l5_layer *l,
                             int B)
{
    size_t n_out = (size_t)B * l5_layer_out_size(l);
    memset(dx, 0, sizeof(float) * (size_t)B * l5_layer_in_size(l));
    for (size_t o = 0; o < n_out; o++)
        dx[argmax[o]] = dy[o]; /* windows do not overlap: one output per input */
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
    free(c->cols);
    free(c->tmp);
    free(c->dtmp);
    free(c->ones);
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

int l5_cpu_create(l5_cpu *c, const l5_net *net, int max_batch, const float *params,
                  unsigned long long seed, double lr, char *why, size_t why_len)
{
    int failed = 0;
    size_t B = (size_t)max_batch, max_tmp = 0, max_bp = B, max_cols = 0;
    memset(c, 0, sizeof(*c));
    c->net = net;
    c->max_batch = max_batch;
    c->params = alloc_floats(net->n_params, &failed);
    c->grads = alloc_floats(net->n_params, &failed);
    c->m = alloc_floats(net->n_params, &failed);
    c->v = alloc_floats(net->n_params, &failed);
    for (int i = 0; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        if (i == 0) {
            c->act[0] = alloc_floats(B * l5_layer_in_size(l), &failed);
            c->dact[0] = alloc_floats(B * l5_layer_in_size(l), &failed);
        }
        c->act[i + 1] = alloc_floats(B * l5_layer_out_size(l), &failed);
        c->dact[i + 1] = alloc_floats(B * l5_layer_out_size(l), &failed);
        if (l->kind == L5_MAXPOOL)
            c->argmax[i] = alloc_floats(B * l5_layer_out_size(l), &failed);
        if (l->kind == L5_CONV) {
            size_t S = (size_t)conv_chunk(l, max_batch), bp = S * l->oh * l->ow;
            if (bp * l->oc > max_tmp)
                max_tmp = bp * l->oc;
            if (bp > max_bp)
                max_bp = bp;
            if (bp * l->c * l->k * l->k > max_cols)
                max_cols = bp * l->c * l->k * l->k;
        }
    }
    c->cols = alloc_floats(max_cols, &failed);
    c->tmp = alloc_floats(max_tmp, &failed);
    c->dtmp = alloc_floats(max_tmp, &failed);
    c->ones = alloc_floats(max_bp, &failed);
    c->losses = alloc_floats(B, &failed);
    if (failed) {
        snprintf(why, why_len, "out of memory for the CPU trainer (batch %d)", max_batch);
        l5_cpu_destroy(c);
        return -1;
    }
    for (size_t i = 0; i < max_bp; i++)
        c->ones[i] = 1.0f;
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
    memcpy(c->act[0], x, sizeof(float) * (size_t)B * l5_layer_in_size(&net->layer[0]));
    for (int i = 0; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        const float *in = c->act[i];
        float *out = c->act[i + 1];
        size_t n = (size_t)B * l5_layer_out_size(l);
        switch (l->kind) {
        case L5_CONV:
            conv_forward(c, l, in, out, B);
            break;
        case L5_LINEAR:
            linear_forward(c, l, in, out, B);
            break;
        case L5_RELU:
            for (size_t j = 0; j < n; j++)
                out[j] = in[j] > 0.0f ? in[j] : 0.0f;
            break;
        case L5_MAXPOOL:
            maxpool_forward(c->argmax[i], out, in, l, B);
            break;
        case L5_FLATTEN:
            memcpy(out, in, sizeof(float) * n);
            break;
        }
    }
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
    for (int i = net->n_layers - 1; i >= 0; i--) {
        const l5_layer *l = &net->layer[i];
        const float *dy = c->dact[i + 1];
        float *dx = i > 0 ? c->dact[i] : NULL; /* no gradient for the input images */
        size_t n = (size_t)B * l5_layer_out_size(l);
        switch (l->kind) {
        case L5_CONV:
            conv_backward(c, l, c->act[i], dy, dx, B);
            break;
        case L5_LINEAR:
            linear_backward(c, l, c->act[i], dy, dx, B);
            break;
        case L5_RELU:
            if (dx)
                for (size_t j = 0; j < n; j++)
                    dx[j] = c->act[i + 1][j] > 0.0f ? dy[j] : 0.0f;
            break;
        case L5_MAXPOOL:
            if (dx)
                maxpool_backward(dx, dy, c->argmax[i], l, B);
            break;
        case L5_FLATTEN:
            if (dx)
                memcpy(dx, dy, sizeof(float) * n);
            break;
        }
    }
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
