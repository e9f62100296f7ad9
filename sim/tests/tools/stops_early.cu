// stops_early.cu — for the tests of `gpulab ncu` and `gpulab nsys profile`
// on a program that does not end well: it runs a kernel, then aborts
// ("abort") or waits forever ("hang"). What ran before must be kept.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

__global__ void before_the_end(float *x)
{
    x[threadIdx.x] = 1.0f;
}

int main(int argc, char **argv)
{
    float *d;
    cudaMalloc(&d, 32 * sizeof(float));
    before_the_end<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    printf("kernel done\n");
    fflush(stdout);
    if (argc > 1 && !strcmp(argv[1], "hang"))
        for (;;)
            pause();
    abort();
}
