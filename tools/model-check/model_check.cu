/*
 * model-check: the performance model (docs/model.md) against a GPU.
 *
 * It runs every lab kernel (the solutions' own: lab 03's vector adds, lab
 * 04's mat-vec versions, lab 05's layer kernels), lab 02's copies and the
 * cuBLAS calls of labs 04 and 05, each timed with CUDA events (warm-up, then
 * several runs, the median), and checks the rankings the lab lessons teach
 * (pinned beats pageable, one copy beats many pieces, v2 and v3 beat v1).
 *
 *   cuda backend  measures each on the GPU it finds, matches the device's name
 *                 to a profile of the model (--gpu to choose one), runs the
 *                 sim build (model-check-sim, beside this program) on that
 *                 profile for the modeled times, and prints measured, modeled
 *                 and their ratio; --out writes the table as Markdown.
 *   sim backend   reports the model alone: it runs itself once per profile
 *                 with GPULAB_SIM_MODEL set (the events then read the modeled
 *                 clock), one column per GPU.
 *
 * One source for both backends, built as model-check-cuda and model-check-sim
 * (tools/model-check/CMakeLists.txt). `make model-check` runs the GPU
 * comparison and writes docs/model-validation-<profile>.md. docs/model-validation.md
 * explains it.
 */
#include "kernels.h" /* lab 03 */
#include "matvec.h"  /* lab 04 */
#include "student.h" /* lab 05 */

#include "lab/check.h"
#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab/timer.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ; /* POSIX: the environment the sim build is started with */

/* MC_SIM: the sim build's code (the model alone). MC_GPU_PATH_ON_SIM builds
 * the GPU's code on the simulator instead, for its test (CMakeLists.txt). */
#if defined(GPULAB_BACKEND_SIM) && GPULAB_BACKEND_SIM && !defined(MC_GPU_PATH_ON_SIM)
#define MC_SIM 1
#else
#define MC_SIM 0
#endif

#define MC_MAX_CASES 64
#define MC_MAX_PROFILES 8
#define MC_WHAT 80

/* The model's profiles (common/sim/runtime/model.cpp), and the names the CUDA
 * runtime gives the same boards (cudaDeviceProp.name). Only the exact board
 * of a profile matches: an A100 80GB, an H100 PCIe or an RTX 3060 Ti has
 * other clocks or bandwidth, and --gpu compares against a profile anyway. */
typedef struct mc_profile {
    const char *key;
    const char *names[3];
} mc_profile;

static const mc_profile profiles[] = {
    { "gtx1650", { "NVIDIA GeForce GTX 1650", NULL, NULL } },
    { "t4", { "Tesla T4", "NVIDIA T4", NULL } },
    { "rtx3060", { "NVIDIA GeForce RTX 3060", NULL, NULL } },
    { "rtx4090", { "NVIDIA GeForce RTX 4090", NULL, NULL } },
    { "a100", { "NVIDIA A100-SXM4-40GB", NULL, NULL } },
    { "h100", { "NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5", NULL } },
    { "h200", { "NVIDIA H200", NULL, NULL } },
};
#define MC_PROFILES ((int)(sizeof(profiles) / sizeof(profiles[0])))

/* One timed case: what the tables show, and its time in microseconds (one
 * column per profile on sim; measured and modeled on cuda). */
typedef struct mc_case {
    char lab[8];
    char what[MC_WHAT];
    double us[MC_MAX_PROFILES];
    double amount; /* --published: bytes or flops as the published figure counts them */
    char unit[8];  /* ... and the unit of its rate, "GB/s" or "TFLOP/s" ("" for none) */
} mc_case;

/* A lesson's ranking: `faster` must take less time than `slower`. */
typedef struct mc_rank {
    char lab[8];
    char faster[MC_WHAT], slower[MC_WHAT];
} mc_rank;

