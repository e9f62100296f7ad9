// kernel_calls_host.cu — a learner's mistake that nvcc refuses: a kernel
// calling a host function (line 10).
float host_offset(float x)
{
    return x + 1.0f;
}

__global__ void shift(float *p)
{
    p[threadIdx.x] = host_offset(p[threadIdx.x]);
}

int main(void)
{
    shift<<<1, 1>>>(0);
    return 0;
}
