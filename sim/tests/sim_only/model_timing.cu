// model_timing — simulator only, run with GPULAB_SIM_MODEL=<gpu> and
// GPULAB_SIM_MODEL_REPORT=<file> (model_check.cmake does, for every profile):
// work whose modeled times must rank as on a GPU. It times with CUDA events,
// as unchanged CUDA code does, and prints one line per measurement that
// model_check.cmake compares with the report:
// - copy_coalesced and copy_strided move the same elements; a warp of the
//   coalesced one touches 4 + 4 sectors, of the strided one 32 + 4 (4.5
//   times as many), and the strided one must be modeled slower;
// - H2D copies of the same bytes from pinned and from pageable memory;
// - one 4 MiB copy and the same bytes in 4 KiB pieces.
// On the T4 the event time of copy_coalesced must be the formula's value
// (docs/model.md: 5 us launch + 8 MiB at 85% of 320 GB/s (30.84 us) + 4.66 us
// of instructions = 40.50 us).
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulab_sim/model.h"

#define N (1 << 20)      /* elements copied by each kernel */
#define STRIDE 8         /* floats between the elements a strided warp reads */
#define BYTES (4u << 20) /* bytes of each host-to-device copy */
#define PIECE 4096u      /* bytes of each small copy */

// out[i] = in[i]: a warp reads and writes 128 consecutive bytes (4 sectors).
__global__ void copy_coalesced(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// The same count of elements, read STRIDE floats apart: a warp's load touches
// 32 sectors, its store 4.
__global__ void copy_strided(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(size_t)i * STRIDE];
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));                                \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static cudaEvent_t t0, t1;

static float elapsed(void)
{
    float ms = -1.0f;
    CHECK(cudaEventRecord(t1, 0));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    return ms;
}

int main(void)
{
    const char *gpu = gpulab_sim_model_gpu();
    const char *clock = gpu ? gpu : "simulator CPU time";
    float *in, *out, *pinned, *pageable, *d_buf;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaMalloc((void **)&in, (size_t)N * STRIDE * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, (size_t)N * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_buf, BYTES));
    CHECK(cudaMemset(in, 0, (size_t)N * STRIDE * sizeof(float)));
    CHECK(cudaMallocHost((void **)&pinned, BYTES));
    pageable = (float *)malloc(BYTES);
    if (!pageable) {
        printf("FAIL out of host memory\n");
        return 1;
    }
    memset(pinned, 0, BYTES);
    memset(pageable, 0, BYTES);

    CHECK(cudaEventRecord(t0, 0));
    copy_coalesced<<<N / 256, 256>>>(in, out, N);
    float coalesced = elapsed();
    CHECK(cudaEventRecord(t0, 0));
    copy_strided<<<N / 256, 256>>>(in, out, N);
    float strided = elapsed();
    CHECK(cudaEventRecord(t0, 0));
    CHECK(cudaMemcpy(d_buf, pinned, BYTES, cudaMemcpyHostToDevice));
    float h2d_pinned = elapsed();
    CHECK(cudaEventRecord(t0, 0));
    CHECK(cudaMemcpy(d_buf, pageable, BYTES, cudaMemcpyHostToDevice));
    float h2d_pageable = elapsed();
    CHECK(cudaEventRecord(t0, 0));
    for (unsigned off = 0; off < BYTES; off += PIECE)
        CHECK(cudaMemcpyAsync((char *)d_buf + off, (char *)pinned + off, PIECE,
                              cudaMemcpyHostToDevice, 0));
    float h2d_pieces = elapsed();

    printf("times (%s%s):\n", gpu ? "modeled " : "", clock);
    printf("copy_coalesced %.6f ms\ncopy_strided %.6f ms\n", coalesced, strided);
    printf("h2d_pinned %.6f ms\nh2d_pageable %.6f ms\nh2d_pieces %.6f ms\n", h2d_pinned,
           h2d_pageable, h2d_pieces);
    int ok = coalesced > 0 && strided > 0 && h2d_pinned > 0;
    if (gpu) {
        ok &= coalesced < strided && h2d_pinned < h2d_pageable && h2d_pinned < h2d_pieces;
        if (strcmp(gpu, "NVIDIA T4") == 0)
            ok &= fabs(coalesced - 0.040505) < 1e-5;
    }
    cudaFree(in);
    cudaFree(out);
    cudaFree(d_buf);
    cudaFreeHost(pinned);
    free(pageable);
    printf("%s model_timing\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
