/*
 * model-check's cases: lab 02's copies, lab 03's adds, lab 04's mat-vec
 * versions and cublasSgemv, lab 05's layer kernels and sgemms (the
 * solutions' own), each timed with CUDA events: warm-up runs, then the
 * median of the timed runs, in column 0 of the table (model_check.h).
 */
#include "model_check.h"

#include "kernels.h" /* lab 03 */
#include "matvec.h"  /* lab 04 */
#include "student.h" /* lab 05 */

#include "lab/check.h"
#include "lab/cuda_timer.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void format_bytes(char *buf, size_t len, size_t bytes)
{
    if (bytes >= ((size_t)1 << 20))
        snprintf(buf, len, "%zu MiB", bytes >> 20);
    else
        snprintf(buf, len, "%zu KiB", bytes >> 10);
}

typedef struct copy_ctx {
    void *dst;
    const void *src;
    size_t bytes, piece;
    enum cudaMemcpyKind kind;
} copy_ctx;

static void run_copy(void *p)
{
    copy_ctx *c = (copy_ctx *)p;
    for (size_t off = 0; off < c->bytes; off += c->piece) {
        size_t n = c->bytes - off < c->piece ? c->bytes - off : c->piece;
        LAB_CHECK(cudaMemcpy((char *)c->dst + off, (const char *)c->src + off, n, c->kind));
    }
}

static void run_memset(void *p)
{
    copy_ctx *c = (copy_ctx *)p;
    LAB_CHECK(cudaMemset(c->dst, 0, c->bytes));
}

/* Every kernel and cuBLAS case: which one, and its operands. */
enum mc_op {
    OP_VEC_ADD,
    OP_GRID_STRIDE,
    OP_MAT_ADD,
    OP_MATVEC,
    OP_SGEMV,
    OP_RELU_FWD,
    OP_RELU_BWD,
    OP_BIAS_ADD,
    OP_POOL_FWD,
    OP_POOL_BWD,
    OP_SOFTMAX,
    OP_ADAM,
    OP_SGEMM
};

typedef struct op_ctx {
    enum mc_op op;
    int a, b, c, d; /* sizes; their meaning depends on op */
    float *x, *y, *z, *w;
    int *idx;
    cublasHandle_t blas;
} op_ctx;

static void run_op(void *p)
{
    op_ctx *o = (op_ctx *)p;
    const float one = 1.0f, zero = 0.0f;
    lab03_launch used;
    l5_adam_scalars s = { 0.9f, 0.1f, 0.999f, 0.001f, 1e-3f, 0.03f, 1e-8f };
    switch (o->op) {
    case OP_VEC_ADD:
        vec_add(o->z, o->x, o->y, o->a, 256, &used);
        break;
    case OP_GRID_STRIDE:
        vec_add_grid_stride(o->z, o->x, o->y, o->a, o->b, 256, &used);
        break;
    case OP_MAT_ADD:
        mat_add(o->z, o->x, o->y, o->a, o->b, &used);
        break;
    case OP_MATVEC:
        matvec(o->c, o->z, o->x, o->y, o->a, o->b);
        break;
    case OP_SGEMV:
        /* u (N) = A (N, M) v, A row-major: column-major (M, N), transposed, as lab 04's harness. */
        LAB_CHECK_CUBLAS(cublasSgemv(o->blas, CUBLAS_OP_T, o->b, o->a, &one, o->x, o->b, o->y, 1,
                                     &zero, o->z, 1));
        break;
    case OP_RELU_FWD:
        relu_forward(o->z, o->x, (size_t)o->a);
        break;
    case OP_RELU_BWD:
        relu_backward(o->w, o->x, o->z, (size_t)o->a);
        break;
    case OP_BIAS_ADD:
        bias_add(o->z, o->y, o->a, o->b, o->c);
        break;
    case OP_POOL_FWD:
        maxpool_forward(o->z, o->idx, o->x, o->a, o->b, o->c);
        break;
    case OP_POOL_BWD:
        maxpool_backward(o->w, o->z, o->idx, o->a, o->b, o->c);
        break;
    case OP_SOFTMAX:
        softmax_xent(o->w, o->y, o->x, o->idx, o->a, o->b);
        break;
    case OP_ADAM:
        adam_update(o->x, o->y, o->z, o->w, (size_t)o->a, s);
        break;
    case OP_SGEMM:
        /* C (M, N) = A (M, K) B (K, N), row-major, as lab 05's gemm_rm: C^T = B^T A^T. */
        LAB_CHECK_CUBLAS(cublasSgemm(o->blas, CUBLAS_OP_N, CUBLAS_OP_N, o->b, o->a, o->c, &one,
                                     o->y, o->b, o->x, o->c, &zero, o->z, o->b));
        break;
    }
}

