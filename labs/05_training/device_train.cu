/*
 * device_train.cu - lab 05's device trainer (harness: you do not edit it).
 *
 * One training step on the device, the same steps as cpu_train.c:
 *   conv:    im2col_kernel -> one cuBLAS strided batched GEMM (a product
 *            per sample, written in y's (B, OC, P) layout), for each chunk
 *            of L5_CHUNK samples, then bias_add over the batch
 *   linear:  cuBLAS GEMM -> bias_add
 *   relu, maxpool, softmax cross-entropy, Adam: your kernels (kernels.cu)
 *   backward: the transposed GEMMs, bias gradients as cuBLAS GEMVs with a
 *            vector of ones, col2im_kernel for a conv's input gradient.
 *
 * Why cuBLAS: a GEMM is where a CNN spends its time, and a tuned library
 * reaches a large share of the GPU's peak where a first hand-written kernel
 * reaches a few percent (lab 04 measures it). The other layers are simple
 * element-wise or row-wise passes: those are yours.
 *
 * Kernels here (one thread per element of what they write):
 *   to_rows_kernel    (B, OC, P) -> (OC, B*P)
 *   fill_kernel       x = value
 * im2col and col2im, with the plain CPU loop they port: im2col.cu.
 */
#include "device_train.h"
#include "im2col.h"
#include "student.h"

#include "lab/check.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 256

/* Samples per im2col: a conv layer runs im2col, its GEMMs and col2im over
 * chunks of this many samples of the batch, so that cols holds one chunk's
 * patches (7.5 MB for conv.0 instead of 60 MB at batch 256): written and
 * read again while it is still in a cache, where the simulator runs it, at
 * the price of a few more launches per layer on a GPU. */
#define L5_CHUNK 32

/* Floats between rows of cols: a chunk's B*P plus 16, so that the k*k rows
 * one im2col thread writes do not fall on the same few cache sets (B*P*4
 * bytes is a multiple of 2048 for conv.0's 32 x 784 pixels). */
#define L5_COLS_PAD 16
static inline size_t cols_ld(int Bc, int P)
{
    return (size_t)Bc * P + L5_COLS_PAD;
}

static inline unsigned int blocks_for(size_t n)
{
    return (unsigned int)((n + THREADS - 1) / THREADS);
}

// ----------------------------------------------------------------------------
// kernels

/* Grid: x over the P pixels, y over the OC channels, z over the B samples. */
__global__ void to_rows_kernel(float *rows, const float *y, int B, int OC, int P)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x, o = blockIdx.y, b = blockIdx.z;
    if (p >= P)
        return;
    rows[((size_t)o * B + b) * P + p] = y[((size_t)b * OC + o) * P + p];
}

__global__ void fill_kernel(float *x, float value, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = value;
}

// ----------------------------------------------------------------------------
// cuBLAS with row-major matrices

/*
 * C (M, N) = op(A) op(B), every matrix row-major and packed, through cuBLAS,
 * which is column-major. A row-major matrix read as column-major is its own
 * transpose, so instead of C = op(A) op(B) we ask cuBLAS for
 *     C^T (N, M) = op(B)^T op(A)^T,
 * whose column-major result is exactly row-major C: pass B first and A
 * second, swap M and N, keep each operand's transpose flag, and give as
 * leading dimension each stored matrix's row length.
 */
static void gemm_rm_ld(cublasHandle_t h, int ta, int tb, int M, int N, int K, const float *A,
                       int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    const float one = 1.0f;
    LAB_CHECK_CUBLAS(cublasSgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                                 N, M, K, &one, B, ldb, A, lda, &beta, C, ldc));
}

/* count products C_i = A_i B_i (no transposes), X_i = X + i * strideX, as
 * one strided batched GEMM; a stride of 0 gives every product the same
 * operand. */
static void gemm_rm_batched(cublasHandle_t h, int M, int N, int K, const float *A, int lda,
                            long long sa, const float *B, int ldb, long long sb, float *C, int ldc,
                            long long sc, int count)
{
    const float one = 1.0f, zero = 0.0f;
    LAB_CHECK_CUBLAS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, ldb,
                                               sb, A, lda, sa, &zero, C, ldc, sc, count));
}

