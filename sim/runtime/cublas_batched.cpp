// cublas_batched.cpp — the simulator's batched and mixed-precision cuBLAS:
// the gemms over arrays of device pointers (SgemmBatched, DgemmBatched,
// GemmBatchedEx), GemmEx and GemmStridedBatchedEx with __half,
// __nv_bfloat16, float and double matrices (see cublas_internal.hpp for how
// a routine checks and queues its work).
#include "cublas_internal.hpp"

#include <vector>

#include "gpulab_sim/lowp.hpp"

using namespace gpulab_sim::blas;

namespace
{

using gpulab_sim::report;

// ---------------------------------------------------------------------------
// The element types of the Ex gemms.

size_t dtype_size(cudaDataType t)
{
    switch (t) {
    case CUDA_R_16F:
    case CUDA_R_16BF:
        return 2;
    case CUDA_R_32F:
        return 4;
    case CUDA_R_64F:
        return 8;
    default:
        return 0;
    }
}

double load_elem(const void *p, cudaDataType t, size_t i)
{
    unsigned short b;
    switch (t) {
    case CUDA_R_16F:
        std::memcpy(&b, (const char *)p + 2 * i, 2);
        return gpulab_sim::lowp::decode(b, 10, 5);
    case CUDA_R_16BF:
        std::memcpy(&b, (const char *)p + 2 * i, 2);
        return gpulab_sim::lowp::decode(b, 7, 8);
    case CUDA_R_32F:
        return ((const float *)p)[i];
    default:
        return ((const double *)p)[i];
    }
}

// Stores v rounded once (to nearest even) to type t.
void store_elem(void *p, cudaDataType t, size_t i, double v)
{
    unsigned short b;
    switch (t) {
    case CUDA_R_16F:
        b = gpulab_sim::lowp::encode(v, 10, 5, gpulab_sim::lowp::RN);
        std::memcpy((char *)p + 2 * i, &b, 2);
        break;
    case CUDA_R_16BF:
        b = gpulab_sim::lowp::encode(v, 7, 8, gpulab_sim::lowp::RN);
        std::memcpy((char *)p + 2 * i, &b, 2);
        break;
    case CUDA_R_32F:
        ((float *)p)[i] = (float)v;
        break;
    default:
        ((double *)p)[i] = v;
        break;
    }
}

bool known_compute(cublasComputeType_t c)
{
    switch (c) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32:
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
        return true;
    }
    return false;
}

bool known_algo(cublasGemmAlgo_t a)
{
    return (a >= CUBLAS_GEMM_DEFAULT && a <= CUBLAS_GEMM_ALGO23) ||
           (a >= CUBLAS_GEMM_DEFAULT_TENSOR_OP && a <= CUBLAS_GEMM_ALGO15_TENSOR_OP);
}

// The combinations of cuBLAS's GemmEx table that the simulator computes (the
// real types; integer and complex ones are CUBLAS_STATUS_NOT_SUPPORTED here).
bool supported_ex(cudaDataType a, cudaDataType b, cudaDataType c, cublasComputeType_t ct)
{
    if (a != b)
        return false;
    switch (ct) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
        return a == CUDA_R_16F && c == CUDA_R_16F;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
        return (a == CUDA_R_32F && c == CUDA_R_32F) ||
               ((a == CUDA_R_16F || a == CUDA_R_16BF) && (c == a || c == CUDA_R_32F));
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32:
        return a == CUDA_R_32F && c == CUDA_R_32F;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
        return a == CUDA_R_64F && c == CUDA_R_64F;
    default:
        return false;
    }
}

// alpha or beta of an Ex call: __half for 16F compute, double for 64F, float otherwise.
struct ex_scalar {
    int kind; // 0 half, 1 float, 2 double
    scalar<unsigned short> h;
    scalar<float> f;
    scalar<double> d;
    double get() const
    {
        if (kind == 0)
            return gpulab_sim::lowp::decode(h.get(), 10, 5);
        return kind == 1 ? (double)f.get() : d.get();
    }
};