/* Times fn(ctx) with events and records the median in microseconds. */
static void time_case(const mc_options *opt, const char *lab, const char *what, void (*fn)(void *),
                      void *ctx)
{
    lab_time_stats st;
    lab_error err;
    LAB_CHECK_STATUS(lab_cuda_time_repeat(&st, fn, ctx, opt->warmup, opt->reps, 0, &err), &err);
    mc_case *c = &cases[ncases++];
    snprintf(c->lab, sizeof(c->lab), "%s", lab);
    snprintf(c->what, sizeof(c->what), "%s", what);
    c->us[0] = st.median * 1e6;
}

static float *dev_floats(size_t n)
{
    float *p;
    LAB_CHECK(cudaMalloc(&p, n * sizeof(float)));
    LAB_CHECK(cudaMemset(p, 0, n * sizeof(float)));
    return p;
}

static int *dev_ints(size_t n)
{
    int *p;
    LAB_CHECK(cudaMalloc(&p, n * sizeof(int)));
    LAB_CHECK(cudaMemset(p, 0, n * sizeof(int)));
    return p;
}

/* Lab 02: pageable and pinned copies both ways at several sizes, one copy
 * against the same bytes in 4 KiB pieces, a device-to-device copy, a memset. */
static void lab02_cases(const mc_options *opt)
{
    const size_t big = opt->quick ? ((size_t)8 << 20) : ((size_t)64 << 20);
    const size_t sizes[] = { (size_t)4 << 10, (size_t)1 << 20, big };
    const size_t pieces = (size_t)4 << 20, piece = 4096;
    char *h_page = (char *)malloc(big), *h_pin, *d_a, *d_b;
    if (!h_page) {
        fprintf(stderr, "model-check: out of host memory (%zu bytes)\n", big);
        exit(1);
    }
    memset(h_page, 1, big);
    LAB_CHECK(cudaMallocHost((void **)&h_pin, big));
    memset(h_pin, 1, big);
    LAB_CHECK(cudaMalloc((void **)&d_a, big));
    LAB_CHECK(cudaMalloc((void **)&d_b, big));
    LAB_CHECK(cudaMemset(d_a, 0, big));
    LAB_CHECK(cudaMemset(d_b, 0, big));
    char what[MC_WHAT], size[32], slower[MC_WHAT];
    for (int dir = 0; dir < 2; dir++) {
        const char *name = dir == 0 ? "H2D" : "D2H";
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            format_bytes(size, sizeof(size), sizes[s]);
            for (int pinned = 0; pinned < 2; pinned++) {
                char *h = pinned ? h_pin : h_page;
                copy_ctx c = { dir == 0 ? (void *)d_a : (void *)h, dir == 0 ? (void *)h : d_a,
                               sizes[s], sizes[s],
                               dir == 0 ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost };
                snprintf(what, sizeof(what), "cudaMemcpy %s %s %s", name,
                         pinned ? "pinned" : "pageable", size);
                time_case(opt, "lab02", what, run_copy, &c);
            }
            /* The lesson: pinned beats pageable once the bytes, not the call, dominate. */
            if (sizes[s] >= ((size_t)1 << 20)) {
                snprintf(what, sizeof(what), "cudaMemcpy %s pinned %s", name, size);
                snprintf(slower, sizeof(slower), "cudaMemcpy %s pageable %s", name, size);
                add_rank("lab02", what, slower);
            }
        }
    }
    copy_ctx one = { d_a, h_pin, pieces, pieces, cudaMemcpyHostToDevice };
    time_case(opt, "lab02", "H2D pinned 4 MiB, one cudaMemcpy", run_copy, &one);
    copy_ctx many = { d_a, h_pin, pieces, piece, cudaMemcpyHostToDevice };
    time_case(opt, "lab02", "H2D pinned 4 MiB, 1024 x 4 KiB pieces", run_copy, &many);
    add_rank("lab02", "H2D pinned 4 MiB, one cudaMemcpy", "H2D pinned 4 MiB, 1024 x 4 KiB pieces");
    format_bytes(size, sizeof(size), big);
    copy_ctx d2d = { d_b, d_a, big, big, cudaMemcpyDeviceToDevice };
    snprintf(what, sizeof(what), "cudaMemcpy D2D %s", size);
    time_case(opt, "lab02", what, run_copy, &d2d);
    snprintf(what, sizeof(what), "cudaMemset %s", size);
    time_case(opt, "lab02", what, run_memset, &d2d);
    LAB_CHECK(cudaFree(d_a));
    LAB_CHECK(cudaFree(d_b));
    LAB_CHECK(cudaFreeHost(h_pin));
    free(h_page);
}

