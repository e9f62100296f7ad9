// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ read of size 4 bytes
// CHECK-EXPECT: at row_sums_kernel in [^=]*mem_oob_read\.cu:29
// CHECK-EXPECT: by thread \(35,0,0\) in block \(1,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is out of bounds
// CHECK-EXPECT: and is 0 bytes after the nearest allocation at 0x[0-9a-f]+ of size 14800 bytes
// clang-format on
// mem_oob_read — an off-by-one loop bound (j <= cols) in a row sum: every
// thread reads one element too many (the next row's first), and the thread of
// the last row (row 99: thread 35 of block 1) reads past the end of m.
#include <cuda_runtime.h>

#include <stdio.h>

#define ROWS 100
#define COLS 37
#define THREADS 64

// sums[r] = sum of row r of m, which is (rows, cols), row-major; a thread per row.
__global__ void row_sums_kernel(const float *m, float *sums, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float acc = 0.0f;
    // BUG: must be j < cols.
    for (int j = 0; j <= cols; j++)
        acc += m[r * cols + j];
    sums[r] = acc;
}

int main(void)
{
    static float h_m[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++)
        h_m[i] = 1.0f;
    float *d_m, *d_sums;
    cudaMalloc((void **)&d_m, sizeof(h_m));
    cudaMalloc((void **)&d_sums, ROWS * sizeof(float));
    cudaMemcpy(d_m, h_m, sizeof(h_m), cudaMemcpyHostToDevice);
    row_sums_kernel<<<(ROWS + THREADS - 1) / THREADS, THREADS>>>(d_m, d_sums, ROWS, COLS);
    printf("row_sums_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_m);
    cudaFree(d_sums);
    return 0;
}
