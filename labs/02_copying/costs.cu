/*
 * costs.cu — lab 02, part 3: what copies cost.
 *
 *   host_alloc / host_free   pageable (malloc) or pinned (cudaMallocHost) host memory
 *   copy_in_pieces           the same bytes as one cudaMemcpy or as many small ones
 *   norms_every_step         1000 products, each norm copied to the host at once (given)
 *   norms_on_device          the same, the norms logged on the device, copied once
 *
 * The plain CPU code these port, where a copy costs only its bytes and the
 * log is already where the work is:
 *
 *   memcpy(dst, src, bytes);                           one copy
 *   for (off = 0; off < bytes; off += piece)           the same bytes in pieces
 *       memcpy(dst + off, src + off, min(piece, bytes - off));
 *   for (s = 0; s < steps; s++) {                      the log: X = A X, then its
 *       matmul(Y, A, X); swap(X, Y);                   Frobenius norm, one per step
 *       log[s] = norm(X);
 *   }
 *
 * The harness times these with the CPU wall clock: every call here is
 * synchronous (it returns when the copy is done), so the clock measures the
 * copies. On the sim backend the copies are CPU memcpy, and the figures are
 * the simulator's, not a PCIe bus's.
 */
#include "copying.h"

#include "lab/todo.h"

#include <stdlib.h>

/* ---------------------------------------------------------------------------
 * Host memory
 */

void *host_alloc(size_t bytes, int pinned)
{
    // TODO 11: when `pinned` is set, allocate with cudaMallocHost(&p, bytes)
    // (return NULL if it fails); otherwise malloc. For now both are malloc. About 4 lines.
    LAB_TODO_UNUSED(pinned);
    return malloc(bytes);
}

void host_free(void *p, int pinned)
{
    // TODO 12: memory from cudaMallocHost is released with cudaFreeHost, not free. About 5 lines.
    LAB_TODO_UNUSED(pinned);
    free(p);
}

/* ---------------------------------------------------------------------------
 * Copies, whole or in pieces
 */

cudaError_t copy_in_pieces(void *dst, const void *src, size_t bytes, size_t piece,
                           cudaMemcpyKind kind)
{
    if (piece == 0 || piece > bytes)
        piece = bytes;
    // TODO 13: copy all `bytes`, `piece` bytes at a time: one cudaMemcpy of
    // min(piece, bytes - off) bytes at offset off, for off = 0, piece,
    // 2 * piece, ... For now only the first piece is copied. About 6 lines.
    return cudaMemcpy(dst, src, piece, kind);
}

/* ---------------------------------------------------------------------------
 * The logging exercise: 1000 products of n x n matrices
 */

// Y = A X (column-major, as cuBLAS sees it; the Frobenius norm does not care).
static cublasStatus_t product(cublasHandle_t handle, const float *d_A, const float *d_X, float *d_Y,
                              int n)
{
    const float one = 1.0f, zero = 0.0f;
    return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, d_A, n, d_X, n, &zero, d_Y,
                       n);
}

// Logging every step: the norm comes back to the host after each product, so
// the host waits for the device 1000 times and sends each next product only
// after the previous result arrived.
cudaError_t norms_every_step(float *h_log, cublasHandle_t handle, const float *d_A, float *d_X,
                             float *d_Y, int n, int steps)
{
    for (int k = 0; k < steps; k++) {
        if (product(handle, d_A, d_X, d_Y, n) != CUBLAS_STATUS_SUCCESS)
            return cudaErrorUnknown;
        // Host pointer mode (the default): Snrm2 returns when the value is in h_log[k].
        if (cublasSnrm2(handle, n * n, d_Y, 1, &h_log[k]) != CUBLAS_STATUS_SUCCESS)
            return cudaErrorUnknown;
        float *t = d_X; // the product is the next step's X
        d_X = d_Y;
        d_Y = t;
    }
    return cudaGetLastError();
}

// Keeping the log on the device: each norm goes to d_log[k] in device memory,
// nothing waits, and one copy at the end brings all of them home.
cudaError_t norms_on_device(float *h_log, cublasHandle_t handle, const float *d_A, float *d_X,
                            float *d_Y, int n, int steps)
{
    // TODO 14: the same loop as norms_every_step, but with the log on the
    // device: cudaMalloc a d_log of `steps` floats; around each cublasSnrm2,
    // switch the handle to cublasSetPointerMode(handle,
    // CUBLAS_POINTER_MODE_DEVICE) so that it writes its result to &d_log[k]
    // (device memory), and back to CUBLAS_POINTER_MODE_HOST after it (the
    // product's alpha and beta are host variables). After the loop copy d_log
    // into h_log once, and free it. About 20 lines.
    LAB_TODO_UNUSED(h_log, handle, d_A, d_X, d_Y, n, steps);
    return cudaSuccess;
}