/* Lab 03: c = a + b three ways. */
static void lab03_cases(const mc_options *opt)
{
    const int n = opt->quick ? (1 << 20) : (1 << 24), side = opt->quick ? 1024 : 4096;
    const int stride_blocks = opt->quick ? 64 : 1024;
    size_t most = (size_t)n > (size_t)side * side ? (size_t)n : (size_t)side * side;
    op_ctx o;
    memset(&o, 0, sizeof(o));
    o.x = dev_floats(most);
    o.y = dev_floats(most);
    o.z = dev_floats(most);
    char what[MC_WHAT];
    o.op = OP_VEC_ADD;
    o.a = n;
    snprintf(what, sizeof(what), "vec_add, n = %d, 256 threads a block", n);
    time_case(opt, "lab03", what, run_op, &o);
    o.op = OP_GRID_STRIDE;
    o.b = stride_blocks;
    snprintf(what, sizeof(what), "vec_add_grid_stride, n = %d, %d x 256", n, stride_blocks);
    time_case(opt, "lab03", what, run_op, &o);
    o.op = OP_MAT_ADD;
    o.a = o.b = side;
    snprintf(what, sizeof(what), "mat_add, %d x %d, 16 x 16 blocks", side, side);
    time_case(opt, "lab03", what, run_op, &o);
    LAB_CHECK(cudaFree(o.x));
    LAB_CHECK(cudaFree(o.y));
    LAB_CHECK(cudaFree(o.z));
}

/* Lab 04: u = A v, the three versions and cuBLAS, at the demo's shape. */
static void lab04_cases(const mc_options *opt, cublasHandle_t blas)
{
    const int N = opt->quick ? 10000 : 100000, M = 100;
    op_ctx o;
    memset(&o, 0, sizeof(o));
    o.blas = blas;
    o.x = dev_floats((size_t)N * M);
    o.y = dev_floats((size_t)M);
    o.z = dev_floats((size_t)N);
    o.a = N;
    o.b = M;
    char what[MC_WHAT], v1[MC_WHAT];
    o.op = OP_MATVEC;
    for (int v = 1; v <= 3; v++) {
        o.c = v;
        snprintf(what, sizeof(what), "matvec v%d, N = %d, M = %d", v, N, M);
        time_case(opt, "lab04", what, run_op, &o);
        if (v == 1)
            snprintf(v1, sizeof(v1), "%s", what);
        else
            add_rank("lab04", what, v1);
    }
    o.op = OP_SGEMV;
    snprintf(what, sizeof(what), "cublasSgemv, N = %d, M = %d", N, M);
    time_case(opt, "lab04", what, run_op, &o);
    LAB_CHECK(cudaFree(o.x));
    LAB_CHECK(cudaFree(o.y));
    LAB_CHECK(cudaFree(o.z));
}

/* Lab 05: the layer kernels at the CNN's first convolution (6 channels of
 * 28 x 28), the loss, Adam on the whole model, and the GEMMs of the first
 * convolution (as im2col x weights) and of the first linear layer. */
