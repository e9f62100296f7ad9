/*
 * errors.cu — lab 02, part 2: the errors, each provoked on purpose.
 *
 * Every function here makes one mistake deliberately and returns the error
 * CUDA gave for it, so that you see each one once, by name, in a program you
 * control, before you meet it in one you do not. After each non-sticky error
 * the function clears it (cudaGetLastError) so the next part starts clean.
 *
 *   host_reads_device            the CPU dereferences a device pointer
 *   provoke_kernel_host_pointer  a kernel given a host pointer: the sticky error
 *   provoke_wrong_direction      cudaMemcpy told the wrong direction
 *   provoke_copy_too_large       a copy longer than the allocation
 *   provoke_use_after_free       a copy from memory already freed
 *   provoke_missing_device       cudaSetDevice on a device that does not exist
 *
 * The plain CPU code of the same mistakes, where nothing checks them:
 *
 *   float *p = malloc(bytes);            host memory: the CPU reads p[0] at will
 *   memcpy(dst, src, 2 * bytes);         past the end: undefined, no error returned
 *   free(p); memcpy(dst, p, bytes);      after free: undefined, no error returned
 *
 * CUDA checks each copy and names what is wrong; a kernel's bad access shows
 * later, as an error that sticks (the sticky error below).
 */
#include "copying.h"

#include "lab/todo.h"

#include <stdlib.h>
#include <string.h>

#define N 4096 // floats in each buffer of this file

/* ---------------------------------------------------------------------------
 * Kernels
 */

// Writes p[i] = i. Correct code; the mistake is in what it is given.
__global__ void write_ids_kernel(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = (float)i;
}

/* ---------------------------------------------------------------------------
 * The CPU and device memory
 */

float host_reads_device(const float *d_x)
{
    // TODO 5: return d_x[0] — read the device pointer from host code, on
    // purpose. (The harness runs this in a child process, because on a GPU,
    // and on the simulator, it crashes.) About 1 line.
    LAB_TODO_UNUSED(d_x);
    return 0.0f;
}

/* ---------------------------------------------------------------------------
 * A kernel given host memory: the sticky error
 */

void provoke_kernel_host_pointer(lab02_sticky_report *r)
{
    float *h_p = (float *)calloc(N, sizeof(float));
    r->at_sync = r->later_call = r->after_reset = cudaSuccess;
    if (!h_p) {
        r->at_sync = cudaErrorMemoryAllocation;
        return;
    }
    // TODO 6: launch write_ids_kernel<<<N / 256, 256>>>(h_p, N) — a host
    // pointer, on purpose — and store cudaDeviceSynchronize()'s result in
    // r->at_sync. Then try a cudaMalloc of N floats (float *d_p) and store
    // its result in r->later_call (sticky: it fails too). Recover with
    // cudaDeviceReset(), clear the last error with cudaGetLastError(), and
    // store a fresh cudaMalloc's result in r->after_reset (free it if it worked). About 8 lines.
    free(h_p);
}

/* ---------------------------------------------------------------------------
 * Copies that cannot be done
 */

cudaError_t provoke_wrong_direction(void)
{
    float *d_x = NULL;
    cudaError_t e = cudaMalloc(&d_x, N * sizeof(float));
    if (e != cudaSuccess)
        return e;
    // TODO 7: make a host array float h_x[N] = { 0 } and copy it to d_x with
    // the wrong direction, cudaMemcpy(d_x, h_x, sizeof(h_x),
    // cudaMemcpyDeviceToHost); keep the error it returns in e, then clear it
    // with cudaGetLastError(). About 3 lines.
    cudaFree(d_x);
    return e;
}

cudaError_t provoke_copy_too_large(void)
{
    float *d_x = NULL;
    cudaError_t e = cudaMalloc(&d_x, N * sizeof(float));
    if (e != cudaSuccess)
        return e;
    // TODO 8: make a host array static float h_x[2 * N] and copy sizeof(h_x)
    // bytes (2N floats) from d_x, which holds only N, into it
    // (cudaMemcpyDeviceToHost); keep the error in e, then clear it. About 3 lines.
    cudaFree(d_x);
    return e;
}

cudaError_t provoke_use_after_free(void)
{
    float h_x[N];
    float *d_x = NULL;
    cudaError_t e = cudaMalloc(&d_x, sizeof(h_x));
    if (e != cudaSuccess)
        return e;
    e = cudaMemset(d_x, 0, sizeof(h_x));
    if (e != cudaSuccess)
        return e;
    cudaFree(d_x);
    // TODO 9: d_x was freed just above. Copy from it anyway into h_x
    // (cudaMemcpyDeviceToHost), keep the error in e, then clear it. About 2 lines.
    LAB_TODO_UNUSED(h_x);
    return e;
}

cudaError_t provoke_missing_device(int device_count)
{
    cudaError_t e = cudaSuccess;
    // TODO 10: ask for device number device_count (one past the last) with
    // cudaSetDevice, keep the error in e, then clear it with cudaGetLastError(). About 2 lines.
    LAB_TODO_UNUSED(device_count);
    return e;
}