cublasStatus_t load_ex_scalar(const call &c, const char *name, const void *p,
                              cublasComputeType_t ct, ex_scalar *out)
{
    *out = ex_scalar{ 1, { 0, nullptr }, { 0, nullptr }, { 0, nullptr } };
    if (ct == CUBLAS_COMPUTE_16F || ct == CUBLAS_COMPUTE_16F_PEDANTIC) {
        out->kind = 0;
        return load_scalar(c, name, (const unsigned short *)p, &out->h);
    }
    if (ct == CUBLAS_COMPUTE_64F || ct == CUBLAS_COMPUTE_64F_PEDANTIC) {
        out->kind = 2;
        return load_scalar(c, name, (const double *)p, &out->d);
    }
    return load_scalar(c, name, (const float *)p, &out->f);
}

// The types of one Ex call.
struct ex_types {
    cudaDataType a, b, c;
    cublasComputeType_t compute;
};

// Element (i, j) of op(X) for a column-major X with leading dimension ld.
double op_elem(const void *X, cudaDataType t, cublasOperation_t op, long long ld, long long i,
               long long j)
{
    return op == CUBLAS_OP_N ? load_elem(X, t, (size_t)(i + j * ld))
                             : load_elem(X, t, (size_t)(j + i * ld));
}

// One product C = alpha op(A) op(B) + beta C of an Ex call. float and double
// matrices go to OpenBLAS; 16-bit ones are widened to float (exactly), multiplied
// in float by OpenBLAS and each result rounded once to C's type.
void ex_product(const gemm_shape &g, const ex_types &t, double alpha, const void *A, const void *B,
                double beta, void *C)
{
    if (t.a == CUDA_R_32F && t.c == CUDA_R_32F) {
        product(g, (float)alpha, (const float *)A, (const float *)B, (float)beta, (float *)C);
        return;
    }
    if (t.a == CUDA_R_64F) {
        product(g, alpha, (const double *)A, (const double *)B, beta, (double *)C);
        return;
    }
    // Widen op(A) (m x k) and op(B) (k x n) into packed float matrices.
    std::vector<float> a((size_t)g.m * g.k), b((size_t)g.k * g.n), c((size_t)g.m * g.n);
    for (long long j = 0; j < g.k; j++)
        for (long long i = 0; i < g.m; i++)
            a[(size_t)(i + j * g.m)] = (float)op_elem(A, t.a, g.ta, g.lda, i, j);
    for (long long j = 0; j < g.n; j++)
        for (long long i = 0; i < g.k; i++)
            b[(size_t)(i + j * g.k)] = (float)op_elem(B, t.b, g.tb, g.ldb, i, j);
    if (g.k > 0)
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, g.m, g.n, g.k, 1.0f, a.data(), g.m,
                    b.data(), g.k, 0.0f, c.data(), g.m);
    for (long long j = 0; j < g.n; j++)
        for (long long i = 0; i < g.m; i++) {
            size_t ci = (size_t)(i + j * g.ldc);
            double v = (double)(float)(alpha * c[(size_t)(i + j * g.m)]);
            if (beta != 0)
                v = (double)(float)(v + beta * load_elem(C, t.c, ci));
            store_elem(C, t.c, ci, v);
        }
}

// The common checks of the Ex gemms; CUBLAS_STATUS_SUCCESS to go on.
cublasStatus_t ex_invalid(const gemm_shape &g, const ex_types &t, cublasGemmAlgo_t algo, int count,
                          const void *alpha, const void *beta)
{
    if (gemm_invalid(g) || count < 0 || !alpha || !beta || !known_compute(t.compute))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!known_algo(algo) || !supported_ex(t.a, t.b, t.c, t.compute))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    return CUBLAS_STATUS_SUCCESS;
}

// Elements of op(A) and op(B) as stored.
size_t a_elems(const gemm_shape &g)
{
    return g.ta == CUBLAS_OP_N ? matrix_elems(g.m, g.k, g.lda) : matrix_elems(g.k, g.m, g.lda);
}
size_t b_elems(const gemm_shape &g)
{
    return g.tb == CUBLAS_OP_N ? matrix_elems(g.k, g.n, g.ldb) : matrix_elems(g.n, g.k, g.ldb);
}

