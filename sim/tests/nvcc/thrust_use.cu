// thrust_use.cu — a program that uses Thrust, which the simulator does not
// have: gpulab-nvcc stops with the simulator's message (check_nvcc.cmake).
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

int main(void)
{
    thrust::device_vector<int> v(10, 1);
    return thrust::reduce(v.begin(), v.end()) == 10 ? 0 : 1;
}
