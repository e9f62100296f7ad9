// hold_memory.cu — for the test of `gpulab smi`: takes 96 MiB of device memory
// on device 0 (and 32 MiB on device 1 when there is one), says "ready", and
// holds them until its standard input closes.
#include <cstdio>

int main()
{
    void *a = nullptr, *b = nullptr;
    int n = 0;
    cudaGetDeviceCount(&n);
    if (cudaMalloc(&a, 96u << 20) != cudaSuccess)
        return 1;
    if (n > 1) {
        cudaSetDevice(1);
        if (cudaMalloc(&b, 32u << 20) != cudaSuccess)
            return 1;
    }
    printf("ready\n");
    fflush(stdout);
    while (getchar() != EOF)
        ;
    cudaFree(b);
    cudaSetDevice(0);
    cudaFree(a);
    return 0;
}
