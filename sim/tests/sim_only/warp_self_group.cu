// clang-format off
// EXPECT-OUTPUT: PASS warp_self_group
// clang-format on
// warp_self_group — simulator only: lanes 16..31 call a shuffle whose mask
// (0x0000ffff) leaves them out, after lanes 0..15 have finished; each such
// call then concerns its caller alone. The simulator must go on with the
// caller (a regression test: it once switched to the running fiber's stale
// context and crashed). On a GPU the mask is an error (synccheck reports it).
#include <cuda_runtime.h>

#include <stdio.h>

__global__ void half_mask(const int *in, int *out)
{
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0x0000ffff, v, offset);
    out[threadIdx.x] = v;
}

int main(void)
{
    int *in, *out, h[32];
    cudaMalloc((void **)&in, sizeof(h));
    cudaMalloc((void **)&out, sizeof(h));
    cudaMemset(in, 0, sizeof(h));
    half_mask<<<4, 32>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    int ok = e == cudaSuccess && h[0] == 0 && h[31] == 0;
    printf("%s warp_self_group (%s)\n", ok ? "PASS" : "FAIL", cudaGetErrorName(e));
    cudaFree(in);
    cudaFree(out);
    return ok ? 0 : 1;
}
