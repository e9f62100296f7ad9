/*
 * model-check's corpus cases: the operations of the published measurements
 * in docs/model-validation.md's corpus (tools/model-check/corpus.csv), one
 * spec a line, each timed with CUDA events like every other case. The
 * kernels are this project's own, with the work of the programs measured:
 *
 *   copy h2d|d2h|d2d|h2d-pageable|d2h-pageable BYTES
 *       one cudaMemcpy (bandwidthTest, nvbandwidth, p2pBandwidthLatencyTest)
 *   transpose VARIANT N TILE ROWS
 *       an N x N float matrix in TILE x TILE tiles of TILE x ROWS threads,
 *       as the CUDA samples' transpose has them: copy, shared-copy, naive,
 *       coalesced (a TILE x TILE shared tile), optimized (TILE x TILE+1),
 *       coarse-grained (tiles moved, not their elements), fine-grained (the
 *       elements of each tile, not the tiles), diagonal (optimized, blocks
 *       taken along diagonals)
 *   aligned TYPE BYTES
 *       BYTES of elements of TYPE copied by 64 blocks of 256 threads in a
 *       grid-stride loop, as the CUDA samples' alignedTypes does: u8, u16,
 *       rgba8-packed, la32-packed, rgb32-packed, rgba32-packed (structs of
 *       bytes or ints without __align__), rgba8, i32, la32, rgb32, rgba32
 *       (aligned to their size, rgb32 padded to 16), rgba32x2 (32 bytes)
 *
 * Each case is named by its spec; corpus.py turns its time into the figure
 * the published tool prints.
 */
#include "model_check.h"

#include "lab/check.h"
#include "lab/cuda_timer.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TILE 32

typedef struct corpus_copy {
    void *dst;
    const void *src;
    size_t bytes;
    enum cudaMemcpyKind kind;
} corpus_copy;

static void run_corpus_copy(void *p)
{
    corpus_copy *c = (corpus_copy *)p;
    LAB_CHECK(cudaMemcpy(c->dst, c->src, c->bytes, c->kind));
}

enum transpose_variant {
    T_COPY,
    T_SHARED_COPY,
    T_NAIVE,
    T_COALESCED,
    T_OPTIMIZED,
    T_COARSE,
    T_FINE,
    T_DIAGONAL
};

static const char *const transpose_names[] = { "copy",         "shared-copy", "naive",
                                               "coalesced",    "optimized",   "coarse-grained",
                                               "fine-grained", "diagonal" };

/* The tile's block: column blockIdx.x, row blockIdx.y, or taken along
 * diagonals (consecutive blocks spread over the partitions of memory). */
__device__ static void tile_of(int diagonal, int *bx, int *by)
{
    *bx = (int)blockIdx.x;
    *by = (int)blockIdx.y;
    if (diagonal) {
        *by = (int)blockIdx.x;
        *bx = (int)((blockIdx.x + blockIdx.y) % gridDim.x);
    }
}

/* One kernel for every variant: `variant` is uniform, so each launch takes
 * one path. The shared tile is TILE x (TILE + pad) floats of dynamic shared
 * memory; a pad of 0 is the tile whose columns fall in one bank. */
__global__ void corpus_transpose(float *out, const float *in, int n, int tile, int rows,
                                 int variant, int pad)
{
    extern __shared__ float t[];
    int bx, by;
    tile_of(variant == T_DIAGONAL, &bx, &by);
    int pitch = tile + pad;
    int x = bx * tile + (int)threadIdx.x, y = by * tile + (int)threadIdx.y;
    switch (variant) {
    case T_COPY:
        for (int i = 0; i < tile; i += rows)
            out[(y + i) * n + x] = in[(y + i) * n + x];
        return;
    case T_NAIVE:
        for (int i = 0; i < tile; i += rows)
            out[x * n + (y + i)] = in[(y + i) * n + x];
        return;
    default:
        break;
    }
    for (int i = 0; i < tile; i += rows)
        t[((int)threadIdx.y + i) * pitch + (int)threadIdx.x] = in[(y + i) * n + x];
    __syncthreads();
    int ox = x, oy = y;
    if (variant == T_COALESCED || variant == T_OPTIMIZED || variant == T_DIAGONAL ||
        variant == T_COARSE) {
        ox = by * tile + (int)threadIdx.x; /* the tile goes to the mirrored place */
        oy = bx * tile + (int)threadIdx.y;
    }
    for (int i = 0; i < tile; i += rows) {
        int r = (int)threadIdx.y + i, c = (int)threadIdx.x;
        /* Within the tile: read down a column (transposed), or as written. */
        int within =
            variant == T_SHARED_COPY || variant == T_COARSE ? r * pitch + c : c * pitch + r;
        out[(oy + i) * n + ox] = t[within];
    }
}

