/*
 * copying.h — lab 02: what the harness (main.c) calls in the student's files.
 *
 *   copies.cu   round trips, a copy between two devices, a cross-device add
 *   errors.cu   the errors, each provoked on purpose
 *   costs.cu    pinned host memory, copies in pieces, logging a value every step
 *
 * Pointers named h_* are host memory, d_* device memory. Every function that
 * calls the CUDA runtime returns the cudaError_t it met (cudaSuccess when all
 * went well), so the harness can report it by name.
 */
#ifndef LAB02_COPYING_H
#define LAB02_COPYING_H

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stddef.h>

#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Copies.cu
 */

/* h_out = h_in by way of the current device: cudaMalloc, copy in, copy out, cudaFree. */
cudaError_t roundtrip_raw(float *h_out, const float *h_in, size_t n);

/* The same round trip through lab_tensor: a CPU tensor, moved to `device` and
 * back to the CPU. Returns a lab_status (LAB_OK) with err filled on failure. */
int roundtrip_tensor(float *h_out, const float *h_in, size_t n, const char *device, lab_error *err);

/* h_out = h_in by way of device src_dev, then device dst_dev (cudaMemcpyPeer). */
cudaError_t peer_copy(float *h_out, const float *h_in, size_t n, int src_dev, int dst_dev);

/* h_sum = h_a + h_b with a placed on dev_a and b on dev_b: the add is refused
 * first (its message goes to `refused`), then fixed by moving b to a's device.
 * Returns a lab_status with err filled on failure. */
int add_across_devices(float *h_sum, const float *h_a, const float *h_b, size_t n,
                       const char *dev_a, const char *dev_b, char *refused, size_t refused_len,
                       lab_error *err);

/* ---------------------------------------------------------------------------
 * Errors.cu
 */

/* The sticky error of a kernel given a host pointer, and the recovery. */
typedef struct lab02_sticky_report {
    cudaError_t at_sync;     /* what cudaDeviceSynchronize after the launch returned */
    cudaError_t later_call;  /* what an unrelated call (cudaMalloc) returned after that */
    cudaError_t after_reset; /* what the same call returned after cudaDeviceReset */
} lab02_sticky_report;

void provoke_kernel_host_pointer(lab02_sticky_report *r);
cudaError_t provoke_wrong_direction(void);
cudaError_t provoke_copy_too_large(void);
cudaError_t provoke_use_after_free(void);
cudaError_t provoke_missing_device(int device_count);

/* Host code reading device memory: returns d_x[0], read by the CPU. The
 * harness calls it in a child process, since on a GPU it crashes. */
float host_reads_device(const float *d_x);

/* ---------------------------------------------------------------------------
 * Costs.cu
 */

/* A host buffer of `bytes`: pageable (malloc) or pinned (cudaMallocHost). NULL on failure. */
void *host_alloc(size_t bytes, int pinned);
void host_free(void *p, int pinned);

/* Copies `bytes` from src to dst with cudaMemcpy of `kind`, `piece` bytes at a
 * time (the last piece may be shorter); piece >= bytes is one copy. */
cudaError_t copy_in_pieces(void *dst, const void *src, size_t bytes, size_t piece,
                           enum cudaMemcpyKind kind);

/* The logging exercise: `steps` products Y = A X of n x n matrices, X = Y
 * after each, logging the Frobenius norm of each product into h_log[0..steps).
 * d_X holds X0 on entry and is overwritten; d_Y is scratch of the same size. */
cudaError_t norms_every_step(float *h_log, cublasHandle_t handle, const float *d_A, float *d_X,
                             float *d_Y, int n, int steps);
cudaError_t norms_on_device(float *h_log, cublasHandle_t handle, const float *d_A, float *d_X,
                            float *d_Y, int n, int steps);

#ifdef __cplusplus
}
#endif

#endif
