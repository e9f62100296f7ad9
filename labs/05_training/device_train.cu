/*
 * device_train.cu - lab 05's device trainer (harness: you do not edit it).
 *
 * One training step on the device, the same steps as cpu_train.c:
 *   conv:    im2col_kernel -> cuBLAS GEMM -> from_rows_kernel, for each
 *            chunk of L5_CHUNK samples, then bias_add over the batch
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
 * Kernels here (one thread per element of what they write, except im2col
 * and col2im, whose threads do four pixels each):
 *   im2col_kernel     cols (C*k*k, B*P; rows B*P + 16 floats apart) from
 *                     x (B, C, H, W), B samples (a chunk); a thread per
 *                     column and four rows of an output plane writes each
 *                     pixel's k*k rows
 *   im2col_wide_kernel the same for 5 x 5 kernels over rows of a multiple
 *                     of four floats (conv.0, conv.5): a thread per four
 *                     pixels of a row, float4 loads and stores
 *   col2im_kernel     dx (B, C, H, W) gathered from dcols
 *   from_rows_kernel  (OC, B*P) -> (B, OC, P)
 *   to_rows_kernel    (B, OC, P) -> (OC, B*P)
 *   fill_kernel       x = value
 *
 * The plain CPU loop im2col_kernel ports (the CPU trainer computes the same
 * products without building cols: cpu_train.c); col2im_kernel adds dcols
 * back the same way, each dx element summing the entries it was copied to:
 *
 *   for (b, c, oy, ox)                  // a thread per (c, b, ox, 4 oy)
 *       for (ki = 0; ki < k; ki++)
 *           for (kj = 0; kj < k; kj++) {
 *               iy = oy + ki - pad, ix = ox + kj - pad;
 *               cols[(c k + ki) k + kj][b P + oy OW + ox] =
 *                   inside(iy, ix) ? x[b][c][iy][ix] : 0;
 *           }
 */
#include "device_train.h"
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

/*
 * im2col and col2im run one thread per pixel column and four rows of a
 * plane: blockDim (width, R), grid (ceil(height / 4R), B, C); thread (x, y)
 * of block (i, b, c) does column x of rows 4Ri + y + jR, j = 0..3. So
 * threadIdx and blockIdx give the column, row, sample and channel with no
 * division (five divisions per element cost more than the copy itself); at
 * each step the threads of a warp touch floats next to each other, as a
 * GPU's memory wants; and a thread's bookkeeping is shared by four pixels,
 * as the simulator (which runs each thread in turn) wants.
 */
#define L5_ROWS_PER_THREAD 4

/* R rows of threads: at most THREADS in a block, and no more than a plane's
 * height needs (conv.8's 4 x 4 outputs get a block of 4 threads, not 256
 * with most of them idle). */
static dim3 plane_block(int width, int height)
{
    int rows = THREADS / width, need = (height + L5_ROWS_PER_THREAD - 1) / L5_ROWS_PER_THREAD;
    rows = rows < need ? rows : need;
    return dim3((unsigned int)width, (unsigned int)(rows > 0 ? rows : 1));
}

static dim3 plane_grid(dim3 block, int height, int B, int C)
{
    int rows = (int)block.y * L5_ROWS_PER_THREAD;
    return dim3((unsigned int)((height + rows - 1) / rows), (unsigned int)B, (unsigned int)C);
}

/* cols (C*k*k, B*P): one thread per output column ox and four rows of
 * sample b, channel c, writing each pixel's k*k rows (c, ki, kj). */
__global__ void im2col_kernel(float *cols, size_t BP, const float *x, int C, int H, int W, int k,
                              int pad, int OH, int OW)
{
    int ox = threadIdx.x, b = blockIdx.y, c = blockIdx.z;
    int ix0 = ox - pad, cols_in = ix0 >= 0 && ix0 + k <= W;
    const float *plane = x + ((size_t)b * C + c) * H * W;
    float *base = cols + (size_t)c * k * k * BP + (size_t)b * OH * OW + ox;
    for (int j = 0; j < L5_ROWS_PER_THREAD; j++) {
        int oy = (blockIdx.x * L5_ROWS_PER_THREAD + j) * blockDim.y + threadIdx.y;
        if (oy >= OH)
            return;
        int iy0 = oy - pad;
        float *out = base + oy * OW;
        if (cols_in && iy0 >= 0 && iy0 + k <= H) {
            /* the window wholly inside the input (every pixel of an
             * unpadded layer): a plain copy, no test per element */
            const float *in = plane + iy0 * W + ix0;
            for (int ki = 0; ki < k; ki++)
                for (int kj = 0; kj < k; kj++, out += BP)
                    *out = in[ki * W + kj];
            continue;
        }
        for (int ki = 0; ki < k; ki++) {
            int iy = iy0 + ki, row_ok = iy >= 0 && iy < H;
            for (int kj = 0; kj < k; kj++, out += BP) {
                int ix = ix0 + kj;
                *out = row_ok && ix >= 0 && ix < W ? plane[iy * W + ix] : 0.0f;
            }
        }
    }
}

