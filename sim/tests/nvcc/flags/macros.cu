// macros.cu — the macros nvcc defines for a .cu file: __CUDACC__, __NVCC__ and
// the version; __CUDA_ARCH__ never, since kernels are compiled as host code.
#if !defined(__CUDACC__) || !defined(__NVCC__)
#error "__CUDACC__ and __NVCC__ must be defined in a .cu file"
#endif
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) ||                            \
    !defined(__CUDACC_VER_BUILD__)
#error "the __CUDACC_VER_*__ macros must be defined"
#endif
#if __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDART_VERSION
#error "__CUDACC_VER_MAJOR__.__CUDACC_VER_MINOR__ must be the runtime's version"
#endif
#ifdef __CUDA_ARCH__
#error "__CUDA_ARCH__ is not defined on the simulator"
#endif
#ifdef EXPECT_STD
#if __cplusplus != EXPECT_STD
#error "the C++ standard is not the one asked for"
#endif
#endif
#ifdef EXPECT_RDC
#ifndef __CUDACC_RDC__
#error "__CUDACC_RDC__ must be defined with -rdc=true and -dc"
#endif
#elif defined(__CUDACC_RDC__)
#error "__CUDACC_RDC__ is defined only with relocatable device code"
#endif

__global__ void noop(void) {}

int macros_cu(void)
{
    return __CUDACC_VER_MAJOR__;
}
