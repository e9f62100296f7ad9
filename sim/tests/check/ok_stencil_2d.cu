// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_stencil_2d — a 5-point Laplacian through a shared tile with a one-element
// halo: the block loads all (TILE + 2)^2 tile elements cooperatively, reading
// global memory only inside the grid (0 outside), then a barrier, then each
// thread inside the grid computes its point. Sizes not multiples of the tile.
#include <cuda_runtime.h>

#include <stdio.h>

#define W 50
#define H 37
#define TILE 16
#define T2 (TILE + 2)

// out = 4 u - (the four neighbours), with u = 0 outside the (h, w) grid.
__global__ void laplacian_kernel(const float *u, float *out, int w, int h)
{
    __shared__ float s[T2][T2];
    int tid = threadIdx.y * TILE + threadIdx.x;
    for (int k = tid; k < T2 * T2; k += TILE * TILE) {
        int gy = blockIdx.y * TILE + k / T2 - 1, gx = blockIdx.x * TILE + k % T2 - 1;
        s[k / T2][k % T2] = gx >= 0 && gx < w && gy >= 0 && gy < h ? u[gy * w + gx] : 0.0f;
    }
    __syncthreads();
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    int sx = threadIdx.x + 1, sy = threadIdx.y + 1;
    if (x < w && y < h)
        out[y * w + x] =
            4.0f * s[sy][sx] - s[sy - 1][sx] - s[sy + 1][sx] - s[sy][sx - 1] - s[sy][sx + 1];
}

static float at(const float *u, int x, int y)
{
    return x >= 0 && x < W && y >= 0 && y < H ? u[y * W + x] : 0.0f;
}

int main(void)
{
    static float h_u[W * H], h_out[W * H];
    for (int i = 0; i < W * H; i++)
        h_u[i] = (float)((i * 13) % 17);
    float *d_u, *d_out;
    cudaMalloc((void **)&d_u, sizeof(h_u));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_u, h_u, sizeof(h_u), cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid((W + TILE - 1) / TILE, (H + TILE - 1) / TILE);
    laplacian_kernel<<<grid, block>>>(d_u, d_out, W, H);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float want = 4.0f * at(h_u, x, y) - at(h_u, x, y - 1) - at(h_u, x, y + 1) -
                         at(h_u, x - 1, y) - at(h_u, x + 1, y);
            if (h_out[y * W + x] != want && bad++ < 5)
                printf("out[%d][%d] = %g, expected %g\n", y, x, h_out[y * W + x], want);
        }
    cudaFree(d_u);
    cudaFree(d_out);
    printf("%s ok_stencil_2d (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
