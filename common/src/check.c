/* Error-checking macros' reporting functions: see lab/check.h. */
#include "lab/check.h"

#include <stdio.h>
#include <stdlib.h>

/* cuBLAS status values and their meaning, from the cuBLAS documentation. */
static const struct {
    int status;
    const char *name;
    const char *text;
} cublas_statuses[] = {
    { 0, "CUBLAS_STATUS_SUCCESS", "the operation completed successfully" },
    { 1, "CUBLAS_STATUS_NOT_INITIALIZED",
      "the cuBLAS library was not initialized (call cublasCreate first)" },
    { 3, "CUBLAS_STATUS_ALLOC_FAILED", "resource allocation failed inside the cuBLAS library" },
    { 7, "CUBLAS_STATUS_INVALID_VALUE",
      "an unsupported value or parameter was passed to the function (a negative size, a "
      "leading dimension smaller than the rows, ...)" },
    { 8, "CUBLAS_STATUS_ARCH_MISMATCH",
      "the function requires a feature absent from the device architecture" },
    { 11, "CUBLAS_STATUS_MAPPING_ERROR", "an access to GPU memory space failed" },
    { 13, "CUBLAS_STATUS_EXECUTION_FAILED", "the GPU program failed to execute" },
    { 14, "CUBLAS_STATUS_INTERNAL_ERROR", "an internal cuBLAS operation failed" },
    { 15, "CUBLAS_STATUS_NOT_SUPPORTED", "the functionality requested is not supported" },
    { 16, "CUBLAS_STATUS_LICENSE_ERROR", "the functionality requested requires a license" },
};

const char *lab_cublas_status_name(int status)
{
    for (size_t i = 0; i < sizeof(cublas_statuses) / sizeof(cublas_statuses[0]); i++)
        if (cublas_statuses[i].status == status)
            return cublas_statuses[i].name;
    return "CUBLAS_STATUS_UNKNOWN";
}

const char *lab_cublas_status_string(int status)
{
    for (size_t i = 0; i < sizeof(cublas_statuses) / sizeof(cublas_statuses[0]); i++)
        if (cublas_statuses[i].status == status)
            return cublas_statuses[i].text;
    return "a status value cuBLAS does not define";
}

const char *lab_cuda_error_hint(cudaError_t err)
{
    switch (err) {
    case cudaErrorInvalidConfiguration:
        return "check the launch configuration: at most 1024 threads per block, no zero "
               "grid or block dimension, dynamic shared memory within the device's limit";
    case cudaErrorIllegalAddress:
        return "a kernel read or wrote memory it does not own (an index past the end, a host "
               "pointer, a freed buffer). This error is sticky: every later CUDA call fails "
               "until cudaDeviceReset. Run under compute-sanitizer (or GPULAB_SIM_CHECK=memcheck "
               "on the simulator) to find the line";
    case cudaErrorMemoryAllocation:
        return "the device is out of memory: free buffers you no longer need, or use smaller "
               "sizes (cudaMemGetInfo tells what is free)";
    case cudaErrorInvalidValue:
        return "an argument is out of range: check sizes, pointers and the cudaMemcpyKind "
               "direction";
    case cudaErrorInvalidDevice:
        return "no device has that index: cudaGetDeviceCount tells how many there are";
    case cudaErrorInsufficientDriver:
        return "no NVIDIA driver is installed, or it is older than this CUDA runtime; "
               "without a GPU use the sim backend";
    case cudaErrorNoDevice:
        return "the driver sees no CUDA-capable GPU (check nvidia-smi and "
               "CUDA_VISIBLE_DEVICES); without a GPU use the sim backend";
    case cudaErrorLaunchTimeout:
        return "a kernel ran too long (an endless loop, or a barrier some threads never reach)";
    case cudaErrorAssert:
        return "a device-side assert() failed; its message, with the kernel, block and thread, "
               "was printed above";
    default:
        return NULL;
    }
}

void lab_check_cuda_failed(cudaError_t err, const char *call, const char *file, int line)
{
    const char *hint = lab_cuda_error_hint(err);
    fflush(stdout);
    fprintf(stderr, "%s:%d: %s failed: %s (%d): %s\n", file, line, call, cudaGetErrorName(err),
            (int)err, cudaGetErrorString(err));
    if (hint)
        fprintf(stderr, "hint: %s\n", hint);
    exit(1);
}

void lab_check_status_failed(int status, const lab_error *err, const char *call, const char *file,
                             int line)
{
    const char *hint =
        err && err->cuda_error ? lab_cuda_error_hint((cudaError_t)err->cuda_error) : NULL;
    fflush(stdout);
    fprintf(stderr, "%s:%d: %s failed: %s: %s\n", file, line, call, lab_status_name(status),
            err && err->msg[0] ? err->msg : "(no message)");
    if (hint)
        fprintf(stderr, "hint: %s\n", hint);
    exit(1);
}

void lab_check_cublas_failed(int status, const char *call, const char *file, int line)
{
    fflush(stdout);
    fprintf(stderr, "%s:%d: %s failed: %s (%d): %s\n", file, line, call,
            lab_cublas_status_name(status), status, lab_cublas_status_string(status));
    exit(1);
}
