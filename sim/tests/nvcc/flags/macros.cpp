// macros.cpp — a C++ file compiled by nvcc sees __NVCC__ and the version, not __CUDACC__.
#if defined(__CUDACC__) || !defined(__NVCC__) || !defined(__CUDACC_VER_MAJOR__)
#error "a .cpp file sees __NVCC__ and __CUDACC_VER_MAJOR__ but not __CUDACC__"
#endif

int macros_cpp(void)
{
    return __CUDACC_VER_MINOR__;
}
