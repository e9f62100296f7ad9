// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_transpose_padded — a tiled transpose with a padded shared tile (32 x 33,
// against bank conflicts; the padding column is never touched), blocks of
// 32 x 8 threads doing 4 rows each, sizes not multiples of the tile, and a
// barrier between the tile's stores and its transposed loads. A thread reads
// only tile elements whose source element exists, which were stored.
#include <cuda_runtime.h>

#include <stdio.h>

#define WIDTH 100
#define HEIGHT 70
#define TILE 32
#define ROWS 8

// out (width, height) = transpose of in (height, width), both row-major.
__global__ void transpose_kernel(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
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
    dim3 block(TILE, ROWS), grid((WIDTH + TILE - 1) / TILE, (HEIGHT + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(d_in, d_out, WIDTH, HEIGHT);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int r = 0; r < HEIGHT; r++)
        for (int c = 0; c < WIDTH; c++)
            if (h_out[c * HEIGHT + r] != h_in[r * WIDTH + c] && bad++ < 5)
                printf("out[%d][%d] = %g, expected %g\n", c, r, h_out[c * HEIGHT + r],
                       h_in[r * WIDTH + c]);
    cudaFree(d_in);
    cudaFree(d_out);
    printf("%s ok_transpose_padded (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
