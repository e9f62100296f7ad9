// clang-format off
// CHECK-TOOL: memcheck
// CHECK-EXPECT: Invalid __global__ write of size 4 bytes
// CHECK-EXPECT: at sum_kernel in [^=]*mem_host_pointer_struct\.cu:42
// CHECK-EXPECT: by thread \(0,0,0\) in block \(0,0,0\)
// CHECK-EXPECT: Address 0x[0-9a-f]+ is a host pointer: host memory is not accessible from a kernel
// clang-format on
// mem_host_pointer_struct — a host pointer hidden in a struct: the kernel gets
// a (valid) device pointer to its parameters, but the field `sum` in them
// holds malloc'd host memory, which the launch check cannot see. Thread 0
// writes the block's sum through it.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define THREADS 256

struct params {
    const float *x; // N floats, device memory
    float *sum;     // one float for the result
    int n;
};

// *p->sum = sum of p->x, by one block.
__global__ void sum_kernel(const struct params *p)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    float acc = 0.0f;
    for (int i = tid; i < p->n; i += blockDim.x)
        acc += p->x[i];
    s[tid] = acc;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (tid < half)
            s[tid] += s[tid + half];
        __syncthreads();
    }
    if (tid == 0)
        *p->sum = s[0];
}

int main(void)
{
    static float h_x[N];
    for (int i = 0; i < N; i++)
        h_x[i] = 1.0f;
    float *d_x;
    struct params h_p, *d_p;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMalloc((void **)&d_p, sizeof(h_p));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    h_p.x = d_x;
    // BUG: the result must go to device memory (cudaMalloc) and be copied back.
    h_p.sum = (float *)malloc(sizeof(float));
    h_p.n = N;
    cudaMemcpy(d_p, &h_p, sizeof(h_p), cudaMemcpyHostToDevice);
    sum_kernel<<<1, THREADS>>>(d_p);
    printf("sum_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_x);
    cudaFree(d_p);
    free(h_p.sum);
    return 0;
}
