// cublas_internal.hpp — what the files of the simulator's cuBLAS subset
// (cublas.cpp: handles, statuses and copies; cublas_level1.cpp;
// cublas_level23.cpp; cublas_batched.cpp: batched and mixed-precision gemms,
// batched LU) share: the handle, the operand checks, scalars in either
// pointer mode, queueing work on the handle's stream, the initcheck marks and
// the typed gemv/gemm paths. Not seen by lab code.
//
// Simulated device memory is ordinary host memory, so each routine checks its
// arguments as cuBLAS does, checks that every operand lies in device memory
// the handle's device may touch (as far as the call will touch it), and then
// queues the CBLAS call (column-major) on the handle's stream, where it runs
// in order with the program's kernels and copies. Level-1 results in pointer
// mode host are the exception: the call waits for its stream and returns the
// value, as cuBLAS does.
#ifndef GPULAB_SIM_CUBLAS_INTERNAL_HPP
#define GPULAB_SIM_CUBLAS_INTERNAL_HPP

// Standard headers first: the stand-in CUDA headers define CUDA's keywords
// (__noinline__, ...) as macros that libstdc++'s headers must not see.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>

#include <cblas.h>

#include <cublas_v2.h>

#include "check.hpp"
#include "internal.hpp"
#include "model.hpp"

// A handle: the device current at cublasCreate, the stream its work goes to
// (0, the legacy default stream, until cublasSetStream) and the pointer mode.
struct cublasContext {
    int device;
    cudaStream_t stream;
    cublasPointerMode_t mode;
    cublasMath_t math = CUBLAS_DEFAULT_MATH; // cublasSetMathMode (cublas.cpp)
};