typedef struct mc_options {
    int quick;        /* small sizes (the tests) */
    int tsv;          /* internal: print the cases as lines for the caller to read */
    int published;    /* sim: the cases of the published comparisons (docs/model-validation.md) */
    int reps, warmup; /* timed runs and warm-up runs of each case */
    const char *gpu;  /* a profile key, "all" (sim) or NULL (cuda: match the device) */
    const char *out;  /* Markdown file or folder, or NULL */
    const char *sim;  /* the sim program (cuda), or NULL: model-check-sim beside this one */
    char out_path[PATH_MAX];
} mc_options;

static mc_case cases[MC_MAX_CASES];
static int ncases;
static mc_rank ranks[16];
static int nranks;

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--quick] [--gpu PROFILE] [--out FILE|DIR] [--reps N] [--sim PROGRAM]\n"
            "       %s --published [--gpu PROFILE]\n"
            "  Times every lab kernel, copy and cuBLAS call with CUDA events and compares\n"
            "  them with the performance model (docs/model-validation.md).\n"
            "  --quick       small sizes (seconds on the simulator)\n"
            "  --gpu P       cuda: compare with profile P instead of the one matching the\n"
            "                device; sim: model P only (default: every profile)\n"
            "  --out F       also write the table as Markdown to F; a folder gets\n"
            "                model-validation-<profile>.md (cuda) or model-validation-sim.md\n"
            "  --reps N      timed runs per case on a GPU (default 10, after 2 warm-up runs)\n"
            "  --sim P       cuda: the sim build to read modeled times from\n"
            "                (default: model-check-sim beside this program)\n"
            "  --published   sim: the modeled side of the comparisons with published\n"
            "                measurements in docs/model-validation.md\n"
            "  profiles:",
            argv0, argv0);
    for (int p = 0; p < MC_PROFILES; p++)
        fprintf(f, " %s", profiles[p].key);
    fprintf(f, "\n");
}

static int profile_index(const char *key)
{
    for (int p = 0; p < MC_PROFILES; p++)
        if (strcmp(profiles[p].key, key) == 0)
            return p;
    return -1;
}

#if !MC_SIM
static int profile_of_device(const char *name)
{
    for (int p = 0; p < MC_PROFILES; p++)
        for (int i = 0; i < 3 && profiles[p].names[i]; i++)
            if (strcmp(profiles[p].names[i], name) == 0)
                return p;
    return -1;
}
#endif

static void format_bytes(char *buf, size_t len, size_t bytes)
{
    if (bytes >= ((size_t)1 << 20))
        snprintf(buf, len, "%zu MiB", bytes >> 20);
    else
        snprintf(buf, len, "%zu KiB", bytes >> 10);
}

static int case_index(const char *lab, const char *what)
{
    for (int i = 0; i < ncases; i++)
        if (strcmp(cases[i].lab, lab) == 0 && strcmp(cases[i].what, what) == 0)
            return i;
    return -1;
}

static void add_rank(const char *lab, const char *faster, const char *slower)
{
    if (nranks >= (int)(sizeof(ranks) / sizeof(ranks[0])))
        return;
    mc_rank *r = &ranks[nranks++];
    snprintf(r->lab, sizeof(r->lab), "%s", lab);
    snprintf(r->faster, sizeof(r->faster), "%s", faster);
    snprintf(r->slower, sizeof(r->slower), "%s", slower);
}

/* ---------------------------------------------------------------------------
 * The cases
 */

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
    lab_stats st;
    LAB_CHECK(lab_cuda_time_repeat(&st, fn, ctx, opt->warmup, opt->reps, 0));
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

