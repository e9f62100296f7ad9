// vec_add.cu - the student's kernel for lab 03.
#include <cuda_runtime.h>

__global__ void vec_add_kernel(const float *a, const float *b, float *c, int n)
{
    // >>> SOLUTION
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
    // === STUB
    // TODO: compute this thread's global index i and, when i < n, c[i] = a[i] + b[i].
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    // <<< END
}

void vec_add(const float *d_a, const float *d_b, float *d_c, int n)
{
    int threads = 1024;
    /* >>> SOLUTION */
    int blocks = (n + threads - 1) / threads;
    /* === STUB */
    int blocks = 1; /* TODO: enough blocks to cover n */
    /* <<< END */
    vec_add_kernel<<<blocks, threads>>>(d_a, d_b, d_c, n);
        //>>> SOLUTION
    // a note only the solution keeps (no stub: the region yields nothing)
	//   <<< END   
}
