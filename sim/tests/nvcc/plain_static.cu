// plain_static.cu — the nvcc driver test of the check twin's plain copies: a
// kernel that uses a static __device__ variable, which a plain copy could not
// share with the instrumented code, so this file gets none: its blocks all
// run instrumented, with the same result.
static __device__ unsigned long long s_hits;

__global__ void count_static(void)
{
    atomicAdd(&s_hits, 1ull);
}

unsigned long long run_static(int blocks, int threads)
{
    unsigned long long zero = 0, hits = 0;
    cudaMemcpyToSymbol(s_hits, &zero, sizeof(zero));
    count_static<<<blocks, threads>>>();
    cudaMemcpyFromSymbol(&hits, s_hits, sizeof(hits));
    return hits;
}
