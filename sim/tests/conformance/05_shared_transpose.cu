// 05_shared_transpose — __shared__ tiles and __syncthreads: a 70x45 matrix
// transposed through 32x33 (padded) shared tiles by 32x8 blocks, each thread
// moving 4 elements; partial tiles at both edges must be handled.
#include "conformance.h"

#define ROWS 70
#define COLS 45
#define TILE 32
#define BLOCK_ROWS 8

// in is (rows, cols), out is (cols, rows), both row-major.
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];   // +1: no bank conflicts on the column read
    int x = blockIdx.x * TILE + threadIdx.x; // column of in
    int y = blockIdx.y * TILE + threadIdx.y; // row of in
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; // column of out = row of in
    y = blockIdx.x * TILE + threadIdx.y; // row of out = column of in
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < rows && y + j < cols)
            out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(void)
{
    conf_require_device();

    static float h_in[ROWS * COLS], h_out[COLS * ROWS];
    for (int i = 0; i < ROWS * COLS; i++)
        h_in[i] = (float)i + 0.25f;
    float *d_in, *d_out;
    CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_out, 0, sizeof(h_out)));

    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid((COLS + TILE - 1) / TILE, (ROWS + TILE - 1) / TILE);
    transpose_tiled<<<grid, block>>>(d_in, d_out, ROWS, COLS);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            conf_check(h_out[c * ROWS + r] == h_in[r * COLS + c], "out[%d][%d] = %g, expected %g",
                       c, r, h_out[c * ROWS + r], h_in[r * COLS + c]);

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
