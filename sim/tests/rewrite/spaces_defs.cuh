// spaces_defs.cuh — a __device__ function defined in a quoted header.
__device__ int from_header(int x)
{
    return 2 * x;
}