/* The same for packed matrices (each leading dimension its row length), C = op(A) op(B). */
static void gemm_rm(cublasHandle_t h, int ta, int tb, int M, int N, int K, const float *A,
                    const float *B, float *C)
{
    gemm_rm_ld(h, ta, tb, M, N, K, A, ta ? M : K, B, tb ? K : N, 0.0f, C, N);
}

/* out (R) = row sums (rows = 1) or out (Cn) = column sums (rows = 0) of a
 * row-major (R, Cn) matrix, as a GEMV with ones (column-major: the matrix is
 * (Cn, R) with leading dimension Cn). */
static void sums_rm(cublasHandle_t h, int rows, int R, int Cn, const float *A, const float *ones,
                    float *out)
{
    const float one = 1.0f, zero = 0.0f;
    LAB_CHECK_CUBLAS(cublasSgemv(h, rows ? CUBLAS_OP_T : CUBLAS_OP_N, Cn, R, &one, A, Cn, ones, 1,
                                 &zero, out, 1));
}

// ----------------------------------------------------------------------------
// the trainer

struct l5_gpu {
    const l5_net *net;
    int max_batch;
    cublasHandle_t blas;
    l5_dev_model model;
    float *d_x;
    int *d_y;
    float *d_act[L5_MAX_LAYERS + 1], *d_dact[L5_MAX_LAYERS + 1];
    int *d_argmax[L5_MAX_LAYERS];
    float *d_cols, *d_dtmp, *d_ones, *d_losses;
    float *h_losses, *h_logits;
    int *h_labels;
    l5_adam adam;
    cudaEvent_t ev[4];
};

static float *dev_floats(size_t n)
{
    float *p;
    LAB_CHECK(cudaMalloc(&p, sizeof(float) * (n ? n : 1)));
    return p;
}

l5_gpu *l5_gpu_create(const l5_net *net, int max_batch, const float *h_params, double lr)
{
    l5_gpu *g = (l5_gpu *)calloc(1, sizeof(*g));
    size_t B = (size_t)max_batch, max_tmp = 1, max_bp = B, max_ckk = 1;
    if (!g) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    g->net = net;
    g->max_batch = max_batch;
    LAB_CHECK_CUBLAS(cublasCreate(&g->blas));
    model_to_device(&g->model, h_params, net->n_params);
    if (!g->model.params || !g->model.grads || !g->model.m || !g->model.v) {
        fprintf(stderr, "model_to_device left the model's device vectors NULL: allocate "
                        "params, grads, m and v with cudaMalloc (to_device.cu, part 1)\n");
        exit(1);
    }
    for (int i = 0; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        if (i == 0) {
            g->d_act[0] = dev_floats(B * l5_layer_in_size(l));
            g->d_dact[0] = dev_floats(B * l5_layer_in_size(l));
        }
        g->d_act[i + 1] = dev_floats(B * l5_layer_out_size(l));
        g->d_dact[i + 1] = dev_floats(B * l5_layer_out_size(l));
        if (l->kind == L5_MAXPOOL)
            LAB_CHECK(cudaMalloc(&g->d_argmax[i], sizeof(int) * B * l5_layer_out_size(l)));
        if (l->kind == L5_CONV) {
            size_t ckk = (size_t)l->c * l->k * l->k;
            max_ckk = ckk > max_ckk ? ckk : max_ckk;
            size_t bp = B * (size_t)l->oh * l->ow;
            max_tmp = bp * l->oc > max_tmp ? bp * l->oc : max_tmp;
            max_bp = bp > max_bp ? bp : max_bp;
        }
    }
    g->d_x = g->d_act[0];
    LAB_CHECK(cudaMalloc(&g->d_y, sizeof(int) * B));
    g->d_cols = dev_floats((B < L5_CHUNK ? B : L5_CHUNK) * net->max_cols + max_ckk * L5_COLS_PAD);
    g->d_dtmp = dev_floats(max_tmp);
    g->d_ones = dev_floats(max_bp);
    g->d_losses = dev_floats(B);
    fill_kernel<<<blocks_for(max_bp), THREADS>>>(g->d_ones, 1.0f, max_bp);
    LAB_CHECK_LAUNCH();
    g->h_losses = (float *)malloc(sizeof(float) * B);
    g->h_logits = (float *)malloc(sizeof(float) * B * net->n_classes);
    g->h_labels = (int *)malloc(sizeof(int) * B);
    if (!g->h_losses || !g->h_logits || !g->h_labels) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (int e = 0; e < 4; e++)
        LAB_CHECK(cudaEventCreate(&g->ev[e]));
    l5_adam_init(&g->adam, lr);
    return g;
}

