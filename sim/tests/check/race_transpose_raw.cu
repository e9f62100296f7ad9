// clang-format off
// CHECK-TOOL: racecheck
// CHECK-EXPECT: Race reported between Write access at [^=]*race_transpose_raw\.cu:26 in transpose_kernel
// CHECK-EXPECT: and Read access at [^=]*race_transpose_raw\.cu:31 in transpose_kernel \[RAW hazard on __shared__ memory, threads \([0-9,]+\) and \([0-9,]+\) of block \([0-9,]+\)\]
// clang-format on
// race_transpose_raw — a tiled transpose without the barrier between the
// tile's store and its transposed load: thread (x, y) reads the element that
// thread (y, x) writes. The two threads of such a pair each write, then read
// the other's element, so in any order one of the reads follows the other
// thread's write: a RAW hazard.
#include <cuda_runtime.h>

#include <stdio.h>

#define WIDTH 64
#define HEIGHT 48
#define TILE 16

// out (width, height) = transpose of in (height, width), both row-major.
__global__ void transpose_kernel(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height)
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    // BUG: missing __syncthreads() here.
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < height && y < width)
        out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

int main(void)
{
    static float h_in[WIDTH * HEIGHT], h_out[WIDTH * HEIGHT];
    for (int i = 0; i < WIDTH * HEIGHT; i++)
        h_in[i] = (float)i;
    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE);
    dim3 grid(WIDTH / TILE, HEIGHT / TILE);
    transpose_kernel<<<grid, block>>>(d_in, d_out, WIDTH, HEIGHT);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    printf("out[1] = %g\n", h_out[1]);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
