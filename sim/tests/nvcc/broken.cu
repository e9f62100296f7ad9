// broken.cu — the nvcc driver test: a compile error must name this file and line 5.
__global__ void k(int *x)
{
    int i = threadIdx.x;
    x[i] = undeclared_name;
}