void l5_gpu_destroy(l5_gpu *g)
{
    if (!g)
        return;
    model_free(&g->model);
    for (int i = 0; i <= L5_MAX_LAYERS; i++) {
        if (g->d_act[i])
            LAB_CHECK(cudaFree(g->d_act[i]));
        if (g->d_dact[i])
            LAB_CHECK(cudaFree(g->d_dact[i]));
        if (i < L5_MAX_LAYERS && g->d_argmax[i])
            LAB_CHECK(cudaFree(g->d_argmax[i]));
    }
    float *bufs[] = { g->d_cols, g->d_dtmp, g->d_ones, g->d_losses };
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        LAB_CHECK(cudaFree(bufs[i]));
    LAB_CHECK(cudaFree(g->d_y));
    for (int e = 0; e < 4; e++)
        LAB_CHECK(cudaEventDestroy(g->ev[e]));
    LAB_CHECK_CUBLAS(cublasDestroy(g->blas));
    free(g->h_losses);
    free(g->h_logits);
    free(g->h_labels);
    free(g);
}

static int chunk_of(int B, int s0)
{
    return B - s0 < L5_CHUNK ? B - s0 : L5_CHUNK;
}

static void conv_forward(l5_gpu *g, const l5_layer *l, const float *x, float *y, int B)
{
    const l5_net *net = g->net;
    const float *W = g->model.params + net->tensor[l->weight].offset;
    const float *bias = g->model.params + net->tensor[l->bias].offset;
    int P = l->oh * l->ow, CKK = l->c * l->k * l->k;
    size_t in = (size_t)l->c * l->h * l->w;
    for (int s0 = 0; s0 < B; s0 += L5_CHUNK) {
        int Bc = chunk_of(B, s0);
        l5_im2col(g->d_cols, cols_ld(Bc, P), l, x + s0 * in, Bc);
        /* y_b (OC, P) = W (OC, CKK) . cols_b (CKK, P) for each sample b of
         * the chunk, cols_b its P columns of cols: straight into y's layout */
        gemm_rm_batched(g->blas, l->oc, P, CKK, W, CKK, 0, g->d_cols, (int)cols_ld(Bc, P), P,
                        y + (size_t)s0 * l->oc * P, P, (long long)l->oc * P, Bc);
    }
    bias_add(y, bias, B, l->oc, P);
}

static void conv_backward(l5_gpu *g, const l5_layer *l, const float *x, const float *dy, float *dx,
                          int B)
{
    const l5_net *net = g->net;
    const l5_tensor *tw = &net->tensor[l->weight], *tb = &net->tensor[l->bias];
    int P = l->oh * l->ow, CKK = l->c * l->k * l->k, BP = B * P;
    size_t in = (size_t)l->c * l->h * l->w;
    to_rows_kernel<<<dim3(blocks_for(P), l->oc, B), THREADS>>>(g->d_dtmp, dy, B, l->oc, P);
    LAB_CHECK_LAUNCH();
    sums_rm(g->blas, 1, l->oc, BP, g->d_dtmp, g->d_ones, g->model.grads + tb->offset);
    for (int s0 = 0; s0 < B; s0 += L5_CHUNK) {
        int Bc = chunk_of(B, s0);
        const float *dout = g->d_dtmp + (size_t)s0 * P; /* (OC, Bc*P) inside (OC, B*P) */
        l5_im2col(g->d_cols, cols_ld(Bc, P), l, x + s0 * in, Bc);
        /* dW (+)= dout . cols^T, the chunks added in order */
        gemm_rm_ld(g->blas, 0, 1, l->oc, CKK, Bc * P, dout, BP, g->d_cols, (int)cols_ld(Bc, P),
                   s0 ? 1.0f : 0.0f, g->model.grads + tw->offset, CKK);
        if (!dx)
            continue;
        /* dcols (C*k*k, Bc*P) = W^T . dout, into cols, then added back to dx */
        gemm_rm_ld(g->blas, 1, 0, CKK, Bc * P, l->oc, g->model.params + tw->offset, CKK, dout, BP,
                   0.0f, g->d_cols, (int)cols_ld(Bc, P));
        l5_col2im(dx + s0 * in, g->d_cols, cols_ld(Bc, P), l, Bc);
    }
}