// The model's account of `count` products: 2mnk flops each; A, B once, C read and written.
void model_gemms(cudaStream_t stream, const char *fn, const gemm_shape &g, const ex_types &t,
                 long long count)
{
    double mk = (double)g.m * g.k, kn = (double)g.k * g.n, mn = (double)g.m * g.n;
    double bytes = dtype_size(t.a) * mk + dtype_size(t.b) * kn + 2.0 * dtype_size(t.c) * mn;
    gpulab_sim::model_blas(stream, fn, 2.0 * mn * g.k * count, bytes * count,
                           std::min(std::min(g.m, g.n), std::max(g.k, 1)));
}

// The common start of an Ex call: the handle and arguments checked (nothing
// to do, *none, for an empty product or batch), alpha and beta read as the
// compute type and the pointer mode say, then the operands checked.
cublasStatus_t begin_ex(cublasHandle_t h, const char *fn, call *c, const gemm_shape &g,
                        const ex_types &t, cublasGemmAlgo_t algo, int count, const void *alpha,
                        ex_scalar *a, const void *beta, ex_scalar *b,
                        std::initializer_list<operand> ops, bool *none)
{
    *none = true;
    if (!h)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    cublasStatus_t st = ex_invalid(g, t, algo, count, alpha, beta);
    if (st != CUBLAS_STATUS_SUCCESS || g.m == 0 || g.n == 0 || count == 0)
        return st;
    *none = false;
    st = begin(h, fn, c);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = load_ex_scalar(*c, "alpha", alpha, t.compute, a);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = load_ex_scalar(*c, "beta", beta, t.compute, b);
    return st == CUBLAS_STATUS_SUCCESS ? device_operands(*c, ops) : st;
}

// Strided batches of Ex products (a single GemmEx is a batch of one).
cublasStatus_t gemm_ex_strided(cublasHandle_t h, const char *fn, const gemm_shape &g,
                               const ex_types &t, const void *alpha, const void *A, long long sa,
                               const void *B, long long sb, const void *beta, void *C, long long sc,
                               int count, cublasGemmAlgo_t algo)
{
    call c;
    ex_scalar a, b;
    bool none;
    size_t za = dtype_size(t.a), zb = dtype_size(t.b), zc = dtype_size(t.c);
    auto bytes_arg = [count](const char *name, const void *p, size_t elems, long long stride,
                             size_t size) {
        operand o = batch_arg(name, (const char *)p, elems * size, stride * (long long)size, count);
        return o;
    };
    cublasStatus_t st =
        begin_ex(h, fn, &c, g, t, algo, count, alpha, &a, beta, &b,
                 { bytes_arg("A", A, a_elems(g), sa, za), bytes_arg("B", B, b_elems(g), sb, zb),
                   bytes_arg("C", C, matrix_elems(g.m, g.n, g.ldc), sc, zc) },
                 &none);
    if (st != CUBLAS_STATUS_SUCCESS || none)
        return st;
    cudaStream_t stream = h->stream;
    return queue(c, [=]() {
        double alpha_now = a.get(), beta_now = b.get();
        for (long long i = 0; i < count; i++) {
            void *Ci = (char *)C + i * sc * (long long)zc;
            ex_product(g, t, alpha_now, (const char *)A + i * sa * (long long)za,
                       (const char *)B + i * sb * (long long)zb, beta_now, Ci);
            written_matrix((const char *)Ci, g.m * (long long)zc, g.n, g.ldc * (long long)zc);
        }
        model_gemms(stream, fn, g, t, count);
    });
}

