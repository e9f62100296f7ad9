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

// An inline host function whose body holds statements: `if (...)` and
// `for (...)` are neither declarations nor calls, here or in a kernel.
inline int round_up(int n, int m)
{
    int r = n % m;
    if (r)
        return n + m - r;
    for (int i = 0; i < 1; i++)
        n += 0;
    return n;
}

__global__ void statements(int *p)
{
    if (p[0] > 0)
        p[0] = 1;
    for (int i = 0; i < 2; i++)
        while (p[i] > 3)
            p[i]--;
}