static void linear_forward(l5_gpu *g, const l5_layer *l, const float *x, float *y, int B)
{
    const l5_net *net = g->net;
    gemm_rm(g->blas, 0, 1, B, l->oc, l->c, x, g->model.params + net->tensor[l->weight].offset, y);
    bias_add(y, g->model.params + net->tensor[l->bias].offset, B, l->oc, 1);
}

static void linear_backward(l5_gpu *g, const l5_layer *l, const float *x, const float *dy,
                            float *dx, int B)
{
    const l5_net *net = g->net;
    const l5_tensor *tw = &net->tensor[l->weight], *tb = &net->tensor[l->bias];
    gemm_rm(g->blas, 1, 0, l->oc, l->c, B, dy, x, g->model.grads + tw->offset);
    sums_rm(g->blas, 0, B, l->oc, dy, g->d_ones, g->model.grads + tb->offset);
    if (dx)
        gemm_rm(g->blas, 0, 0, B, l->c, l->oc, dy, g->model.params + tw->offset, dx);
}

/* Forward from g->d_x to the logits g->d_act[n_layers]. */
static void forward(l5_gpu *g, int B)
{
    const l5_net *net = g->net;
    for (int i = 0; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        const float *in = g->d_act[i];
        float *out = g->d_act[i + 1];
        size_t n = (size_t)B * l5_layer_out_size(l);
        switch (l->kind) {
        case L5_CONV:
            conv_forward(g, l, in, out, B);
            break;
        case L5_LINEAR:
            linear_forward(g, l, in, out, B);
            break;
        case L5_RELU:
            relu_forward(out, in, n);
            break;
        case L5_MAXPOOL:
            maxpool_forward(out, g->d_argmax[i], in, B * l->c, l->h, l->w);
            break;
        case L5_FLATTEN:
            LAB_CHECK(cudaMemcpyAsync(out, in, sizeof(float) * n, cudaMemcpyDeviceToDevice, 0));
            break;
        }
    }
}

static void backward(l5_gpu *g, int B)
{
    const l5_net *net = g->net;
    for (int i = net->n_layers - 1; i >= 0; i--) {
        const l5_layer *l = &net->layer[i];
        const float *dy = g->d_dact[i + 1];
        float *dx = i > 0 ? g->d_dact[i] : NULL;
        size_t n = (size_t)B * l5_layer_out_size(l);
        switch (l->kind) {
        case L5_CONV:
            conv_backward(g, l, g->d_act[i], dy, dx, B);
            break;
        case L5_LINEAR:
            linear_backward(g, l, g->d_act[i], dy, dx, B);
            break;
        case L5_RELU:
            if (dx)
                relu_backward(dx, dy, g->d_act[i + 1], n);
            break;
        case L5_MAXPOOL:
            if (dx) {
                LAB_CHECK(cudaMemsetAsync(dx, 0, sizeof(float) * B * l5_layer_in_size(l), 0));
                maxpool_backward(dx, dy, g->d_argmax[i], B * l->c, l->h, l->w);
            }
            break;
        case L5_FLATTEN:
            if (dx)
                LAB_CHECK(cudaMemcpyAsync(dx, dy, sizeof(float) * n, cudaMemcpyDeviceToDevice, 0));
            break;
        }
    }
}

static void check_batch(const l5_gpu *g, int B)
{
    if (B < 1 || B > g->max_batch) {
        fprintf(stderr, "device trainer: batch of %d samples, expected 1 to %d\n", B, g->max_batch);
        exit(1);
    }
}

/* Losses (and logits) back, the mean loss, the correct count. */
static float results_to_host(l5_gpu *g, const int *h_y, int B, int *correct)
{
    int C = g->net->n_classes;
    LAB_CHECK(cudaMemcpy(g->h_losses, g->d_losses, sizeof(float) * B, cudaMemcpyDeviceToHost));
    LAB_CHECK(cudaMemcpy(g->h_logits, g->d_act[g->net->n_layers], sizeof(float) * B * C,
                         cudaMemcpyDeviceToHost));
    if (correct)
        *correct = l5_count_correct(g->h_logits, h_y, B, C);
    return l5_mean_loss(g->h_losses, B);
}

