// header_kernels.cu — the nvcc driver test: kernels and launches that live in a
// header included with quotes, from a subfolder.
#include "kern/reverse.cuh"

#include <stdio.h>

int main(void)
{
    int *d, h[64];
    cudaMalloc((void **)&d, sizeof(h));
    reverse_on_device(d, 64);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("header-kernels %d %d %s\n", h[0], h[63], cudaGetErrorName(cudaGetLastError()));
    return 0;
}
