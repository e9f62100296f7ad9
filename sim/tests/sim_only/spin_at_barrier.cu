// clang-format off
// EXPECT-OUTPUT: kernel spin_last \(launched at [^ ]*spin_at_barrier\.cu:46\), block \(0,0,0\): thread \(31,0,0\) has run for 1 s( at [^ ]*spin_at_barrier\.cu:[0-9]+)? without reaching a barrier or a warp function\. The other threads of its block:.*31 thread\(s\) wait in __syncthreads at [^ ]*spin_at_barrier\.cu:23.*kernel spin_first \(launched at [^ ]*spin_at_barrier\.cu:44\), block \(0,0,0\): thread \(0,0,0\) has run for 1 s.*31 thread\(s\) have not run since.*PASS spin_at_barrier
// clang-format on
// spin_at_barrier — simulator only: one thread spins on a flag (in mapped
// host memory) that the host sets 3 s after the launch. In spin_last it is
// the block's last thread, and the others wait at __syncthreads; in
// spin_first it is thread 0, and the simulator, which switches threads only
// at barriers and warp functions, has not run the others. After
// GPULAB_SIM_HANG_S seconds (the test sets 1) the watchdog says which thread
// runs and where the others are; each kernel goes on, and ends when the
// host sets the flag.
#include <cuda_runtime.h>

#include <stdio.h>
#include <unistd.h>

__global__ void spin_last(volatile int *flag, int *out)
{
    if (threadIdx.x == blockDim.x - 1) {
        while (*flag == 0) {
        }
    }
    __syncthreads();
    out[threadIdx.x] = threadIdx.x;
}

__global__ void spin_first(volatile int *flag, int *out)
{
    if (threadIdx.x == 0) {
        while (*flag == 0) {
        }
    }
    __syncthreads();
    out[threadIdx.x] = 2 * threadIdx.x;
}

// Runs one of the kernels: launch, wait 3 s, set the flag; its results.
static int spin(int first, volatile int *flag, int *d_flag, int *d_out)
{
    int h_out[32], ok = 1;
    *flag = 0;
    fflush(stdout);
    if (first)
        spin_first<<<1, 32>>>(d_flag, d_out);
    else
        spin_last<<<1, 32>>>(d_flag, d_out);
    sleep(3);
    *flag = 1;
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        ok &= h_out[i] == (first ? 2 * i : i);
    printf("after %s: %s\n", first ? "spin_first" : "spin_last", cudaGetErrorName(e));
    return ok && e == cudaSuccess;
}

int main(void)
{
    int *flag, *d_flag, *d_out;
    if (cudaHostAlloc((void **)&flag, sizeof(int), cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer((void **)&d_flag, flag, 0) != cudaSuccess ||
        cudaMalloc((void **)&d_out, 32 * sizeof(int)) != cudaSuccess) {
        printf("FAIL spin_at_barrier: setup\n");
        return 1;
    }
    int ok = spin(0, flag, d_flag, d_out);
    ok &= spin(1, flag, d_flag, d_out);
    printf("%s spin_at_barrier\n", ok ? "PASS" : "FAIL");
    cudaFreeHost(flag);
    cudaFree(d_out);
    return ok ? 0 : 1;
}
