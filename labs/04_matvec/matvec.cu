/*
 * Mat-vec on the GPU: u = A v, with A (N, M) row-major, v (M), u (N).
 *
 * Three kernel versions, chosen by number (matvec(version, ...)):
 *
 * The CPU loop every version ports (the harness checks them against
 * cblas_sgemv, which computes the same):
 *
 *   for (int row = 0; row < N; row++) {
 *       float sum = 0.0f;
 *       for (int j = 0; j < M; j++)
 *           sum += A[(size_t)row * M + j] * v[j];
 *       u[row] = sum;
 *   }
 *
 * version 1 is the direct one: one thread per row, each loops over its row.
 *           Neighbouring threads read addresses M floats apart: uncoalesced.
 * version 2 is coalesced: one warp per row. Lane l reads elements l, l+32, ...
 *           of the row, so a warp's load is 32 neighbouring floats, and a
 *           shuffle reduction adds the 32 partial sums.
 * version 3 keeps version 2's layout and stages v in shared memory, one tile
 *           of MATVEC3_THREADS floats at a time, loaded once per block instead
 *           of once per warp; two barriers per tile.
 *
 * Build and run (from the repository root; the sim backend needs no GPU):
 *   cmake --build build --target lab04
 *   build/bin/lab04-sim-student            # demo: validate, then time every version
 *   GPULAB_SIM_CHECK=all build/bin/lab04-sim-student --validate
 *                                          # out-of-bounds, races, barriers, quickly
 *
 * The harness (main.c) owns the CPU reference (cblas_sgemv), the cuBLAS
 * reference (cublasSgemv), the timing and the table. This file holds the
 * kernels, their launchers, and the dispatch by version.
 */
#include "matvec.h"

#include "lab/check.h"
#include "lab/todo.h"

#include <assert.h>

#define WARP_SIZE 32
#define MATVEC1_THREADS 1024 /* the largest block: 1024 threads, N = 100000 -> 98 blocks */
#define MATVEC2_THREADS 256  /* 8 warps, so 8 rows per block */
#define MATVEC3_THREADS 256  /* 8 warps per block, and the width of one tile of v */

static int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

/* ---------------------------------------------------------------------------
 * GPU kernels
 */

// version 1: one thread per row. Thread `row` walks along row `row` of A.
__global__ void matvec_kernel1(float *u, const float *A, const float *v, int N, int M)
{
    // TODO 1 (version 1, one thread per row): row `row` of u is the dot product
    // of row `row` of A with v; threads past the last row do nothing. Hint: a
    // float accumulator, and (size_t)row * M to index A, so a big matrix does
    // not overflow int. About 6 lines.
    LAB_TODO_UNUSED(u, A, v, N, M);
}

// Sum of `x` over the 32 lanes of a warp; every lane must take part.
__device__ float warp_sum(float x)
{
    // TODO 2: add the warp's 32 values of x so that lane 0 ends with their
    // total, in five steps of __shfl_down_sync (every lane takes part: mask
    // 0xffffffffu), the offset halving each time. About 3 lines.
    return x;
}

// version 2: one warp per row. Lane `lane` of warp `row` adds A[row, j] v[j]
// for j = lane, lane + 32, ...: at each step the warp reads 32 neighbouring
// floats of the row (one 128-byte stretch: 4 sectors, 5 when it straddles one).
__global__ void matvec_kernel2(float *u, const float *A, const float *v, int N, int M)
{
    // TODO 3 (version 2, one warp per row): the 32 lanes of a warp share one
    // row, each summing every 32nd product of it, so that at each step the
    // warp reads 32 consecutive floats of A (one coalesced load); warp_sum()
    // adds the partial sums and lane 0 writes u[row]. Hint: a warp whose row
    // is past the last returns as a whole. About 10 lines.
    LAB_TODO_UNUSED(u, A, v, N, M);
}

// version 3: version 2's warp per row, with v read from shared memory. The
// block loads v in tiles of MATVEC3_THREADS floats (one per thread, coalesced);
// each of its warps then uses the tile for its own row.
__global__ void matvec_kernel3(float *u, const float *A, const float *v, int N, int M)
{
    // TODO 4 (version 3, v through shared memory): version 2's warps, but the
    // block first stages a tile of MATVEC3_THREADS elements of v in shared
    // memory, one element per thread, and the warps read v from the tile, tile
    // after tile. Hint: one __syncthreads() once the tile is loaded and one
    // before it is overwritten; every thread of the block must reach both (no
    // early return), and the last tile may be short. About 20 lines.
    LAB_TODO_UNUSED(u, A, v, N, M);
}

/* ---------------------------------------------------------------------------
 * Kernel launchers: the grid math, the preconditions, the launch check
 */

static lab04_launch matvec1(float *d_u, const float *d_A, const float *d_v, int N, int M)
{
    lab04_launch l = { ceil_div(N, MATVEC1_THREADS), MATVEC1_THREADS, 0 };
    matvec_kernel1<<<l.blocks, l.threads>>>(d_u, d_A, d_v, N, M);
    LAB_CHECK_LAUNCH();
    return l;
}

static lab04_launch matvec2(float *d_u, const float *d_A, const float *d_v, int N, int M)
{
    const int rows_per_block = MATVEC2_THREADS / WARP_SIZE;
    lab04_launch l = { ceil_div(N, rows_per_block), MATVEC2_THREADS, 0 };
    matvec_kernel2<<<l.blocks, l.threads>>>(d_u, d_A, d_v, N, M);
    LAB_CHECK_LAUNCH();
    return l;
}

static lab04_launch matvec3(float *d_u, const float *d_A, const float *d_v, int N, int M)
{
    const int rows_per_block = MATVEC3_THREADS / WARP_SIZE;
    lab04_launch l = { ceil_div(N, rows_per_block), MATVEC3_THREADS,
                       MATVEC3_THREADS * sizeof(float) };
    matvec_kernel3<<<l.blocks, l.threads>>>(d_u, d_A, d_v, N, M);
    LAB_CHECK_LAUNCH();
    return l;
}

/* ---------------------------------------------------------------------------
 * Version dispatch
 */

const char *matvec_describe(int version)
{
    switch (version) {
    case 1:
        return "v1: one thread per row";
    case 2:
        return "v2: one warp per row, shuffle reduction (coalesced)";
    case 3:
        return "v3: v2 with v staged in shared memory, 256-float tiles";
    default:
        return "unknown version";
    }
}

lab04_launch matvec(int version, float *d_u, const float *d_A, const float *d_v, int N, int M)
{
    assert(N >= 1 && M >= 1);
    switch (version) {
    case 1:
        return matvec1(d_u, d_A, d_v, N, M);
    case 2:
        return matvec2(d_u, d_A, d_v, N, M);
    case 3:
        return matvec3(d_u, d_A, d_v, N, M);
    default:
        assert(!"matvec: version must be 1, 2 or 3");
        lab04_launch none = { 0, 0, 0 };
        return none;
    }
}