/*
 * im2col for a 5 x 5 kernel over rows whose lengths, and padding, are
 * multiples of four floats (conv.0 and conv.5): a thread takes four output
 * pixels ox0..ox0+3 of a row, whose five windows span the input columns
 * ox0-pad .. ox0-pad+7 of each window row: two aligned float4. Per input
 * row, two 16-byte loads and five 16-byte stores (one per cols row, its
 * floats kj..kj+3 of the eight), where the kernel above makes 20 loads and
 * 20 stores of 4 bytes for the same four pixels: fewer, wider accesses on a
 * GPU, and on the simulator (which runs one thread at a time) a quarter of
 * the threads and vector copies. blockDim (OW / 4, rows), grid (ceil(OH /
 * rows), B, C); the threads of a warp still touch neighbouring floats.
 */
#define L5_K5 5

static int im2col_wide_fits(const l5_layer *l)
{
    return l->k == L5_K5 && l->ow % 4 == 0;
}

__global__ void im2col_wide_kernel(float *cols, size_t BP, const float *x, int C, int H, int W,
                                   int pad, int OH, int OW)
{
    int ox0 = threadIdx.x * 4, oy = blockIdx.x * blockDim.y + threadIdx.y;
    int b = blockIdx.y, c = blockIdx.z;
    if (oy >= OH)
        return;
    const float *plane = x + ((size_t)b * C + c) * H * W;
    float *out = cols + (size_t)c * L5_K5 * L5_K5 * BP + (size_t)b * OH * OW + oy * OW + ox0;
    int ix0 = ox0 - pad;
    /* rows and padding of a multiple of four floats: ix0 is one too, each
     * float4 of the input wholly inside a row or outside; else (conv.3,
     * padding 3) the eight floats one by one */
    int aligned = pad % 4 == 0 && W % 4 == 0;
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    /* columns ix0 .. ix0 + 7 of the five window rows, all gathered before
     * any is copied out (a CPU reads them back at once then, instead of
     * waiting on the stores just made) */
    float f[L5_K5][8];
    for (int ki = 0; ki < L5_K5; ki++) {
        int iy = oy - pad + ki;
        const float *row = plane + iy * W;
        int row_ok = iy >= 0 && iy < H;
        if (aligned) {
            *(float4 *)f[ki] = row_ok && ix0 >= 0 && ix0 < W ? *(const float4 *)(row + ix0) : zero;
            *(float4 *)(f[ki] + 4) =
                row_ok && ix0 + 4 >= 0 && ix0 + 4 < W ? *(const float4 *)(row + ix0 + 4) : zero;
        } else {
            for (int j = 0; j < 8; j++)
                f[ki][j] = row_ok && ix0 + j >= 0 && ix0 + j < W ? row[ix0 + j] : 0.0f;
        }
    }
    /* whole float4 copies: one 16-byte access each */
    for (int ki = 0; ki < L5_K5; ki++)
        for (int kj = 0; kj < L5_K5; kj++, out += BP)
            *(float4 *)out = *(const float4 *)(f[ki] + kj);
}

/* Each input pixel (ix, iy) of sample b, channel c sums the dcols entries it
 * was copied to (no atomics); a thread does column ix of four rows. */
__global__ void col2im_kernel(float *dx, const float *dcols, size_t BP, int C, int H, int W, int k,
                              int pad, int OH, int OW)
{
    int ix = threadIdx.x, b = blockIdx.y, c = blockIdx.z;
    const float *rows = dcols + (size_t)c * k * k * BP + (size_t)b * OH * OW + ix + pad;
    float *out = dx + ((size_t)b * C + c) * H * W + ix;
    /* the output columns this input column reaches: ox = ix + pad - kj
     * inside [0, OW) for kj in [kj_lo, kj_hi]; the same for rows and ki.
     * Each pixel sums its terms in the order (ki, kj), skipping those
     * outside. */
    int kj_lo = ix + pad - OW + 1 > 0 ? ix + pad - OW + 1 : 0;
    int kj_hi = ix + pad < k - 1 ? ix + pad : k - 1;
    for (int j = 0; j < L5_ROWS_PER_THREAD; j++) {
        int iy = (blockIdx.x * L5_ROWS_PER_THREAD + j) * blockDim.y + threadIdx.y;
        if (iy >= H)
            return;
        int ki_lo = iy + pad - OH + 1 > 0 ? iy + pad - OH + 1 : 0;
        int ki_hi = iy + pad < k - 1 ? iy + pad : k - 1;
        float sum = 0.0f;
        for (int ki = ki_lo; ki <= ki_hi; ki++) {
            const float *r = rows + (size_t)ki * k * BP + (iy + pad - ki) * OW;
            for (int kj = kj_lo; kj <= kj_hi; kj++)
                sum += r[(size_t)kj * BP - kj];
        }
        out[iy * W] = sum;
    }
}

