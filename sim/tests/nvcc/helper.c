/* helper.c — the nvcc driver test: a plain C file in the same program. */
#include "util.h"

#include <cuda_runtime.h>

long sum_below(int n)
{
    long s = 0;
    int count = 0;
    cudaGetDeviceCount(&count); /* the C side sees the runtime API too */
    for (int i = 0; i < n; i++)
        s += i;
    return count > 0 ? s : -1;
}
