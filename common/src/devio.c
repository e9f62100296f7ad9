/* Harness arrays to the device and back: see lab/devio.h. */
#include "lab/devio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "lab/alloc.h"
#include "lab/check.h"

/* Reports a failed call as LAB_CHECK does, at the caller's place, and exits. */
static void check(cudaError_t e, const char *call, size_t bytes, const char *file, int line)
{
    char text[160];
    if (e == cudaSuccess)
        return;
    snprintf(text, sizeof(text), "%s of %zu bytes", call, bytes);
    lab_check_cuda_failed(e, text, file, line);
}

int lab_unwritten(const void *host, size_t bytes)
{
    const unsigned char *b = (const unsigned char *)host;
    if (bytes == 0)
        return 0;
    for (size_t i = 0; i < bytes; i++)
        if (b[i] != LAB_UNWRITTEN_BYTE)
            return 0;
    return 1;
}

void *lab_to_device_at(const void *host, size_t bytes, const char *file, int line)
{
    void *dev = NULL;
    check(cudaMalloc(&dev, bytes ? bytes : 1), "cudaMalloc", bytes, file, line);
    if (bytes)
        check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (host to device)",
              bytes, file, line);
    return dev;
}

void *lab_device_output_at(size_t bytes, const char *file, int line)
{
    void *dev = NULL;
    check(cudaMalloc(&dev, bytes ? bytes : 1), "cudaMalloc", bytes, file, line);
    check(cudaMemset(dev, LAB_UNWRITTEN_BYTE, bytes ? bytes : 1), "cudaMemset", bytes, file, line);
    return dev;
}

void lab_from_device_at(void *host, const void *dev, size_t bytes, const char *file, int line)
{
    if (bytes)
        check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (device to host)",
              bytes, file, line);
}

void lab_device_free_at(void *dev, const char *file, int line)
{
    if (dev)
        check(cudaFree(dev), "cudaFree", 0, file, line);
}

void *lab_input_to_device_at(lab_npy_array *arr, const lab_args *args, const char *name,
                             lab_dtype dtype, int ndim, const char *file, int line)
{
    lab_input(arr, args, name, dtype, ndim);
    return lab_to_device_at(arr->data, arr->count * lab_dtype_size(arr->dtype), file, line);
}

void lab_output_from_device_at(const lab_args *args, const char *name, lab_dtype dtype, int ndim,
                               const size_t *shape, const void *dev, const char *why,
                               const char *file, int line)
{
    size_t count = 1;
    for (int i = 0; i < ndim && i < LAB_NPY_MAX_DIMS; i++) /* lab_output names a bad ndim */
        count *= shape[i];
    size_t bytes = count * lab_dtype_size(dtype);
    void *host = lab_xmalloc(bytes);
    lab_from_device_at(host, dev, bytes, file, line);
    lab_output(args, name, dtype, ndim, shape, host);
    int none = lab_unwritten(host, bytes);
    free(host);
    if (none) {
        fflush(stdout);
        fprintf(stderr,
                "%s: nothing was written to %s.npy (every byte still holds the 0x%02x the "
                "harness filled it with)%s%s\n",
                args->program, name, LAB_UNWRITTEN_BYTE, why ? ": " : "", why ? why : "");
        exit(LAB_EXIT_FAIL);
    }
}
