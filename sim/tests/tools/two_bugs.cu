// two_bugs.cu — for the test of `gpulab sanitizer`: an out-of-bounds write in
// one kernel, an uninitialized read in another, and a buffer never freed; the
// program exits with status 5 of its own.
#include <cstdio>

__global__ void write_past(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        p[i] = i;
}

__global__ void read_unset(const int *p, int *out)
{
    out[threadIdx.x] = p[threadIdx.x] + 1;
}

int main()
{
    int *p, *q, *out;
    cudaMalloc(&p, 64 * sizeof(int));
    cudaMalloc(&q, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    read_unset<<<1, 32>>>(q, out);
    cudaDeviceSynchronize();
    write_past<<<1, 128>>>(p, 64);
    printf("two_bugs: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(q);
    return 5;
}
