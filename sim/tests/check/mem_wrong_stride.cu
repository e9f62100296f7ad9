// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 4 bytes
// CHECK-EXPECT: at init_kernel in [^=]*mem_wrong_stride\.cu:26
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is [0-9]+ bytes after the nearest allocation at 0x[0-9a-f]+ of size 8000 bytes
// clang-format on
// mem_wrong_stride — a 2-D index with the wrong row stride: m is (50, 40),
// row-major, but the index uses the number of rows (50) as the stride, so the
// rows from 40 on land past the end of m.
#include <cuda_runtime.h>

#include <stdio.h>

#define ROWS 50
#define COLS 40
#define TILE 16

// m[row][col] = row + col / 100 for m of (rows, cols), row-major.
__global__ void init_kernel(float *m, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    // BUG: the row stride is cols: m[row * cols + col].
    if (row < rows && col < cols)
        m[row * rows + col] = (float)row + 0.01f * (float)col;
}

int main(void)
{
    float *d_m; // the only allocation: nothing lies past its end
    cudaMalloc((void **)&d_m, ROWS * COLS * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid((COLS + TILE - 1) / TILE, (ROWS + TILE - 1) / TILE);
    init_kernel<<<grid, block>>>(d_m, ROWS, COLS);
    printf("init_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_m);
    return 0;
}