typedef struct corpus_transpose_ctx {
    float *out;
    const float *in;
    int n, tile, rows, variant;
} corpus_transpose_ctx;

static void run_corpus_transpose(void *p)
{
    corpus_transpose_ctx *c = (corpus_transpose_ctx *)p;
    int pad = c->variant == T_OPTIMIZED || c->variant == T_DIAGONAL || c->variant == T_FINE;
    size_t shared = c->variant == T_COPY || c->variant == T_NAIVE
                        ? 0
                        : (size_t)c->tile * (size_t)(c->tile + pad) * sizeof(float);
    dim3 grid((unsigned)(c->n / c->tile), (unsigned)(c->n / c->tile));
    dim3 block((unsigned)c->tile, (unsigned)c->rows);
    corpus_transpose<<<grid, block, shared>>>(c->out, c->in, c->n, c->tile, c->rows, c->variant,
                                              pad);
    LAB_CHECK_LAUNCH();
}

/* The element types of the aligned case: size and alignment as the sample's. */
struct c_rgba8p {
    unsigned char r, g, b, a;
};
struct c_la32p {
    unsigned int l, a;
};
struct c_rgb32p {
    unsigned int r, g, b;
};
struct c_rgba32p {
    unsigned int r, g, b, a;
};
struct __align__(4) c_rgba8
{
    unsigned char r, g, b, a;
};
struct __align__(8) c_la32
{
    unsigned int l, a;
};
struct __align__(16) c_rgb32
{
    unsigned int r, g, b;
};
struct __align__(16) c_rgba32
{
    unsigned int r, g, b, a;
};
struct __align__(16) c_rgba32x2
{
    c_rgba32 c1, c2;
};

template <class T>
__global__ void corpus_aligned_copy(T *out, const T *in, int n)
{
    int stride = (int)(blockDim.x * gridDim.x);
    for (int pos = (int)(blockIdx.x * blockDim.x + threadIdx.x); pos < n; pos += stride)
        out[pos] = in[pos];
}

typedef struct corpus_aligned_ctx {
    void *out;
    const void *in;
    size_t bytes;
    int type;
} corpus_aligned_ctx;

static const char *const aligned_names[] = { "u8",          "u16",          "rgba8-packed",
                                             "la32-packed", "rgb32-packed", "rgba32-packed",
                                             "rgba8",       "i32",          "la32",
                                             "rgb32",       "rgba32",       "rgba32x2" };

template <class T>
static void launch_aligned(const corpus_aligned_ctx *c)
{
    corpus_aligned_copy<T><<<64, 256>>>((T *)c->out, (const T *)c->in, (int)(c->bytes / sizeof(T)));
}

static void run_corpus_aligned(void *p)
{
    const corpus_aligned_ctx *c = (const corpus_aligned_ctx *)p;
    switch (c->type) {
    case 0:
        launch_aligned<unsigned char>(c);
        break;
    case 1:
        launch_aligned<unsigned short>(c);
        break;
    case 2:
        launch_aligned<c_rgba8p>(c);
        break;
    case 3:
        launch_aligned<c_la32p>(c);
        break;
    case 4:
        launch_aligned<c_rgb32p>(c);
        break;
    case 5:
        launch_aligned<c_rgba32p>(c);
        break;
    case 6:
        launch_aligned<c_rgba8>(c);
        break;
    case 7:
        launch_aligned<unsigned int>(c);
        break;
    case 8:
        launch_aligned<c_la32>(c);
        break;
    case 9:
        launch_aligned<c_rgb32>(c);
        break;
    case 10:
        launch_aligned<c_rgba32>(c);
        break;
    default:
        launch_aligned<c_rgba32x2>(c);
        break;
    }
    LAB_CHECK_LAUNCH();
}

static void record_case(const mc_options *opt, const char *spec, void (*fn)(void *), void *ctx)
{
    lab_time_stats st;
    lab_error err;
    LAB_CHECK_STATUS(lab_cuda_time_repeat(&st, fn, ctx, opt->warmup, opt->reps, 0, &err), &err);
    if (ncases >= MC_MAX_CASES) {
        fprintf(stderr, "model-check: more than %d corpus cases\n", MC_MAX_CASES);
        exit(2);
    }
    mc_case *c = &cases[ncases++];
    snprintf(c->lab, sizeof(c->lab), "corpus");
    snprintf(c->what, sizeof(c->what), "%s", spec);
    c->us[0] = st.median * 1e6;
}

