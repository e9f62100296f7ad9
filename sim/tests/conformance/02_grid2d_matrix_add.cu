// 02_grid2d_matrix_add — 2-D grids and blocks: a 37x53 matrix added with
// 16x16 blocks on a 4x3 grid (x covers the 53 columns, y the 37 rows); both
// the column and the row bound are checked, every element written exactly once.
#include "conformance.h"

#define ROWS 37
#define COLS 53

// A, B, C are (ROWS, COLS), row-major. count[r][c] counts the writes.
__global__ void matrix_add(const int *a, const int *b, int *c, int *count, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        c[row * cols + col] = a[row * cols + col] + b[row * cols + col];
        atomicAdd(&count[row * cols + col], 1);
    }
}

int main(void)
{
    conf_require_device();

    static int h_a[ROWS * COLS], h_b[ROWS * COLS], h_c[ROWS * COLS], h_count[ROWS * COLS];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            h_a[r * COLS + c] = r * 1000 + c;
            h_b[r * COLS + c] = -7 * c + r;
        }
    size_t bytes = sizeof(h_a);
    int *d_a, *d_b, *d_c, *d_count;
    CHECK_CUDA(cudaMalloc(&d_a, bytes));
    CHECK_CUDA(cudaMalloc(&d_b, bytes));
    CHECK_CUDA(cudaMalloc(&d_c, bytes));
    CHECK_CUDA(cudaMalloc(&d_count, bytes));
    CHECK_CUDA(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_count, 0, bytes));

    dim3 block(16, 16);
    dim3 grid((COLS + block.x - 1) / block.x, (ROWS + block.y - 1) / block.y);
    conf_check(grid.x == 4 && grid.y == 3, "grid is %ux%u, expected 4x3", grid.x, grid.y);
    matrix_add<<<grid, block>>>(d_a, d_b, d_c, d_count, ROWS, COLS);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_count, d_count, bytes, cudaMemcpyDeviceToHost));

    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            int i = r * COLS + c;
            conf_check(h_c[i] == h_a[i] + h_b[i], "C[%d][%d] = %d, expected %d", r, c, h_c[i],
                       h_a[i] + h_b[i]);
            conf_check(h_count[i] == 1, "C[%d][%d] written %d times", r, c, h_count[i]);
        }

    CHECK_CUDA(cudaFree(d_a));
    CHECK_CUDA(cudaFree(d_b));
    CHECK_CUDA(cudaFree(d_c));
    CHECK_CUDA(cudaFree(d_count));
    return conf_finish();
}