static void forward_backward_on_device(l5_gpu *g, int B)
{
    const l5_net *net = g->net;
    forward(g, B);
    softmax_xent(g->d_dact[net->n_layers], g->d_losses, g->d_act[net->n_layers], g->d_y, B,
                 net->n_classes);
    backward(g, B);
}

float l5_gpu_forward_backward(l5_gpu *g, const float *h_x, const int *h_y, int B, int *correct)
{
    check_batch(g, B);
    batch_to_device(g->d_x, g->d_y, h_x, h_y, (size_t)B * l5_layer_in_size(&g->net->layer[0]), B);
    forward_backward_on_device(g, B);
    return results_to_host(g, h_y, B, correct);
}

void l5_gpu_adam(l5_gpu *g)
{
    l5_adam_scalars s = l5_adam_next(&g->adam);
    adam_update(g->model.params, g->model.grads, g->model.m, g->model.v, g->model.n, s);
}

float l5_gpu_step(l5_gpu *g, const float *h_x, const int *h_y, int B, int *correct,
                  l5_step_times *times)
{
    check_batch(g, B);
    LAB_CHECK(cudaEventRecord(g->ev[0], 0));
    batch_to_device(g->d_x, g->d_y, h_x, h_y, (size_t)B * l5_layer_in_size(&g->net->layer[0]), B);
    LAB_CHECK(cudaEventRecord(g->ev[1], 0));
    forward_backward_on_device(g, B);
    l5_gpu_adam(g);
    LAB_CHECK(cudaEventRecord(g->ev[2], 0));
    float loss = results_to_host(g, h_y, B, correct);
    LAB_CHECK(cudaEventRecord(g->ev[3], 0));
    LAB_CHECK(cudaEventSynchronize(g->ev[3]));
    if (times) {
        float ms[3];
        for (int e = 0; e < 3; e++)
            LAB_CHECK(cudaEventElapsedTime(&ms[e], g->ev[e], g->ev[e + 1]));
        times->h2d_ms = ms[0];
        times->compute_ms = ms[1];
        times->d2h_ms = ms[2];
    }
    return loss;
}

void l5_gpu_get_layers(l5_gpu *g, int B, float *const *h_act, float *const *h_dact)
{
    const l5_net *net = g->net;
    check_batch(g, B);
    LAB_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i <= net->n_layers; i++) {
        size_t n = (size_t)B * (i < net->n_layers ? l5_layer_in_size(&net->layer[i])
                                                  : l5_layer_out_size(&net->layer[i - 1]));
        if (h_act && h_act[i])
            LAB_CHECK(cudaMemcpy(h_act[i], g->d_act[i], sizeof(float) * n, cudaMemcpyDeviceToHost));
        if (i > 0 && h_dact && h_dact[i])
            LAB_CHECK(
                cudaMemcpy(h_dact[i], g->d_dact[i], sizeof(float) * n, cudaMemcpyDeviceToHost));
    }
}

void l5_gpu_get(l5_gpu *g, float *h_params, float *h_grads)
{
    LAB_CHECK(cudaDeviceSynchronize());
    model_to_host(h_params, h_grads, &g->model);
}

int l5_gpu_evaluate(l5_gpu *g, const float *h_x, const int *h_y, int n)
{
    size_t in = l5_layer_in_size(&g->net->layer[0]);
    int correct = 0;
    for (int at = 0; at < n; at += g->max_batch) {
        int B = n - at < g->max_batch ? n - at : g->max_batch, c = 0;
        batch_to_device(g->d_x, g->d_y, h_x + (size_t)at * in, h_y + at, (size_t)B * in, B);
        forward(g, B);
        LAB_CHECK(cudaMemcpy(g->h_logits, g->d_act[g->net->n_layers],
                             sizeof(float) * B * g->net->n_classes, cudaMemcpyDeviceToHost));
        c = l5_count_correct(g->h_logits, h_y + at, B, g->net->n_classes);
        correct += c;
    }
    return correct;
}