/* Lab 04: u = A v, the three versions and cuBLAS, at the seed's shape. */
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
static void published_cases(const mc_options *opt)
{
    const char *key = opt->gpu ? opt->gpu : "";
    const size_t bw_test = 32000000, nvbw = (size_t)512 << 20, p2p = (size_t)160000000;
    int t4 = !strcmp(key, "t4"), a100 = !strcmp(key, "a100"), h100 = !strcmp(key, "h100");
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

static void run_all(const mc_options *opt)
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

/* ---------------------------------------------------------------------------
 * The modeled times: the sim build, run once per profile
 */

/* Runs `program --tsv [--quick | --published --gpu key]` with
 * GPULAB_SIM_MODEL=key and stores the times it prints in column col of the
 * cases (adding cases when add is set). Returns 0, or -1 after saying why. */
static int read_model(const char *program, const char *key, const mc_options *opt, int col, int add)
{
    int fd[2];
    if (pipe(fd) != 0) {
        fprintf(stderr, "model-check: pipe: %s\n", strerror(errno));
        return -1;
    }
    /* Everything the child needs is built here: after fork() in a program
     * with threads (the CUDA runtime's) only exec and async-signal-safe calls
     * are safe. The environment: ours, less the simulator's tool settings,
     * with GPULAB_SIM_MODEL set to the profile. */
    char *argv[] = { (char *)program,
                     (char *)"--tsv",
                     opt->published ? (char *)"--published"
                     : opt->quick   ? (char *)"--quick"
                                    : NULL,
                     (char *)"--gpu",
                     (char *)key,
                     NULL };
    if (!opt->published && !opt->quick) /* no flag: --gpu key moves up */
        argv[2] = argv[3], argv[3] = argv[4], argv[4] = NULL;
    size_t n = 0;
    while (environ[n])
        n++;
    char **envp = (char **)calloc(n + 2, sizeof(char *));
    char model[64];
    snprintf(model, sizeof(model), "GPULAB_SIM_MODEL=%s", key);
    if (!envp) {
        fprintf(stderr, "model-check: out of memory\n");
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "GPULAB_SIM_MODEL", 16) != 0 &&
            strncmp(environ[i], "GPULAB_SIM_CHECK=", 17) != 0 &&
            strncmp(environ[i], "GPULAB_SIM_STATS=", 17) != 0)
            envp[m++] = environ[i];
    envp[m++] = model;
    envp[m] = NULL;
    static const char exec_failed[] = "model-check: cannot run the sim build (execve failed)\n";
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "model-check: fork: %s\n", strerror(errno));
        free(envp);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execve(program, argv, envp);
        ssize_t w = write(2, exec_failed, sizeof(exec_failed) - 1);
        (void)w;
        _exit(127);
    }
    free(envp);
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    char line[512];
    int rows = 0, bad = 0;
    while (f && fgets(line, sizeof(line), f)) {
        char *type = strtok(line, "\t\n");
        char *lab = strtok(NULL, "\t\n");
        char *what = strtok(NULL, "\t\n");
        char *us = strtok(NULL, "\t\n");
        char *amount = strtok(NULL, "\t\n");
        char *unit = strtok(NULL, "\t\n");
        if (!type || !lab || !what || !us)
            continue;
        if (strcmp(type, "rank") == 0) {
            if (add)
                add_rank(lab, what, us); /* faster, slower */
            continue;
        }
        if (strcmp(type, "case") != 0)
            continue;
        int i = case_index(lab, what);
        if (i < 0 && add && ncases < MC_MAX_CASES) {
            i = ncases++;
            snprintf(cases[i].lab, sizeof(cases[i].lab), "%s", lab);
            snprintf(cases[i].what, sizeof(cases[i].what), "%s", what);
        }
        if (i < 0) {
            fprintf(stderr, "model-check: %s printed a case this program does not run: %s %s\n",
                    program, lab, what);
            bad = 1;
            continue;
        }
        cases[i].us[col] = strtod(us, NULL);
        if (amount && unit && strcmp(unit, "-") != 0) {
            cases[i].amount = strtod(amount, NULL);
            snprintf(cases[i].unit, sizeof(cases[i].unit), "%s", unit);
        }
        rows++;
    }
    if (f)
        fclose(f);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || rows == 0 || bad) {
        fprintf(stderr, "model-check: the model run of %s for %s failed (exit %d, %d rows)\n",
                program, key, WIFEXITED(status) ? WEXITSTATUS(status) : -1, rows);
        return -1;
    }
    return 0;
}

static void self_path(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
}

/* ---------------------------------------------------------------------------
 * Rankings and tables
 */