/* One spec; 0, or -1 when it is not one (after saying why). */
static int corpus_case(const mc_options *opt, const char *spec)
{
    char kind[32], variant[32];
    unsigned long long bytes;
    int n, tile, rows;
    if (sscanf(spec, "copy %31s %llu", kind, &bytes) == 2 && bytes > 0) {
        struct {
            const char *name;
            enum cudaMemcpyKind kind;
            int pinned;
        } kinds[] = { { "h2d", cudaMemcpyHostToDevice, 1 },
                      { "d2h", cudaMemcpyDeviceToHost, 1 },
                      { "d2d", cudaMemcpyDeviceToDevice, 1 },
                      { "h2d-pageable", cudaMemcpyHostToDevice, 0 },
                      { "d2h-pageable", cudaMemcpyDeviceToHost, 0 } };
        for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
            if (strcmp(kind, kinds[k].name) != 0)
                continue;
            void *host = NULL, *a = NULL, *b = NULL;
            if (kinds[k].pinned)
                LAB_CHECK(cudaMallocHost(&host, (size_t)bytes));
            else if (!(host = malloc((size_t)bytes))) {
                fprintf(stderr, "model-check: out of host memory (%llu bytes)\n", bytes);
                return -1;
            }
            memset(host, 1, (size_t)bytes);
            LAB_CHECK(cudaMalloc(&a, (size_t)bytes));
            LAB_CHECK(cudaMemset(a, 0, (size_t)bytes));
            corpus_copy c = { a, host, (size_t)bytes, kinds[k].kind };
            if (kinds[k].kind == cudaMemcpyDeviceToHost) {
                c.dst = host;
                c.src = a;
            } else if (kinds[k].kind == cudaMemcpyDeviceToDevice) {
                LAB_CHECK(cudaMalloc(&b, (size_t)bytes));
                c.dst = b;
                c.src = a;
            }
            record_case(opt, spec, run_corpus_copy, &c);
            LAB_CHECK(cudaFree(a));
            if (b)
                LAB_CHECK(cudaFree(b));
            if (kinds[k].pinned)
                LAB_CHECK(cudaFreeHost(host));
            else
                free(host);
            return 0;
        }
    } else if (sscanf(spec, "transpose %31s %d %d %d", variant, &n, &tile, &rows) == 4 &&
               tile > 0 && tile <= MAX_TILE && rows > 0 && tile % rows == 0 &&
               tile * rows <= 1024 && n > 0 && n % tile == 0 && n <= 16384) {
        for (int v = 0; v < (int)(sizeof(transpose_names) / sizeof(transpose_names[0])); v++) {
            if (strcmp(variant, transpose_names[v]) != 0)
                continue;
            size_t bytes_m = (size_t)n * (size_t)n * sizeof(float);
            float *in, *out;
            LAB_CHECK(cudaMalloc((void **)&in, bytes_m));
            LAB_CHECK(cudaMalloc((void **)&out, bytes_m));
            LAB_CHECK(cudaMemset(in, 0, bytes_m));
            corpus_transpose_ctx c = { out, in, n, tile, rows, v };
            record_case(opt, spec, run_corpus_transpose, &c);
            LAB_CHECK(cudaFree(in));
            LAB_CHECK(cudaFree(out));
            return 0;
        }
    } else if (sscanf(spec, "aligned %31s %llu", kind, &bytes) == 2 && bytes >= 256 &&
               bytes <= ((unsigned long long)1 << 30)) {
        for (int t = 0; t < (int)(sizeof(aligned_names) / sizeof(aligned_names[0])); t++) {
            if (strcmp(kind, aligned_names[t]) != 0)
                continue;
            void *in, *out;
            LAB_CHECK(cudaMalloc(&in, (size_t)bytes));
            LAB_CHECK(cudaMalloc(&out, (size_t)bytes));
            LAB_CHECK(cudaMemset(in, 0, (size_t)bytes));
            corpus_aligned_ctx c = { out, in, (size_t)bytes, t };
            record_case(opt, spec, run_corpus_aligned, &c);
            LAB_CHECK(cudaFree(in));
            LAB_CHECK(cudaFree(out));
            return 0;
        }
    }
    fprintf(stderr,
            "model-check: corpus case \"%s\" is not one (see tools/model-check/corpus.cu)\n", spec);
    return -1;
}

int corpus_cases(const mc_options *opt, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "model-check: --corpus %s: cannot read it\n", path);
        return -1;
    }
    char line[256];
    int rc = 0;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        if (corpus_case(opt, line) != 0) {
            rc = -1;
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    return rc;
}
