// Host code that touches device memory: a segmentation fault on a GPU, and a
// report and SIGSEGV on the simulator (protect.cpp). The first argument picks
// the access:
//   read     host code reads a device pointer after cudaMalloc and cudaMemcpy
//   write    host code writes through one after a kernel and a synchronize
//   memcpy   host memcpy from device memory (the fault is in the C library)
//   freed    host code reads device memory after cudaFree
//   async    host code reads while a kernel it launched may still run (caught
//            by the check mode's hooks; the plain program may miss it)
//   ok       what host code may touch: managed and pinned memory, and device
//            memory through copies, sets, kernels and cuBLAS; exits 0
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_));                                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

__global__ void scale(float *x, int n, float by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= by;
}

__global__ void bump(int *x)
{
    *x += 1;
}

static int ok(void)
{
    const int n = 1024;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    float *d = NULL;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    scale<<<(n + 255) / 256, 256>>>(d, n, 2.0f);
    CHECK(cudaGetLastError());
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL cublasCreate\n");
        return 1;
    }
    const float alpha = 0.5f;
    if (cublasSscal(handle, n, &alpha, d, 1) != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL cublasSscal\n");
        return 1;
    }
    float norm = 0.0f;
    if (cublasSnrm2(handle, 4, d, 1, &norm) != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL cublasSnrm2\n");
        return 1;
    }
    cublasDestroy(handle);
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != (float)i) {
            printf("FAIL h[%d] = %g after a kernel and cuBLAS (expected %d)\n", i, h[i], i);
            return 1;
        }
    if (norm < 3.74f || norm > 3.75f) {
        printf("FAIL cublasSnrm2 gave %g (expected sqrt(14))\n", norm);
        return 1;
    }
    CHECK(cudaMemset(d, 0, n * sizeof(float)));
    CHECK(cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost));
    if (h[0] != 0.0f) {
        printf("FAIL cudaMemset left %g\n", h[0]);
        return 1;
    }
    CHECK(cudaFree(d));

    // Managed memory: host and kernels alike, before and after a launch.
    int *m = NULL;
    CHECK(cudaMallocManaged(&m, sizeof(int)));
    *m = 41;
    bump<<<1, 1>>>(m);
    CHECK(cudaDeviceSynchronize());
    if (*m != 42) {
        printf("FAIL managed memory holds %d after the kernel (expected 42)\n", *m);
        return 1;
    }
    CHECK(cudaFree(m));

    // Pinned host memory: the host's own.
    float *p = NULL;
    CHECK(cudaMallocHost(&p, n * sizeof(float)));
    p[0] = 7.0f;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, p, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(p + 1, d, sizeof(float), cudaMemcpyDeviceToHost));
    if (p[1] != 7.0f) {
        printf("FAIL pinned round trip gave %g\n", p[1]);
        return 1;
    }
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(p));
    free(h);
    printf("OK host_access\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    if (strcmp(mode, "ok") == 0)
        return ok();
    const int n = 1024;
    float h[1024];
    for (int i = 0; i < n; i++)
        h[i] = 1.0f;
    float *d = NULL;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    volatile float *vd = d;
    if (strcmp(mode, "read") == 0) {
        float x = vd[5]; // host reads device memory
        printf("FAIL host code read %g from device memory\n", x);
    } else if (strcmp(mode, "write") == 0) {
        scale<<<4, 256>>>(d, n, 3.0f);
        CHECK(cudaDeviceSynchronize());
        vd[3] = 2.0f; // host writes device memory
        printf("FAIL host code wrote device memory\n");
    } else if (strcmp(mode, "memcpy") == 0) {
        memcpy(h, d, n * sizeof(float)); // host copies from device memory
        printf("FAIL host memcpy read device memory (%g)\n", h[0]);
    } else if (strcmp(mode, "freed") == 0) {
        CHECK(cudaFree(d));
        float x = vd[0]; // host reads freed device memory
        printf("FAIL host code read %g from freed device memory\n", x);
    } else if (strcmp(mode, "async") == 0) {
        scale<<<4, 256>>>(d, n, 3.0f);
        float x = vd[7]; // host reads while the kernel may run
        printf("FAIL host code read %g while a kernel ran\n", x);
    }
    return 1;
}