static void lab05_cases(const mc_options *opt, cublasHandle_t blas)
{
    const int B = opt->quick ? 16 : 128, C = 6, H = 28, W = 28, classes = 10;
    const int params = 30422; /* the CIFAR-10 CNN of lab 05 (net.h) */
    const size_t act = (size_t)B * C * H * W;
    op_ctx o;
    memset(&o, 0, sizeof(o));
    o.blas = blas;
    o.x = dev_floats(act);
    o.y = dev_floats(act);
    o.z = dev_floats(act);
    o.w = dev_floats(act);
    o.idx = dev_ints(act);
    char what[MC_WHAT];
    o.op = OP_RELU_FWD;
    o.a = (int)act;
    snprintf(what, sizeof(what), "relu_forward, %d x %d x %d x %d", B, C, H, W);
    time_case(opt, "lab05", what, run_op, &o);
    o.op = OP_RELU_BWD;
    snprintf(what, sizeof(what), "relu_backward, %d x %d x %d x %d", B, C, H, W);
    time_case(opt, "lab05", what, run_op, &o);
    o.op = OP_BIAS_ADD;
    o.a = B;
    o.b = C;
    o.c = H * W;
    snprintf(what, sizeof(what), "bias_add, %d x %d x %d x %d", B, C, H, W);
    time_case(opt, "lab05", what, run_op, &o);
    o.op = OP_POOL_FWD;
    o.a = B * C;
    o.b = H;
    o.c = W;
    snprintf(what, sizeof(what), "maxpool_forward, %d x %d x %d x %d", B, C, H, W);
    time_case(opt, "lab05", what, run_op, &o);
    o.op = OP_POOL_BWD;
    snprintf(what, sizeof(what), "maxpool_backward, %d x %d x %d x %d", B, C, H, W);
    time_case(opt, "lab05", what, run_op, &o);
    o.op = OP_SOFTMAX;
    o.a = B;
    o.b = classes;
    snprintf(what, sizeof(what), "softmax_xent, %d x %d", B, classes);
    time_case(opt, "lab05", what, run_op, &o);
    o.op = OP_ADAM;
    o.a = params;
    snprintf(what, sizeof(what), "adam_update, %d parameters", params);
    time_case(opt, "lab05", what, run_op, &o);
    /* conv1 forward: (6, 75) weights x (75, B x 784) columns; fc1: (B, 64) x (64, 120). */
    const int gemms[2][3] = { { C, B * H * W, 3 * 5 * 5 }, { B, 120, 64 } };
    const char *names[2] = { "conv1", "fc1" };
    op_ctx mm;
    memset(&mm, 0, sizeof(mm));
    mm.blas = blas;
    mm.op = OP_SGEMM;
    for (int g = 0; g < 2; g++) {
        mm.a = gemms[g][0];
        mm.b = gemms[g][1];
        mm.c = gemms[g][2];
        mm.x = dev_floats((size_t)mm.a * mm.c); /* A (M, K) */
        mm.y = dev_floats((size_t)mm.c * mm.b); /* B (K, N) */
        mm.z = dev_floats((size_t)mm.a * mm.b); /* C (M, N) */
        snprintf(what, sizeof(what), "cublasSgemm %s, M = %d, N = %d, K = %d", names[g], mm.a, mm.b,
                 mm.c);
        time_case(opt, "lab05", what, run_op, &mm);
        LAB_CHECK(cudaFree(mm.x));
        LAB_CHECK(cudaFree(mm.y));
        LAB_CHECK(cudaFree(mm.z));
    }
    LAB_CHECK(cudaFree(o.x));
    LAB_CHECK(cudaFree(o.y));
    LAB_CHECK(cudaFree(o.z));
    LAB_CHECK(cudaFree(o.w));
    LAB_CHECK(cudaFree(o.idx));
}

/* An empty kernel: what a launch alone costs. */
__global__ void mc_empty_kernel(void) {}

#if MC_SIM
static void run_empty(void *p)
{
    (void)p;
    mc_empty_kernel<<<1, 1>>>();
    LAB_CHECK_LAUNCH();
}

/* The last case, with the amount its published figure counts (rate = amount / time). */
static void set_amount(double amount, const char *unit)
{
    cases[ncases - 1].amount = amount;
    snprintf(cases[ncases - 1].unit, sizeof(cases[ncases - 1].unit), "%s", unit);
}

/* The cases of docs/model-validation.md's comparison with published
 * measurements, at the sizes those measurements used, for the profile the
 * model runs (opt->gpu): bandwidthTest (32 000 000 bytes, pinned; its
 * device-to-device figure counts each byte read and written), nvbandwidth
 * (512 MiB, pinned), p2pBandwidthLatencyTest's copy within one GPU
 * (40 000 000 ints, read and write counted), a cuBLAS SGEMM of 5120 x 4096 x
 * 4096, and an empty kernel. */
