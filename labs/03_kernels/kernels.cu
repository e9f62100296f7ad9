/*
 * Lab 03 — hand-written kernels: your code. c = a + b, three ways.
 *
 *   version 1  vec_add: one thread per element; the grid has
 *              ceil(n / threads) blocks, so the last block may have threads
 *              with no element, and the kernel's bounds check keeps them out.
 *   version 2  vec_add_grid_stride: any grid size; each thread handles
 *              elements i, i + (all threads of the grid), i + 2 (...), ...
 *   version 3  mat_add: an (h, w) matrix on a 2-D grid of 16 x 16 blocks.
 *
 * Build and run (from the repository root):
 *   cmake --build build --target lab03
 *   build/bin/lab03-sim-student                # on the simulator
 *   build/bin/lab03-cuda-student               # on an NVIDIA GPU
 *
 * The CPU loops these kernels port (the reference the harness checks them
 * against), one iteration per GPU thread:
 *
 *   for (int i = 0; i < n; i++)               versions 1 and 2
 *       c[i] = a[i] + b[i];
 *
 *   for (int row = 0; row < h; row++)         version 3: row is the y index,
 *       for (int col = 0; col < w; col++)     col the x index of the thread
 *           C[row * w + col] = A[row * w + col] + B[row * w + col];
 *
 * Five TODOs, in order. The launchers at the end are written for you: they
 * show how a kernel is launched and what configuration they report.
 */
#include "kernels.h"

#include "lab/check.h"
#include "lab/todo.h"

/* ---------------------------------------------------------------------------
 * Launch math
 */

int ceil_div(int n, int d)
{
    /* TODO 1: round up. n / d in integers rounds down: 5466 elements with
     * 1024 threads per block give 5 blocks, 5120 threads, and the last 346
     * elements are never computed. Return the number of blocks of d threads
     * that covers all n elements (0 when n is 0), without floating point. */
    return n / d;
}

/* ---------------------------------------------------------------------------
 * Kernels
 */

/* version 1: thread i computes c[i]; the grid may have more threads than n. */
__global__ void vec_add_kernel(float *c, const float *a, const float *b, int n)
{
    /* TODO 2: compute this thread's global index
     *     i = blockIdx.x * blockDim.x + threadIdx.x
     * and, only when i < n (the bounds check: the last block has idle
     * threads whose i is past the end), set c[i] = a[i] + b[i]. */
    LAB_TODO_UNUSED(c, a, b, n);
}

/* version 2: correct whatever the grid size. */
__global__ void vec_add_grid_stride_kernel(float *c, const float *a, const float *b, int n)
{
    /* TODO 3: a grid-stride loop. Start at the global index as in TODO 2 and
     * step by the number of threads in the whole grid (blockDim.x * gridDim.x)
     * while i < n, so that 3 blocks of 128 threads still cover a million
     * elements. */
    LAB_TODO_UNUSED(c, a, b, n);
}

/* version 3: A, B, C are (h, w), row-major: element (row, col) is at row * w + col.
 * x runs along a row (columns), y down the matrix (rows). */
__global__ void mat_add_kernel(float *C, const float *A, const float *B, int h, int w)
{
    /* TODO 4: this thread's column (from the x parts of blockIdx, blockDim,
     * threadIdx) and row (the y parts); when both are inside the matrix,
     * C[row * w + col] = A[row * w + col] + B[row * w + col]. */
    LAB_TODO_UNUSED(C, A, B, h, w);
}

/* ---------------------------------------------------------------------------
 * Launchers (given, but for TODO 5: they record the configuration they launch with)
 */

static void record(lab03_launch *used, int gx, int gy, int bx, int by)
{
    used->grid_x = gx;
    used->grid_y = gy;
    used->block_x = bx;
    used->block_y = by;
}

void vec_add(float *d_c, const float *d_a, const float *d_b, int n, int threads, lab03_launch *used)
{
    int blocks = ceil_div(n, threads);
    record(used, blocks, 1, threads, 1);
    if (blocks == 0)
        return; /* nothing to do, and a grid of 0 blocks is an invalid configuration */
    vec_add_kernel<<<blocks, threads>>>(d_c, d_a, d_b, n);
    LAB_CHECK_LAUNCH();
}

void vec_add_grid_stride(float *d_c, const float *d_a, const float *d_b, int n, int blocks,
                         int threads, lab03_launch *used)
{
    record(used, blocks, 1, threads, 1);
    vec_add_grid_stride_kernel<<<blocks, threads>>>(d_c, d_a, d_b, n);
    LAB_CHECK_LAUNCH();
}

/* The grid of 16 x 16 blocks that covers an (h, w) matrix. */
static dim3 mat_add_grid(int h, int w, dim3 block)
{
    /* TODO 5: enough blocks to cover all w columns (grid x) and all h rows
     * (grid y): use ceil_div in each direction. One block, as here, covers
     * only the top-left 16 x 16 corner of the matrix. */
    LAB_TODO_UNUSED(h, w, block);
    return dim3(1, 1);
}

void mat_add(float *d_C, const float *d_A, const float *d_B, int h, int w, lab03_launch *used)
{
    dim3 block(16, 16);
    dim3 grid = mat_add_grid(h, w, block);
    record(used, (int)grid.x, (int)grid.y, (int)block.x, (int)block.y);
    if (grid.x == 0 || grid.y == 0)
        return; /* an empty matrix: nothing to launch */
    mat_add_kernel<<<grid, block>>>(d_C, d_A, d_B, h, w);
    LAB_CHECK_LAUNCH();
}
