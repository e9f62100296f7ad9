// 14_constant_symbols — __constant__ and __device__ variables: filled with
// cudaMemcpyToSymbol (whole and at an offset), read back with
// cudaMemcpyFromSymbol, a statically initialised __device__ variable, and cudaGetSymbolAddress.
#include "conformance.h"

#define N 256
#define NCOEF 8

__constant__ float coef[NCOEF];
__constant__ int scale;
__device__ int magic = 42; // initialised at load, as in a C global
__device__ int counter;    // zero-initialised
__device__ float table[N]; // written by the kernel, read with cudaMemcpyFromSymbol

__global__ void use_symbols(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = coef[i % NCOEF] * (float)scale + (float)magic;
    out[i] = v;
    table[i] = -v;
    atomicAdd(&counter, 1);
}

int main(void)
{
    conf_require_device();

    float h_coef[NCOEF] = { 1.0f, 2.0f, 3.0f, 4.0f, 0.0f, 0.0f, 0.0f, 0.0f };
    float h_tail[4] = { 0.5f, -1.5f, 8.0f, 100.0f };
    int h_scale = 3;
    CHECK_CUDA(cudaMemcpyToSymbol(coef, h_coef, sizeof(h_coef)));
    CHECK_CUDA(cudaMemcpyToSymbol(coef, h_tail, sizeof(h_tail), 4 * sizeof(float)));
    CHECK_CUDA(cudaMemcpyToSymbol(scale, &h_scale, sizeof(int), 0, cudaMemcpyHostToDevice));
    memcpy(h_coef + 4, h_tail, sizeof(h_tail));

    float check_coef[NCOEF];
    CHECK_CUDA(cudaMemcpyFromSymbol(check_coef, coef, sizeof(check_coef)));
    for (int k = 0; k < NCOEF; k++)
        conf_check(check_coef[k] == h_coef[k], "coef[%d] read back as %g, expected %g", k,
                   check_coef[k], h_coef[k]);

    float *d_out;
    static float h_out[N], h_table[N];
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    use_symbols<<<(N + 63) / 64, 64>>>(d_out, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpyFromSymbol(h_table, table, sizeof(h_table)));
    int h_counter = -1, h_magic = -1;
    CHECK_CUDA(cudaMemcpyFromSymbol(&h_counter, counter, sizeof(int), 0, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpyFromSymbol(&h_magic, magic, sizeof(int)));

    for (int i = 0; i < N; i++) {
        float want = h_coef[i % NCOEF] * (float)h_scale + 42.0f;
        conf_check(h_out[i] == want, "out[%d] = %g, expected %g", i, h_out[i], want);
        conf_check(h_table[i] == -want, "table[%d] = %g, expected %g", i, h_table[i], -want);
    }
    conf_check(h_counter == N, "__device__ counter %d, expected %d", h_counter, N);
    conf_check(h_magic == 42, "__device__ magic %d, expected 42", h_magic);

    // The symbol's device address works with plain cudaMemcpy too.
    void *d_table = NULL;
    CHECK_CUDA(cudaGetSymbolAddress(&d_table, table));
    float first = 0.0f;
    CHECK_CUDA(cudaMemcpy(&first, d_table, sizeof(float), cudaMemcpyDeviceToHost));
    conf_check(first == h_table[0], "table[0] through cudaGetSymbolAddress: %g, expected %g", first,
               h_table[0]);

    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