void published_cases(const mc_options *opt)
{
    const char *key = opt->gpu ? opt->gpu : "";
    const size_t bw_test = 32000000, nvbw = (size_t)512 << 20, p2p = (size_t)160000000;
    int p = profile_index(key);
    const char *canon = p >= 0 ? profiles[p].key : "";
    int t4 = !strcmp(canon, "t4"), a100 = !strcmp(canon, "a100-40gb"),
        h100 = !strcmp(canon, "h100-sxm");
    size_t most = t4 ? bw_test : a100 ? nvbw : h100 ? nvbw : 0;
    char what[MC_WHAT];
    time_case(opt, key, "empty kernel <<<1, 1>>>", run_empty, NULL);
    if (most > 0) {
        char *h_pin, *d_a, *d_b;
        LAB_CHECK(cudaMallocHost((void **)&h_pin, most));
        LAB_CHECK(cudaMalloc((void **)&d_a, most));
        LAB_CHECK(cudaMalloc((void **)&d_b, most));
        memset(h_pin, 1, most);
        LAB_CHECK(cudaMemset(d_a, 0, most));
        LAB_CHECK(cudaMemset(d_b, 0, most));
        size_t sizes[2] = { t4 || a100 ? bw_test : 0, a100 || h100 ? nvbw : 0 };
        for (int s = 0; s < 2; s++) {
            if (!sizes[s])
                continue;
            copy_ctx h2d = { d_a, h_pin, sizes[s], sizes[s], cudaMemcpyHostToDevice };
            copy_ctx d2h = { h_pin, d_a, sizes[s], sizes[s], cudaMemcpyDeviceToHost };
            snprintf(what, sizeof(what), "cudaMemcpy H2D pinned, %zu bytes", sizes[s]);
            time_case(opt, key, what, run_copy, &h2d);
            set_amount((double)sizes[s], "GB/s");
            snprintf(what, sizeof(what), "cudaMemcpy D2H pinned, %zu bytes", sizes[s]);
            time_case(opt, key, what, run_copy, &d2h);
            set_amount((double)sizes[s], "GB/s");
        }
        if (t4) {
            /* Pageable: no published figure to hold it against (the page says so). */
            char *h_page = (char *)malloc(bw_test);
            if (!h_page) {
                fprintf(stderr, "model-check: out of host memory (%zu bytes)\n", bw_test);
                exit(1);
            }
            memset(h_page, 1, bw_test);
            copy_ctx page = { d_a, h_page, bw_test, bw_test, cudaMemcpyHostToDevice };
            snprintf(what, sizeof(what), "cudaMemcpy H2D pageable, %zu bytes", bw_test);
            time_case(opt, key, what, run_copy, &page);
            set_amount((double)bw_test, "GB/s");
            free(h_page);
        }
        size_t d2d_bytes = h100 ? p2p : bw_test;
        copy_ctx d2d = { d_b, d_a, d2d_bytes, d2d_bytes, cudaMemcpyDeviceToDevice };
        snprintf(what, sizeof(what), "cudaMemcpy D2D, %zu bytes (read + write counted)", d2d_bytes);
        time_case(opt, key, what, run_copy, &d2d);
        set_amount(2.0 * (double)d2d_bytes, "GB/s");
        LAB_CHECK(cudaFree(d_a));
        LAB_CHECK(cudaFree(d_b));
        LAB_CHECK(cudaFreeHost(h_pin));
    }
    if (a100) {
        cublasHandle_t blas;
        LAB_CHECK_CUBLAS(cublasCreate(&blas));
        op_ctx mm;
        memset(&mm, 0, sizeof(mm));
        mm.blas = blas;
        mm.op = OP_SGEMM;
        mm.a = 5120;
        mm.b = 4096;
        mm.c = 4096;
        mm.x = dev_floats((size_t)mm.a * mm.c);
        mm.y = dev_floats((size_t)mm.c * mm.b);
        mm.z = dev_floats((size_t)mm.a * mm.b);
        time_case(opt, key, "cublasSgemm, M = 5120, N = 4096, K = 4096", run_op, &mm);
        set_amount(2.0 * mm.a * mm.b * mm.c, "TFLOP/s");
        LAB_CHECK(cudaFree(mm.x));
        LAB_CHECK(cudaFree(mm.y));
        LAB_CHECK(cudaFree(mm.z));
        LAB_CHECK_CUBLAS(cublasDestroy(blas));
    }
    LAB_CHECK(cudaDeviceSynchronize());
}
#endif

void run_all(const mc_options *opt)
{
    cublasHandle_t blas;
    LAB_CHECK_CUBLAS(cublasCreate(&blas));
    lab02_cases(opt);
    lab03_cases(opt);
    lab04_cases(opt, blas);
    lab05_cases(opt, blas);
    LAB_CHECK_CUBLAS(cublasDestroy(blas));
    LAB_CHECK(cudaDeviceSynchronize());
}