/* Whether every ranking holds in column col; prints each when print is set. */
static int ranks_hold(int col, const char *label, int print)
{
    int all = 1;
    for (int r = 0; r < nranks; r++) {
        int f = case_index(ranks[r].lab, ranks[r].faster);
        int s = case_index(ranks[r].lab, ranks[r].slower);
        int holds = f >= 0 && s >= 0 && cases[f].us[col] < cases[s].us[col];
        all &= holds;
        if (print)
            printf("  %-5s %s < %s: %s (%s)\n", ranks[r].lab, ranks[r].faster, ranks[r].slower,
                   holds ? "holds" : "DOES NOT HOLD", label);
    }
    return all;
}

static FILE *open_out(const mc_options *opt)
{
    if (!opt->out)
        return NULL;
    FILE *f = fopen(opt->out_path, "w");
    if (!f)
        fprintf(stderr, "model-check: cannot write %s: %s\n", opt->out_path, strerror(errno));
    return f;
}

/* Resolves --out (a folder gets a file named after stem) and finds out now,
 * before any work, whether it can be written. */
static int settle_out(mc_options *opt, const char *stem)
{
    if (!opt->out)
        return 0;
    struct stat st;
    if (stat(opt->out, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(opt->out_path, sizeof(opt->out_path), "%s/model-validation-%s.md", opt->out, stem);
    else
        snprintf(opt->out_path, sizeof(opt->out_path), "%s", opt->out);
    FILE *f = fopen(opt->out_path, "a");
    if (!f) {
        fprintf(stderr,
                "model-check: --out %s: cannot write %s: %s (give a file in a folder that "
                "exists and you may write to)\n",
                opt->out, opt->out_path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}

static void today(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%d", &tm);
}

#if MC_SIM
/* --published: the modeled side of the comparisons with published
 * measurements, one child per profile, each with its own rows. */
static int report_published(mc_options *opt, const int *cols, int ncols)
{
    char self[PATH_MAX];
    self_path(self, sizeof(self));
    for (int c = 0; c < ncols; c++)
        if (read_model(self, profiles[cols[c]].key, opt, 0, 1) != 0)
            return 1;
    printf("model-check --published: the cases of the comparison with published measurements\n"
           "(docs/model-validation.md) at the sizes they used, timed with CUDA events on the\n"
           "simulator with the performance model on: modeled, never measured.\n\n");
    printf("%-8s %-52s %12s %16s\n", "profile", "what", "modeled us", "modeled rate");
    for (int i = 0; i < ncases; i++) {
        printf("%-8s %-52s %12.2f", cases[i].lab, cases[i].what, cases[i].us[0]);
        if (cases[i].unit[0] && cases[i].us[0] > 0) {
            double scale = strcmp(cases[i].unit, "TFLOP/s") == 0 ? 1e6 : 1e3;
            printf(" %8.2f %-7s", cases[i].amount / cases[i].us[0] / scale, cases[i].unit);
        }
        printf("\n");
    }
    return 0;
}

/* The sim backend: the model alone, a column per profile. */
static int report_sim(mc_options *opt, const int *cols, int ncols)
{
    char self[PATH_MAX];
    self_path(self, sizeof(self));
    for (int c = 0; c < ncols; c++)
        if (read_model(self, profiles[cols[c]].key, opt, c, c == 0) != 0)
            return 1;
    printf("model-check: every lab kernel, copy and cuBLAS call, timed with CUDA events on the\n"
           "simulator with the performance model on: each figure is the modeled time in us\n"
           "(median of one run; the model is deterministic), never a measurement.\n\n");
    printf("%-5s  %-52s", "lab", "what");
    for (int c = 0; c < ncols; c++)
        printf(" %10s", profiles[cols[c]].key);
    printf("\n%-5s  %-52s", "", "");
    for (int c = 0; c < ncols; c++)
        printf(" %10s", "modeled us");
    printf("\n");
    for (int i = 0; i < ncases; i++) {
        printf("%-5s  %-52s", cases[i].lab, cases[i].what);
        for (int c = 0; c < ncols; c++)
            printf(" %10.2f", cases[i].us[c]);
        printf("\n");
    }
    printf("\nThe lessons' rankings, on the model of each GPU:\n");
    int all = 1;
    for (int c = 0; c < ncols; c++) {
        char label[64];
        snprintf(label, sizeof(label), "modeled %s", profiles[cols[c]].key);
        all &= ranks_hold(c, label, 1);
    }
    printf("%s\n", all ? "Every ranking holds on every modeled GPU."
                       : "model-check: some rankings do not hold (above).");
    FILE *f = open_out(opt);
    if (opt->out && !f)
        return 1;
    if (f) {
        char date[16];
        today(date, sizeof(date));
        fprintf(f, "# Modeled times of the lab cases (no GPU)\n\n");
        fprintf(f,
                "Written by `model-check-sim%s` on %s: each figure is the performance "
                "model's time in microseconds for the GPU of its column (CUDA events on the "
                "simulator with `GPULAB_SIM_MODEL` set), not a measurement. "
                "docs/model-validation.md explains the cases.\n\n",
                opt->quick ? " --quick" : "", date);
        fprintf(f, "| lab | what |");
        for (int c = 0; c < ncols; c++)
            fprintf(f, " modeled %s, us |", profiles[cols[c]].key);
        fprintf(f, "\n|---|---|");
        for (int c = 0; c < ncols; c++)
            fprintf(f, "---:|");
        fprintf(f, "\n");
        for (int i = 0; i < ncases; i++) {
            fprintf(f, "| %s | %s |", cases[i].lab, cases[i].what);
            for (int c = 0; c < ncols; c++)
                fprintf(f, " %.2f |", cases[i].us[c]);
            fprintf(f, "\n");
        }
        fprintf(f, "\nRankings of the lessons: %s.\n",
                all ? "every one holds on every modeled GPU" : "some do not hold");
        if (fclose(f) != 0) {
            fprintf(stderr, "model-check: writing %s failed\n", opt->out_path);
            return 1;
        }
        printf("Table written to %s\n", opt->out_path);
    }
    return all ? 0 : 1;
}

#else
/* The cuda backend: measured (column 0) against modeled (column 1). */
static int report_cuda(mc_options *opt, const char *device, int prof)
{
    run_all(opt);
    int have_model = prof >= 0;
    if (have_model) {
        char sim[PATH_MAX + 32];
        if (opt->sim) {
            snprintf(sim, sizeof(sim), "%s", opt->sim);
        } else {
            char self[PATH_MAX];
            self_path(self, sizeof(self));
            char *slash = strrchr(self, '/');
            if (slash)
                *slash = '\0';
            snprintf(sim, sizeof(sim), "%s/model-check-sim", self);
        }
        if (access(sim, X_OK) != 0) {
            fprintf(stderr,
                    "model-check: no modeled times: %s is not there (%s); build it with "
                    "`cmake --build build --target model-check-sim` or give --sim PROGRAM\n",
                    sim, strerror(errno));
            have_model = 0;
        } else if (read_model(sim, profiles[prof].key, opt, 1, 0) != 0) {
            have_model = 0;
        }
    }
    /* "CUDA events" on a GPU; the GPU path's test build on the simulator says
     * what its events read instead ("modeled NVIDIA T4"). */
    const char *clock = lab_cuda_timer_clock_name();
    printf("model-check on %s: each case timed with %s (median of %d runs after %d "
           "warm-up)%s%s\n\n",
           device, clock, opt->reps, opt->warmup, have_model ? ", against the model of " : "",
           have_model ? profiles[prof].key : "");
    printf("%-5s  %-52s %12s %12s %9s\n", "lab", "what", "measured us", "modeled us", "mod/meas");
    int within = 0;
    for (int i = 0; i < ncases; i++) {
        printf("%-5s  %-52s %12.2f", cases[i].lab, cases[i].what, cases[i].us[0]);
        if (have_model) {
            double ratio = cases[i].us[1] / cases[i].us[0];
            int ok = ratio <= 1.5 && ratio >= 1 / 1.5;
            within += ok;
            printf(" %12.2f %8.2fx%s", cases[i].us[1], ratio, ok ? "" : " !");
        }
        printf("\n");
    }
    printf("\n(measured: %s on %s; modeled: the performance model of profile %s)\n", clock, device,
           have_model ? profiles[prof].key : "(none)");
    printf("\nThe lessons' rankings:\n");
    int measured_ok = ranks_hold(0, "measured", 1);
    int modeled_ok = have_model ? ranks_hold(1, "modeled", 1) : 0;
    /* The model must rank each pair as the GPU does. */
    int agree = have_model;
    for (int r = 0; r < nranks && have_model; r++) {
        int a = case_index(ranks[r].lab, ranks[r].faster);
        int b = case_index(ranks[r].lab, ranks[r].slower);
        agree &= (cases[a].us[0] < cases[b].us[0]) == (cases[a].us[1] < cases[b].us[1]);
    }
    if (have_model)
        printf("%d of %d cases modeled within 1.5x of measured; rankings %s on the GPU, %s on "
               "the model: the model ranks %s\n",
               within, ncases, measured_ok ? "hold" : "do not all hold",
               modeled_ok ? "hold" : "do not all hold",
               agree ? "every pair as the GPU does" : "some pairs unlike the GPU");
    FILE *f = open_out(opt);
    if (opt->out && !f)
        return 1;
    if (f) {
        char date[16];
        int rt = 0, drv = 0;
        cudaRuntimeGetVersion(&rt);
        cudaDriverGetVersion(&drv);
        today(date, sizeof(date));
        fprintf(f, "# Model validation: %s\n\n", device);
        fprintf(f,
                "Measured on %s on %s with `model-check-cuda%s` (CUDA runtime %d.%d, driver "
                "%d.%d): each case timed with %s, median of %d runs after %d warm-up; "
                "modeled: the performance model's profile `%s`. docs/model-validation.md "
                "explains the cases.\n\n",
                device, date, opt->quick ? " --quick" : "", rt / 1000, rt % 1000 / 10, drv / 1000,
                drv % 1000 / 10, clock, opt->reps, opt->warmup,
                have_model ? profiles[prof].key : "(none)");
        fprintf(f,
                "| lab | what | measured (%s), us | modeled, us | modeled / measured |\n"
                "|---|---|---:|---:|---:|\n",
                clock);
        for (int i = 0; i < ncases; i++) {
            fprintf(f, "| %s | %s | %.2f |", cases[i].lab, cases[i].what, cases[i].us[0]);
            if (have_model)
                fprintf(f, " %.2f | %.2f |\n", cases[i].us[1], cases[i].us[1] / cases[i].us[0]);
            else
                fprintf(f, " - | - |\n");
        }
        fprintf(f, "\n| lab | ranking | measured | modeled |\n|---|---|---|---|\n");
        for (int r = 0; r < nranks; r++) {
            int a = case_index(ranks[r].lab, ranks[r].faster);
            int b = case_index(ranks[r].lab, ranks[r].slower);
            fprintf(f, "| %s | %s faster than %s | %s | %s |\n", ranks[r].lab, ranks[r].faster,
                    ranks[r].slower, cases[a].us[0] < cases[b].us[0] ? "holds" : "does not hold",
                    !have_model                       ? "-"
                    : cases[a].us[1] < cases[b].us[1] ? "holds"
                                                      : "does not hold");
        }
        if (have_model)
            fprintf(f, "\n%d of %d cases modeled within 1.5x of measured.\n", within, ncases);
        if (fclose(f) != 0) {
            fprintf(stderr, "model-check: writing %s failed\n", opt->out_path);
            return 1;
        }
        printf("Table written to %s\n", opt->out_path);
    }
    return agree ? 0 : 1;
}

#endif

int main(int argc, char **argv)
{
    mc_options opt;
    memset(&opt, 0, sizeof(opt));
    opt.reps = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "--quick") == 0) {
            opt.quick = 1;
        } else if (strcmp(a, "--tsv") == 0) {
            opt.tsv = 1;
        } else if (strcmp(a, "--published") == 0) {
            opt.published = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, argv[0]);
            return 0;
        } else if (has_value && strcmp(a, "--gpu") == 0) {
            opt.gpu = argv[++i];
        } else if (has_value && strcmp(a, "--out") == 0) {
            opt.out = argv[++i];
        } else if (has_value && strcmp(a, "--sim") == 0) {
            opt.sim = argv[++i];
        } else if (has_value && strcmp(a, "--reps") == 0) {
            char *end;
            long r = strtol(argv[++i], &end, 10);
            if (*end || r < 1 || r > 1000) {
                fprintf(stderr, "model-check: --reps %s: give a whole number from 1 to 1000\n",
                        argv[i]);
                return 2;
            }
            opt.reps = (int)r;
        } else {
            fprintf(stderr, "model-check: %s: %s\n", a,
                    a[0] == '-' && !has_value ? "unknown option, or its value is missing"
                                              : "unknown argument");
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (opt.gpu && strcmp(opt.gpu, "all") != 0 && profile_index(opt.gpu) < 0) {
        fprintf(stderr, "model-check: --gpu %s: no such profile; the profiles are", opt.gpu);
        for (int p = 0; p < MC_PROFILES; p++)
            fprintf(stderr, " %s", profiles[p].key);
        fprintf(stderr, "%s\n", MC_SIM ? " (or all)" : "");
        return 2;
    }
#if MC_SIM
    if (opt.tsv) {
        /* One profile, chosen by GPULAB_SIM_MODEL: the lines the caller reads. */
        if (!lab_cuda_timer_modeled_gpu()) {
            fprintf(stderr, "model-check: --tsv needs the performance model on "
                            "(GPULAB_SIM_MODEL=<profile>)\n");
            return 2;
        }
        opt.reps = 1;
        opt.warmup = 0;
        if (opt.published)
            published_cases(&opt);
        else
            run_all(&opt);
        for (int i = 0; i < ncases; i++)
            printf("case\t%s\t%s\t%.4f\t%.0f\t%s\n", cases[i].lab, cases[i].what, cases[i].us[0],
                   cases[i].amount, cases[i].unit[0] ? cases[i].unit : "-");
        for (int r = 0; r < nranks; r++)
            printf("rank\t%s\t%s\t%s\n", ranks[r].lab, ranks[r].faster, ranks[r].slower);
        return 0;
    }
    int cols[MC_MAX_PROFILES], ncols = 0;
    if (!opt.gpu || strcmp(opt.gpu, "all") == 0)
        for (int p = 0; p < MC_PROFILES; p++)
            cols[ncols++] = p;
    else
        cols[ncols++] = profile_index(opt.gpu);
    if (opt.reps > 0)
        fprintf(stderr, "model-check: --reps is for a GPU; the model needs one run\n");
    if (opt.published) {
        if (opt.out) {
            fprintf(stderr, "model-check: --published prints its table; it writes no --out\n");
            return 2;
        }
        return report_published(&opt, cols, ncols);
    }
    if (settle_out(&opt, ncols == 1 ? profiles[cols[0]].key : "sim") != 0)
        return 2;
    /* The cases and the rankings come from the runs (read_model): this process
     * runs no device work itself. */
    return report_sim(&opt, cols, ncols);
#else
    if (opt.tsv || opt.published) {
        fprintf(stderr, "model-check: %s is the sim build's (model-check-sim)\n",
                opt.tsv ? "--tsv" : "--published");
        return 2;
    }
    if (opt.gpu && strcmp(opt.gpu, "all") == 0) {
        fprintf(stderr, "model-check: --gpu all is the sim build's; on a GPU give one profile\n");
        return 2;
    }
    if (opt.reps < 0)
        opt.reps = 10;
    opt.warmup = 2;
    lab_exit_if_no_gpu("model-check");
    struct cudaDeviceProp prop;
    int dev = 0;
    LAB_CHECK(cudaGetDevice(&dev));
    LAB_CHECK(cudaGetDeviceProperties(&prop, dev));
    int prof = opt.gpu ? profile_index(opt.gpu) : profile_of_device(prop.name);
    if (prof < 0)
        fprintf(stderr,
                "model-check: the model has no profile for \"%s\"; measuring only (compare "
                "with a profile anyway with --gpu PROFILE)\n",
                prop.name);
    if (settle_out(&opt, prof >= 0 ? profiles[prof].key : "unknown-gpu") != 0)
        return 2;
    return report_cuda(&opt, prop.name, prof);
#endif
}
