// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ read of size 4 bytes
// CHECK-EXPECT: at add_kernel in [^=]*mem_oob_then_exit\.cu:28
// CHECK-EXPECT: Program hit cudaErrorLaunchFailure \(error 719\)
// CHECK-EXPECT: Leak check skipped: the program exited with status 1 after the errors above
// CHECK-NOT: Leaked
// clang-format on
// mem_oob_then_exit — a kernel without its bounds check reads past the end
// of a; memcheck stops it, the next synchronizing call fails, and the program
// exits at once with status 1, as a harness's check macro does, leaving its
// three buffers allocated. Those are not leaks to report: the program would
// have freed them on its way to a normal end. (What must be reported is the
// invalid write.)
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define THREADS 256

// c[i] = a[i] + b[i].
__global__ void add_kernel(const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // BUG: missing `if (i < n)`: threads 1000..1023 read past the end of a.
    c[i] = a[i] + b[i];
}

// What a harness's check macro does: name the failed call and exit with status 1.
static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorName(e));
        exit(1);
    }
}

int main(void)
{
    static float h_a[N], h_c[N];
    for (int i = 0; i < N; i++)
        h_a[i] = (float)i;
    float *d_a, *d_b, *d_c;
    check(cudaMalloc((void **)&d_a, N * sizeof(float)), "cudaMalloc");
    check(cudaMalloc((void **)&d_b, N * sizeof(float)), "cudaMalloc");
    check(cudaMalloc((void **)&d_c, N * sizeof(float)), "cudaMalloc");
    check(cudaMemcpy(d_a, h_a, sizeof(h_a), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(d_b, h_a, sizeof(h_a), cudaMemcpyHostToDevice), "cudaMemcpy");
    add_kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(d_a, d_b, d_c);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    check(cudaMemcpy(h_c, d_c, sizeof(h_c), cudaMemcpyDeviceToHost), "cudaMemcpy");
    printf("c[1] = %g (expected 2)\n", h_c[1]);
    check(cudaFree(d_a), "cudaFree");
    check(cudaFree(d_b), "cudaFree");
    check(cudaFree(d_c), "cudaFree");
    return 0;
}
