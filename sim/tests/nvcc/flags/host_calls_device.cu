// host_calls_device.cu — a learner's mistake that nvcc refuses: host code
// calling a __device__ function (line 10).
__device__ float square(float x)
{
    return x * x;
}

int main(void)
{
    float y = square(2.0f);
    return (int)y;
}
