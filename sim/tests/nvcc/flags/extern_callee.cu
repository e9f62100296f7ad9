// extern_callee.cu — the __device__ function extern_caller.cu calls.
__device__ int twice(int x)
{
    return 2 * x;
}
