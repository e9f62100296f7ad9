// scale.cu — a __device__ function used from main.cu (relocatable device code).
__device__ float scale(float x)
{
    return 3.0f * x;
}
