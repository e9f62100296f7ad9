// plain_kernels.cu — the nvcc driver test of the check twin's plain copies: a
// kernel launched from another file (plain_main.cu), with a __device__
// counter that the host reads back.
__device__ unsigned long long d_hits;

__global__ void add_one(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
    atomicAdd(&d_hits, 1ull);
}