namespace gpulab_sim
{
namespace blas
{

// ---------------------------------------------------------------------------
// One call: its name (for reports and the stream's log) and where it runs.

struct call {
    const char *fn;
    cublasHandle_t h; // null for the handle-less copies (cublasSetMatrix, ...)
    int device;       // device of the handle's stream; -1: memory of any device will do
    double t0 = 0;    // when the call began, on the timeline's CPU clock (when one is written)
};

// What an operand touches: bytes from ptr + lo (lo < 0 only for a strided
// batch with a negative stride). Nothing is checked when bytes is 0.
struct operand {
    const char *name;
    const void *ptr;
    long long lo;
    size_t bytes;
    bool scalar; // a scalar or result in pointer mode device
};

// Elements a column-major rows x cols matrix with leading dimension ld spans.
inline size_t matrix_elems(long long rows, long long cols, long long ld)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    return (size_t)((cols - 1) * ld + rows);
}

// Elements a vector of n entries spaced inc apart spans (from its lowest address).
inline size_t vector_elems(long long n, long long inc)
{
    if (n <= 0)
        return 0;
    return (size_t)(1 + (n - 1) * (inc < 0 ? -inc : inc));
}

template <typename T>
operand matrix_arg(const char *name, const T *p, int rows, int cols, int ld)
{
    return operand{ name, p, 0, matrix_elems(rows, cols, ld) * sizeof(T), false };
}

template <typename T>
operand vector_arg(const char *name, const T *p, int n, int inc)
{
    return operand{ name, p, 0, vector_elems(n, inc) * sizeof(T), false };
}

// The matrices of a strided batch: batch matrices of `elems` elements, stride
// elements apart (the stride may be 0 or negative).
template <typename T>
operand batch_arg(const char *name, const T *p, size_t elems, long long stride, int count)
{
    long long last = 0;
    if (elems == 0 || count == 0)
        return operand{ name, p, 0, 0, false };
    if (__builtin_mul_overflow((long long)count - 1, stride, &last))
        return operand{ name, p, 0, SIZE_MAX, false };
    long long span = (last < 0 ? -last : last) + (long long)elems;
    return operand{ name, p, std::min(0LL, last) * (long long)sizeof(T), (size_t)span * sizeof(T),
                    false };
}

// Whether the work of call c may touch operand o; if not, reports why.
bool operand_ok(const call &c, const operand &o);

// Checks the device operands of call c. A bad one is what a real GPU meets
// as a fault inside cuBLAS's kernel, so the simulator does what it does for a
// faulting kernel: the report at the call, and cudaErrorIllegalAddress queued
// on the stream, where it becomes the device's sticky error once the work
// before it has run. Real cuBLAS would return CUBLAS_STATUS_SUCCESS here (the
// launch succeeds, the fault comes later); we return
// CUBLAS_STATUS_EXECUTION_FAILED so the student sees the failure at the call
// that caused it, and the sticky error still shows on the next synchronizing
// CUDA call, as on a GPU.
cublasStatus_t device_operands(const call &c, std::initializer_list<operand> ops);

// Starts a call on handle h (not null): finds the device of its stream.
// A device with a sticky error runs nothing: cuBLAS's launch would fail.
cublasStatus_t begin(cublasHandle_t h, const char *fn, call *c);

// Queues work on the handle's stream.
cublasStatus_t queue(const call &c, std::function<void()> work);

// What a routine's work wrote, for initcheck: a kernel reading a cuBLAS
// result reads initialized memory. Called by the queued work, after the write.
template <typename T>
void written_matrix(const T *p, long long rows, long long cols, long long ld)
{
    if (!(gpulab_sim::check_tools() & gpulab_sim::CHECK_INIT) || rows <= 0 || cols <= 0)
        return;
    if (ld == rows) {
        gpulab_sim::check_mark_init(p, (size_t)(rows * cols) * sizeof(T));
        return;
    }
    for (long long j = 0; j < cols; j++)
        gpulab_sim::check_mark_init(p + j * ld, (size_t)rows * sizeof(T));
}

// The n entries of a vector spaced inc apart (a negative inc walks it from the
// far end: the same entries).
template <typename T>
void written_vector(const T *p, long long n, long long inc)
{
    written_matrix(p, 1, n, inc < 0 ? -inc : inc);
}

// Whether host code may not read or write p: device memory other than managed.
bool device_only(const void *p);

// cuBLAS reads a host-mode scalar, or writes a host-mode result, from the
// host: a device pointer there makes a real program crash.
cublasStatus_t host_pointer(const call &c, const char *name, const void *p);

// A scalar argument (alpha, beta): its value at call time in pointer mode
// host (the caller may reuse its variable), read when the work runs in
// pointer mode device.
template <typename T>
struct scalar {
    T value;
    const T *device;
    T get() const
    {
        return device ? *device : value;
    }
};

template <typename T>
cublasStatus_t load_scalar(const call &c, const char *name, const T *p, scalar<T> *out)
{
    *out = scalar<T>{ 0, nullptr };
    if (c.h->mode == CUBLAS_POINTER_MODE_DEVICE) {
        out->device = p;
        return device_operands(c, { operand{ name, p, 0, sizeof(T), true } });
    }
    cublasStatus_t st = host_pointer(c, name, p);
    if (st == CUBLAS_STATUS_SUCCESS)
        out->value = *p;
    return st;
}

// The common start of a routine with alpha (and beta): the stream, the
// scalars read as the pointer mode says, then the operands checked.
template <typename T>
cublasStatus_t begin_scaled(cublasHandle_t h, const char *fn, call *c, const T *alpha, scalar<T> *a,
                            const T *beta, scalar<T> *b, std::initializer_list<operand> ops)
{
    cublasStatus_t st = begin(h, fn, c);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = load_scalar(*c, "alpha", alpha, a);
    if (st == CUBLAS_STATUS_SUCCESS && beta)
        st = load_scalar(*c, "beta", beta, b);
    return st == CUBLAS_STATUS_SUCCESS ? device_operands(*c, ops) : st;
}
template <typename T>
cublasStatus_t begin_scaled(cublasHandle_t h, const char *fn, call *c, const T *alpha, scalar<T> *a,
                            std::initializer_list<operand> ops)
{
    return begin_scaled(h, fn, c, alpha, a, (const T *)nullptr, (scalar<T> *)nullptr, ops);
}

// Delivers a level-1 result: written to device memory by the queued work in
// pointer mode device; in pointer mode host the call waits for it.
template <typename R>
cublasStatus_t deliver(const call &c, R *result, std::function<R()> compute, const void *x,
                       double flops, double bytes, int n)
{
    cublasStatus_t st;
    cudaStream_t stream = c.h->stream;
    const char *fn = c.fn;
    if (c.h->mode == CUBLAS_POINTER_MODE_DEVICE) {
        st = device_operands(c, { operand{ "result", result, 0, sizeof(R), true } });
        if (st != CUBLAS_STATUS_SUCCESS)
            return st;
        return queue(c, [result, compute, stream, fn, flops, bytes, n]() {
            *result = compute();
            written_vector(result, 1, 1);
            gpulab_sim::model_blas(stream, fn, flops, bytes, n);
        });
    }
    st = host_pointer(c, "result", result);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    std::shared_ptr<R> box = std::make_shared<R>();
    st = queue(c, [box, compute, stream, fn, flops, bytes, n]() {
        *box = compute();
        gpulab_sim::model_blas(stream, fn, flops, bytes, n);
    });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (gpulab_sim::stream_sync(c.h->stream) != cudaSuccess)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    // On a GPU the result comes back to the host: a small copy the call waits for.
    gpulab_sim::model_copy(stream, result, x, sizeof(R), fn);
    *result = *box;
    return CUBLAS_STATUS_SUCCESS;
}

// ---------------------------------------------------------------------------
// Matrix operations

inline bool bad_op(cublasOperation_t op)
{
    return op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C;
}

inline CBLAS_TRANSPOSE cblas_op(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? CblasNoTrans : CblasTrans; // real types: C is T
}

inline void blas_gemv(cublasOperation_t t, int m, int n, float alpha, const float *A, int lda,
                      const float *x, int incx, float beta, float *y, int incy)
{
    cblas_sgemv(CblasColMajor, cblas_op(t), m, n, alpha, A, lda, x, incx, beta, y, incy);
}

inline void blas_gemv(cublasOperation_t t, int m, int n, double alpha, const double *A, int lda,
                      const double *x, int incx, double beta, double *y, int incy)
{
    cblas_dgemv(CblasColMajor, cblas_op(t), m, n, alpha, A, lda, x, incx, beta, y, incy);
}

// The shape arguments of a gemm.
struct gemm_shape {
    cublasOperation_t ta, tb;
    int m, n, k, lda, ldb, ldc;
};

inline void blas_gemm(const gemm_shape &g, float alpha, const float *A, const float *B, float beta,
                      float *C)
{
    cblas_sgemm(CblasColMajor, cblas_op(g.ta), cblas_op(g.tb), g.m, g.n, g.k, alpha, A, g.lda, B,
                g.ldb, beta, C, g.ldc);
}

inline void blas_gemm(const gemm_shape &g, double alpha, const double *A, const double *B,
                      double beta, double *C)
{
    cblas_dgemm(CblasColMajor, cblas_op(g.ta), cblas_op(g.tb), g.m, g.n, g.k, alpha, A, g.lda, B,
                g.ldb, beta, C, g.ldc);
}

// A float GEMM of a shape cublas_small.cpp computes itself (a thin side,
// on a processor with AVX-512): done when it returns true.
bool small_sgemm(const gemm_shape &g, float alpha, const float *A, const float *B, float beta,
                 float *C);

// beta == 0 means "C is output only" in BLAS: C may hold garbage or NaN (or
// the simulator's poison). Zeroing it first keeps that true whatever the
// CBLAS build does with 0 * NaN.
template <typename T>
void zero_matrix(T *C, int rows, int cols, int ld)
{
    for (int j = 0; j < cols; j++)
        std::memset(C + (size_t)j * ld, 0, (size_t)rows * sizeof(T));
}

// The beta to hand CBLAS for a call's beta: C (rows x cols) zeroed and 1
// when it is 0, as OpenBLAS would otherwise write C's zeros a second time
// (C + AB with C zero: the same bits); else beta itself.
template <typename T>
T output_beta(T beta, T *C, int rows, int cols, int ld)
{
    if (beta != T(0))
        return beta;
    zero_matrix(C, rows, cols, ld);
    return T(1);
}

// C = alpha op(A) op(B) + beta C, C output only when beta is 0.
inline void product(const gemm_shape &g, float alpha, const float *A, const float *B, float beta,
                    float *C)
{
    if (!small_sgemm(g, alpha, A, B, beta, C))
        blas_gemm(g, alpha, A, B, output_beta(beta, C, g.m, g.n, g.ldc), C);
}

inline void product(const gemm_shape &g, double alpha, const double *A, const double *B,
                    double beta, double *C)
{
    blas_gemm(g, alpha, A, B, output_beta(beta, C, g.m, g.n, g.ldc), C);
}

template <typename T>
cublasStatus_t gemv(cublasHandle_t h, const char *fn, cublasOperation_t t, int m, int n,
                    const T *alpha, const T *A, int lda, const T *x, int incx, const T *beta, T *y,
                    int incy)
{
    call c;
    scalar<T> a, b;
    if (!h)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (bad_op(t) || m < 0 || n < 0 || lda < std::max(1, m) || incx == 0 || incy == 0 || !alpha ||
        !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    int xlen = t == CUBLAS_OP_N ? n : m, ylen = t == CUBLAS_OP_N ? m : n;
    cublasStatus_t st =
        begin_scaled(h, fn, &c, alpha, &a, beta, &b,
                     { matrix_arg("A", A, m, n, lda), vector_arg("x", x, xlen, incx),
                       vector_arg("y", y, ylen, incy) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = h->stream;
    return queue(c, [=]() {
        T beta_now = output_beta(b.get(), y, 1, ylen, incy < 0 ? -incy : incy);
        blas_gemv(t, m, n, a.get(), A, lda, x, incx, beta_now, y, incy);
        written_vector(y, ylen, incy);
        // The matrix once, x once, y read and written: 2mn flops.
        gpulab_sim::model_blas(stream, fn, 2.0 * m * n,
                               sizeof(T) * ((double)m * n + xlen + 2.0 * ylen), std::min(m, n));
    });
}

inline bool gemm_invalid(const gemm_shape &g)
{
    int arows = g.ta == CUBLAS_OP_N ? g.m : g.k, brows = g.tb == CUBLAS_OP_N ? g.k : g.n;
    return bad_op(g.ta) || bad_op(g.tb) || g.m < 0 || g.n < 0 || g.k < 0 ||
           g.lda < std::max(1, arows) || g.ldb < std::max(1, brows) || g.ldc < std::max(1, g.m);
}

// gemm and strided batched gemm: C_i = alpha op(A_i) op(B_i) + beta C_i for
// i < count, X_i = X + i * strideX.
template <typename T>
cublasStatus_t gemm(cublasHandle_t h, const char *fn, const gemm_shape &g, const T *alpha,
                    const T *A, long long sa, const T *B, long long sb, const T *beta, T *C,
                    long long sc, int count)
{
    call c;
    scalar<T> a, b;
    if (!h)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (gemm_invalid(g) || count < 0 || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (g.m == 0 || g.n == 0 || count == 0)
        return CUBLAS_STATUS_SUCCESS;
    size_t ea = g.ta == CUBLAS_OP_N ? matrix_elems(g.m, g.k, g.lda) : matrix_elems(g.k, g.m, g.lda);
    size_t eb = g.tb == CUBLAS_OP_N ? matrix_elems(g.k, g.n, g.ldb) : matrix_elems(g.n, g.k, g.ldb);
    cublasStatus_t st =
        begin_scaled(h, fn, &c, alpha, &a, beta, &b,
                     { batch_arg("A", A, ea, sa, count), batch_arg("B", B, eb, sb, count),
                       batch_arg("C", C, matrix_elems(g.m, g.n, g.ldc), sc, count) });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cudaStream_t stream = h->stream;
    return queue(c, [=]() {
        T alpha_now = a.get(), beta_now = b.get();
        for (long long i = 0; i < count; i++) {
            product(g, alpha_now, A + i * sa, B + i * sb, beta_now, C + i * sc);
            written_matrix(C + i * sc, g.m, g.n, g.ldc);
        }
        // 2mnk flops per product; A, B once, C read and written.
        double mk = (double)g.m * g.k, kn = (double)g.k * g.n, mn = (double)g.m * g.n;
        gpulab_sim::model_blas(stream, fn, 2.0 * mn * g.k * count,
                               sizeof(T) * (mk + kn + 2 * mn) * count,
                               std::min(std::min(g.m, g.n), std::max(g.k, 1)));
    });
}

// ---------------------------------------------------------------------------
// Vector operations

// The common start of a level-1 call that modifies vectors: handle, stream, operands.
inline cublasStatus_t begin_level1(cublasHandle_t h, const char *fn, call *c,
                                   std::initializer_list<operand> ops)
{
    cublasStatus_t st = begin(h, fn, c);
    return st == CUBLAS_STATUS_SUCCESS ? device_operands(*c, ops) : st;
}

// The common path of a level-1 reduction: n <= 0 (and, for the routines that
// take only positive increments, incx <= 0) gives a result of 0.
template <typename R>
cublasStatus_t reduce(cublasHandle_t h, const char *fn, std::initializer_list<operand> ops,
                      R *result, std::function<R()> compute, int n, int vectors)
{
    call c;
    if (!h)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasStatus_t st = begin_level1(h, fn, &c, ops);
    // The model: each vector read once, about 2 flops per element.
    const void *x = ops.size() ? ops.begin()->ptr : nullptr;
    double elems = n > 0 ? (double)n : 0.0;
    return st == CUBLAS_STATUS_SUCCESS
               ? deliver(c, result, compute, x, 2.0 * elems, 4.0 * elems * vectors, n)
               : st;
}

} // namespace blas
} // namespace gpulab_sim

#endif // GPULAB_SIM_CUBLAS_INTERNAL_HPP
