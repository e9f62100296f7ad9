// clang-format off
// CHECK-TOOL: synccheck
// CHECK-EXPECT: Barrier error detected\. grid\.sync\(\) in a kernel not launched cooperatively
// CHECK-EXPECT: at scale_kernel in [^=]*sync_grid_not_cooperative\.cu:27
// PLAIN-EXIT: 0
// PLAIN-EXPECT: grid\.sync\(\) at [^=]*sync_grid_not_cooperative\.cu:27
// PLAIN-EXPECT: scale_kernel: cudaErrorLaunchFailure
// clang-format on
// sync_grid_not_cooperative — grid.sync() in a kernel launched with <<<...>>>:
// only cudaLaunchCooperativeKernel gives a grid that can synchronize.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdio.h>

namespace cg = cooperative_groups;

#define N 256

// Scales the data, then (after every block has) adds the first element.
__global__ void scale_kernel(float *x)
{
    cg::grid_group grid = cg::this_grid();
    unsigned i = (unsigned)grid.thread_rank();
    x[i] *= 2.0f;
    // BUG: launched with <<<...>>>: needs cudaLaunchCooperativeKernel.
    grid.sync();
    if (i > 0)
        x[i] += x[0];
}

int main(void)
{
    static float h[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    float *d;
    cudaMalloc((void **)&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    scale_kernel<<<N / 64, 64>>>(d);
    printf("scale_kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}