// Batches given as device arrays of device pointers. The arrays are read when
// the work runs (a copy queued before the call may fill them); a pointer that
// is not device memory is then what a GPU meets as a fault: a report and
// cudaErrorIllegalAddress, sticky.
cublasStatus_t gemm_ex_pointers(cublasHandle_t h, const char *fn, const gemm_shape &g,
                                const ex_types &t, const void *alpha, const void *const *A,
                                const void *const *B, const void *beta, void *const *C, int count,
                                cublasGemmAlgo_t algo)
{
    call c;
    ex_scalar a, b;
    bool none;
    cublasStatus_t st =
        begin_ex(h, fn, &c, g, t, algo, count, alpha, &a, beta, &b,
                 { vector_arg("Aarray", A, count, 1), vector_arg("Barray", B, count, 1),
                   vector_arg("Carray", C, count, 1) },
                 &none);
    if (st != CUBLAS_STATUS_SUCCESS || none)
        return st;
    cudaStream_t stream = h->stream;
    size_t za = dtype_size(t.a), zb = dtype_size(t.b), zc = dtype_size(t.c);
    cudaError_t e = gpulab_sim::enqueue(h->stream, fn, [=]() {
        gpulab_sim::device_memory_batch_open(); // the arrays and matrices are device memory
        double alpha_now = a.get(), beta_now = b.get();
        for (int i = 0; i < count; i++) {
            operand oa{ "Aarray[i]", A[i], 0, a_elems(g) * za, false };
            operand ob{ "Barray[i]", B[i], 0, b_elems(g) * zb, false };
            operand oc{ "Carray[i]", C[i], 0, matrix_elems(g.m, g.n, g.ldc) * zc, false };
            if (!operand_ok(c, oa) || !operand_ok(c, ob) || !operand_ok(c, oc)) {
                report("%s: matrix %d of the batch is not usable device memory", fn, i);
                return cudaErrorIllegalAddress;
            }
            ex_product(g, t, alpha_now, A[i], B[i], beta_now, C[i]);
            written_matrix((const char *)C[i], g.m * (long long)zc, g.n, g.ldc * (long long)zc);
        }
        model_gemms(stream, fn, g, t, count);
        return cudaSuccess;
    });
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

// S and D gemmBatched: the Ex path with T's own type throughout.
template <typename T>
cublasStatus_t gemm_batched(cublasHandle_t h, const char *fn, const gemm_shape &g,
                            cudaDataType type, cublasComputeType_t compute, const T *alpha,
                            const T *const *A, const T *const *B, const T *beta, T *const *C,
                            int count)
{
    ex_types t{ type, type, type, compute };
    return gemm_ex_pointers(h, fn, g, t, alpha, (const void *const *)A, (const void *const *)B,
                            beta, (void *const *)C, count, CUBLAS_GEMM_DEFAULT);
}

} // namespace

// ---------------------------------------------------------------------------
// The calls

cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k, const float *alpha,
                                  const float *const Aarray[], int lda, const float *const Barray[],
                                  int ldb, const float *beta, float *const Carray[], int ldc,
                                  int batchCount)
{
    return gemm_batched(handle, "cublasSgemmBatched", { transa, transb, m, n, k, lda, ldb, ldc },
                        CUDA_R_32F, CUBLAS_COMPUTE_32F, alpha, Aarray, Barray, beta, Carray,
                        batchCount);
}

cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const double *alpha, const double *const Aarray[], int lda,
                                  const double *const Barray[], int ldb, const double *beta,
                                  double *const Carray[], int ldc, int batchCount)
{
    return gemm_batched(handle, "cublasDgemmBatched", { transa, transb, m, n, k, lda, ldb, ldc },
                        CUDA_R_64F, CUBLAS_COMPUTE_64F, alpha, Aarray, Barray, beta, Carray,
                        batchCount);
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void *alpha,
                            const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo)
{
    gemm_shape g{ transa, transb, m, n, k, lda, ldb, ldc };
    ex_types t{ Atype, Btype, Ctype, computeType };
    return gemm_ex_strided(handle, "cublasGemmEx", g, t, alpha, A, 0, B, 0, beta, C, 0, 1, algo);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B,
                                          cudaDataType Btype, int ldb, long long int strideB,
                                          const void *beta, void *C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    gemm_shape g{ transa, transb, m, n, k, lda, ldb, ldc };
    ex_types t{ Atype, Btype, Ctype, computeType };
    return gemm_ex_strided(handle, "cublasGemmStridedBatchedEx", g, t, alpha, A, strideA, B,
                           strideB, beta, C, strideC, batchCount, algo);
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k, const void *alpha,
                                   const void *const Aarray[], cudaDataType Atype, int lda,
                                   const void *const Barray[], cudaDataType Btype, int ldb,
                                   const void *beta, void *const Carray[], cudaDataType Ctype,
                                   int ldc, int batchCount, cublasComputeType_t computeType,
                                   cublasGemmAlgo_t algo)
{
    gemm_shape g{ transa, transb, m, n, k, lda, ldb, ldc };
    ex_types t{ Atype, Btype, Ctype, computeType };
    return gemm_ex_pointers(handle, "cublasGemmBatchedEx", g, t, alpha, Aarray, Barray, beta,
                            Carray, batchCount, algo);
}