/* Grid: x over the P pixels, y over the OC channels, z over the B samples. */
__global__ void from_rows_kernel(float *y, const float *rows, int B, int OC, int P)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x, o = blockIdx.y, b = blockIdx.z;
    if (p >= P)
        return;
    y[((size_t)b * OC + o) * P + p] = rows[((size_t)o * B + b) * P + p];
}

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
    float *d_cols, *d_tmp, *d_dtmp, *d_ones, *d_losses;
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
    g->d_tmp = dev_floats(max_tmp);
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
    float *bufs[] = { g->d_cols, g->d_tmp, g->d_dtmp, g->d_ones, g->d_losses };
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

/* cols (C*k*k, Bc*P) of the Bc samples from x on. */
static void im2col(l5_gpu *g, const l5_layer *l, const float *x, int Bc)
{
    size_t ld = cols_ld(Bc, l->oh * l->ow);
    if (im2col_wide_fits(l)) {
        /* a thread per four pixels of a row; at most a plane's height of rows */
        int quads = l->ow / 4, rows = THREADS / quads < l->oh ? THREADS / quads : l->oh;
        dim3 block((unsigned int)quads, (unsigned int)rows);
        dim3 grid((unsigned int)((l->oh + rows - 1) / rows), (unsigned int)Bc, (unsigned int)l->c);
        im2col_wide_kernel<<<grid, block>>>(g->d_cols, ld, x, l->c, l->h, l->w, l->pad, l->oh,
                                            l->ow);
    } else {
        dim3 block = plane_block(l->ow, l->oh);
        im2col_kernel<<<plane_grid(block, l->oh, Bc, l->c), block>>>(
            g->d_cols, ld, x, l->c, l->h, l->w, l->k, l->pad, l->oh, l->ow);
    }
    LAB_CHECK_LAUNCH();
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
        im2col(g, l, x + s0 * in, Bc);
        gemm_rm_ld(g->blas, 0, 0, l->oc, Bc * P, CKK, W, CKK, g->d_cols, (int)cols_ld(Bc, P), 0.0f,
                   g->d_tmp, Bc * P); /* (OC, Bc*P) */
        from_rows_kernel<<<dim3(blocks_for(P), l->oc, Bc), THREADS>>>(y + (size_t)s0 * l->oc * P,
                                                                      g->d_tmp, Bc, l->oc, P);
        LAB_CHECK_LAUNCH();
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
    dim3 in_block = plane_block(l->w, l->h);
    for (int s0 = 0; s0 < B; s0 += L5_CHUNK) {
        int Bc = chunk_of(B, s0);
        const float *dout = g->d_dtmp + (size_t)s0 * P; /* (OC, Bc*P) inside (OC, B*P) */
        im2col(g, l, x + s0 * in, Bc);
        /* dW (+)= dout . cols^T, the chunks added in order */
        gemm_rm_ld(g->blas, 0, 1, l->oc, CKK, Bc * P, dout, BP, g->d_cols, (int)cols_ld(Bc, P),
                   s0 ? 1.0f : 0.0f, g->model.grads + tw->offset, CKK);
        if (!dx)
            continue;
        /* dcols (C*k*k, Bc*P) = W^T . dout, into cols, then added back to dx */
        gemm_rm_ld(g->blas, 1, 0, CKK, Bc * P, l->oc, g->model.params + tw->offset, CKK, dout, BP,
                   0.0f, g->d_cols, (int)cols_ld(Bc, P));
        col2im_kernel<<<plane_grid(in_block, l->h, Bc, l->c), in_block>>>(
            dx + s0 * in, g->d_cols, cols_ld(Bc, P), l->c, l->h, l->w, l->k, l->pad, l->oh, l->ow);
        LAB_CHECK_LAUNCH();
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
