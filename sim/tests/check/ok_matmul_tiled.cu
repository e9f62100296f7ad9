// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_matmul_tiled — C = A B with 16 x 16 shared tiles and two barriers per
// tile (after the loads, and before the next tile's loads overwrite them);
// the sizes are not multiples of the tile, and tile elements outside the
// matrices are loaded as 0, so every shared element read was written.
#include <cuda_runtime.h>

#include <stdio.h>

#define M 70
#define K 45
#define N 50
#define TILE 16

// C (m, n) = A (m, k) times B (k, n), all row-major.
__global__ void matmul_kernel(const float *A, const float *B, float *C, int m, int k, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        int ak = t + threadIdx.x, bk = t + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < m && ak < k ? A[row * k + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = bk < k && col < n ? B[bk * n + col] : 0.0f;
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            acc += As[threadIdx.y][j] * Bs[j][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        C[row * n + col] = acc;
}

int main(void)
{
    static float h_A[M * K], h_B[K * N], h_C[M * N];
    for (int i = 0; i < M * K; i++)
        h_A[i] = (float)(i % 7 - 3); // small integers: every sum is exact
    for (int i = 0; i < K * N; i++)
        h_B[i] = (float)(i % 5 - 2);
    float *d_A, *d_B, *d_C;
    cudaMalloc((void **)&d_A, sizeof(h_A));
    cudaMalloc((void **)&d_B, sizeof(h_B));
    cudaMalloc((void **)&d_C, sizeof(h_C));
    cudaMemcpy(d_A, h_A, sizeof(h_A), cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, sizeof(h_B), cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_kernel<<<grid, block>>>(d_A, d_B, d_C, M, K, N);
    cudaMemcpy(h_C, d_C, sizeof(h_C), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            float want = 0.0f;
            for (int j = 0; j < K; j++)
                want += h_A[r * K + j] * h_B[j * N + c];
            if (h_C[r * N + c] != want && bad++ < 5)
                printf("C[%d][%d] = %g, expected %g\n", r, c, h_C[r * N + c], want);
        }
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    printf("%s ok_matmul_tiled (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
