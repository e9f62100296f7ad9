// spaces.cu — the unit-rewrite-cli test of --nvcc-checks: calls across
// execution spaces, and device functions defined here, in a quoted header,
// or nowhere.
#include "spaces_defs.cuh"

__device__ int from_header(int x);
__device__ int elsewhere(int x);
int on_host(int x)
{
    return x + 1;
}

__global__ void k(int *p)
{
    p[0] = from_header(p[0]) + elsewhere(p[1]) + on_host(p[2]);
}

int main(void)
{
    return from_header(1);
}
