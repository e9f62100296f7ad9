// extern_caller.cu — a kernel that calls a __device__ function defined in
// extern_callee.cu: nvcc needs relocatable device code (-rdc=true or -dc).
#include <stdio.h>

extern __device__ int twice(int x);

__global__ void twice_all(int *p)
{
    p[threadIdx.x] = twice(p[threadIdx.x]);
}

int main(void)
{
    int h[4] = { 1, 2, 3, 4 }, *d;
    cudaMalloc((void **)&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    twice_all<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("rdc %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    return 0;
}
