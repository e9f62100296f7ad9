// 42_cublas_ext — cuBLAS beyond plain gemm, against CPU loops (column-major):
// Isamax/Isamin (1-based), Sasum, Scopy, Sswap, Sger, Ssymv, Strsm, Sgeam,
// SgemmBatched, GemmEx / GemmStridedBatchedEx / GemmBatchedEx with float,
// half, bfloat16 and double matrices, math and pointer modes (results and
// scalars in device memory), and the status codes of bad arguments.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <string.h>

#include "conformance.h"

#define CHECK_BLAS(call)                                                                           \
    do {                                                                                           \
        cublasStatus_t st_ = (call);                                                               \
        conf_check(st_ == CUBLAS_STATUS_SUCCESS, "%s -> %d", #call, (int)st_);                     \
    } while (0)
#define CHECK_STATUS(call, want)                                                                   \
    do {                                                                                           \
        cublasStatus_t st_ = (call);                                                               \
        conf_check(st_ == (want), "%s -> %d, want %d", #call, (int)st_, (int)(want));              \
    } while (0)

static float *dev_floats(const float *h, int n)
{
    float *d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static void get_floats(float *h, const float *d, int n)
{
    CHECK_CUDA(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
}

static int near_all(const float *got, const float *want, int n, float tol)
{
    for (int i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= tol * (1 + fabsf(want[i]))))
            return 0;
    return 1;
}

// Small integers: every product and sum below is exact in half, bfloat16 and float.
static float small(unsigned *seed)
{
    return (float)((int)(conf_lcg(seed) % 5) - 2);
}

// C = alpha op(A) op(B) + beta C on the CPU (column-major).
static void ref_gemm(int ta, int tb, int m, int n, int k, float alpha, const float *A, int lda,
                     const float *B, int ldb, float beta, float *C, int ldc)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int p = 0; p < k; p++)
                s += (double)(ta ? A[p + i * lda] : A[i + p * lda]) *
                     (tb ? B[j + p * ldb] : B[p + j * ldb]);
            C[i + j * ldc] = (float)(alpha * s + (beta != 0 ? beta * C[i + j * ldc] : 0));
        }
}

static void level1(cublasHandle_t h)
{
    float x[9] = { 3, -7, 2, 7, -1, 0.5f, -0.5f, 4, 1 };
    float *dx = dev_floats(x, 9), *dy;
    int r = -1;
    CHECK_BLAS(cublasIsamax(h, 9, dx, 1, &r));
    conf_check(r == 2, "Isamax: %d (first of the two |7|)", r);
    CHECK_BLAS(cublasIsamin(h, 9, dx, 1, &r));
    conf_check(r == 6, "Isamin: %d", r);
    CHECK_BLAS(cublasIsamin(h, 5, dx, 2, &r)); // 3, 2, -1, -0.5, 1
    conf_check(r == 4, "Isamin incx 2: %d", r);
    CHECK_BLAS(cublasIsamin(h, 0, dx, 1, &r));
    conf_check(r == 0, "Isamin n = 0: %d", r);
    float s = 0;
    CHECK_BLAS(cublasSasum(h, 9, dx, 1, &s));
    conf_check(s == 26.0f, "Sasum: %g", s);

    // Results in device memory (pointer mode device).
    int *dr;
    float *ds;
    CHECK_CUDA(cudaMalloc(&dr, 2 * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&ds, sizeof(float)));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    cublasPointerMode_t mode;
    CHECK_BLAS(cublasGetPointerMode(h, &mode));
    conf_check(mode == CUBLAS_POINTER_MODE_DEVICE, "pointer mode device");
    CHECK_BLAS(cublasIsamax(h, 9, dx, 1, dr));
    CHECK_BLAS(cublasIsamin(h, 9, dx, 1, dr + 1));
    CHECK_BLAS(cublasSasum(h, 4, dx, 2, ds));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    int rr[2];
    CHECK_CUDA(cudaMemcpy(rr, dr, sizeof rr, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&s, ds, sizeof s, cudaMemcpyDeviceToHost));
    conf_check(rr[0] == 2 && rr[1] == 6, "device results Isamax %d Isamin %d", rr[0], rr[1]);
    conf_check(s == 6.5f, "device result Sasum incx 2: %g", s);

    // Scopy with strides, then Sswap.
    float y[9] = { 0 }, got[9];
    dy = dev_floats(y, 9);
    CHECK_BLAS(cublasScopy(h, 3, dx, 3, dy, 1)); // x0, x3, x6
    get_floats(got, dy, 3);
    conf_check(got[0] == 3 && got[1] == 7 && got[2] == -0.5f, "Scopy incx 3");
    CHECK_BLAS(cublasSswap(h, 3, dx, 1, dy, 1));
    get_floats(got, dx, 3);
    conf_check(got[0] == 3 && got[1] == 7 && got[2] == -0.5f, "Sswap x");
    get_floats(got, dy, 3);
    conf_check(got[0] == 3 && got[1] == -7 && got[2] == 2, "Sswap y");
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dy));
    CHECK_CUDA(cudaFree(dr));
    CHECK_CUDA(cudaFree(ds));
}

static void level2(cublasHandle_t h, unsigned *seed)
{
    enum { M = 5, N = 4, LDA = 7 };
    float A[LDA * N], x[M], y[N], want[LDA * N], got[LDA * N];
    for (int i = 0; i < LDA * N; i++)
        A[i] = small(seed);
    for (int i = 0; i < M; i++)
        x[i] = small(seed);
    for (int i = 0; i < N; i++)
        y[i] = small(seed);
    float alpha = 1.5f;
    memcpy(want, A, sizeof A);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++)
            want[i + j * LDA] += alpha * x[i] * y[j];
    float *dA = dev_floats(A, LDA * N), *dx = dev_floats(x, M), *dy = dev_floats(y, N);
    CHECK_BLAS(cublasSger(h, M, N, &alpha, dx, 1, dy, 1, dA, LDA));
    get_floats(got, dA, LDA * N);
    conf_check(near_all(got, want, LDA * N, 0), "Sger (rows past M untouched)");

    // Ssymv: only the named triangle is read (the other holds garbage).
    enum { S = 6 };
    float Sm[S * S], sx[S], sy[S], full[S * S], wy[S], gy[S];
    for (int j = 0; j < S; j++)
        for (int i = 0; i <= j; i++)
            full[i + j * S] = full[j + i * S] = small(seed);
    for (int i = 0; i < S; i++) {
        sx[i] = small(seed);
        sy[i] = small(seed);
    }
    for (int up = 0; up < 2; up++) {
        for (int j = 0; j < S; j++)
            for (int i = 0; i < S; i++)
                Sm[i + j * S] = (up ? i <= j : i >= j) ? full[i + j * S] : 1e30f;
        float a = 2, b = -1;
        for (int i = 0; i < S; i++) {
            double s = 0;
            for (int p = 0; p < S; p++)
                s += full[i + p * S] * sx[p];
            wy[i] = (float)(a * s + b * sy[i]);
        }
        float *dS = dev_floats(Sm, S * S), *dsx = dev_floats(sx, S), *dsy = dev_floats(sy, S);
        CHECK_BLAS(cublasSsymv(h, up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, S, &a, dS,
                               S, dsx, 1, &b, dsy, 1));
        get_floats(gy, dsy, S);
        conf_check(near_all(gy, wy, S, 0), "Ssymv %s", up ? "upper" : "lower");
        CHECK_CUDA(cudaFree(dS));
        CHECK_CUDA(cudaFree(dsx));
        CHECK_CUDA(cudaFree(dsy));
    }
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dy));
}

static void trsm_geam(cublasHandle_t h, unsigned *seed)
{
    // Left, lower, no transpose, non-unit: A X = alpha B with B = A X0 / alpha.
    enum { M = 6, N = 3 };
    float A[M * M], X0[M * N], B[M * N], got[M * N];
    for (int j = 0; j < M; j++)
        for (int i = 0; i < M; i++)
            A[i + j * M] = i == j ? 4.0f + (float)i : (i > j ? small(seed) : 99.0f);
    for (int i = 0; i < M * N; i++)
        X0[i] = small(seed);
    float alpha = 2.0f;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double s = 0;
            for (int p = 0; p <= i; p++)
                s += A[i + p * M] * X0[p + j * M];
            B[i + j * M] = (float)(s / alpha);
        }
    float *dA = dev_floats(A, M * M), *dB = dev_floats(B, M * N);
    CHECK_BLAS(cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                           CUBLAS_DIAG_NON_UNIT, M, N, &alpha, dA, M, dB, M));
    get_floats(got, dB, M * N);
    conf_check(near_all(got, X0, M * N, 1e-5f), "Strsm left lower");
    // Right, upper, transposed, unit diagonal: X op(A) = B with op(A) = A^T, A upper, ones on
    // the diagonal (what is stored there is not read).
    enum { R = 4, C = 5 };
    float U[C * C], Y0[R * C], Bt[R * C], gt[R * C];
    for (int j = 0; j < C; j++)
        for (int i = 0; i < C; i++)
            U[i + j * C] = i == j ? 42.0f : (i < j ? small(seed) : -77.0f);
    for (int i = 0; i < R * C; i++)
        Y0[i] = small(seed);
    for (int j = 0; j < C; j++) // (Y0 U^T)(r, j) = sum_p Y0(r, p) U(j, p), U(j, j) = 1
        for (int r = 0; r < R; r++) {
            double s = Y0[r + j * R];
            for (int p = j + 1; p < C; p++)
                s += Y0[r + p * R] * U[j + p * C];
            Bt[r + j * R] = (float)s;
        }
    float one = 1.0f;
    float *dU = dev_floats(U, C * C), *dBt = dev_floats(Bt, R * C);
    CHECK_BLAS(cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                           CUBLAS_DIAG_UNIT, R, C, &one, dU, C, dBt, R));
    get_floats(gt, dBt, R * C);
    conf_check(near_all(gt, Y0, R * C, 1e-5f), "Strsm right upper transposed unit");

    // Sgeam: C = 2 A^T + (-1) B, then in place C = C + 0.5 B, then a transpose alone.
    enum { GM = 3, GN = 5 };
    float GA[GN * GM], GB[GM * GN], GC[GM * GN], want[GM * GN];
    for (int i = 0; i < GN * GM; i++) {
        GA[i] = small(seed);
        GB[i] = small(seed);
    }
    for (int j = 0; j < GN; j++)
        for (int i = 0; i < GM; i++)
            want[i + j * GM] = 2 * GA[j + i * GN] - GB[i + j * GM];
    float *dGA = dev_floats(GA, GN * GM), *dGB = dev_floats(GB, GM * GN), *dGC;
    CHECK_CUDA(cudaMalloc(&dGC, sizeof GC));
    float two = 2, m1 = -1, half = 0.5f, zero = 0;
    CHECK_BLAS(
        cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, GM, GN, &two, dGA, GN, &m1, dGB, GM, dGC, GM));
    get_floats(GC, dGC, GM * GN);
    conf_check(near_all(GC, want, GM * GN, 0), "Sgeam 2 A^T - B");
    CHECK_BLAS(
        cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, &one, dGC, GM, &half, dGB, GM, dGC, GM));
    for (int i = 0; i < GM * GN; i++)
        want[i] += 0.5f * GB[i];
    get_floats(GC, dGC, GM * GN);
    conf_check(near_all(GC, want, GM * GN, 0), "Sgeam in place (C is A)");
    CHECK_BLAS(
        cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, GM, GN, &one, dGA, GN, &zero, dGB, GM, dGC, GM));
    get_floats(GC, dGC, GM * GN);
    int ok = 1;
    for (int j = 0; j < GN; j++)
        for (int i = 0; i < GM; i++)
            ok &= GC[i + j * GM] == GA[j + i * GN];
    conf_check(ok, "Sgeam transpose (beta 0)");
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dU));
    CHECK_CUDA(cudaFree(dBt));
    CHECK_CUDA(cudaFree(dGA));
    CHECK_CUDA(cudaFree(dGB));
    CHECK_CUDA(cudaFree(dGC));
}

enum { GM = 7, GN = 5, GK = 8, BATCH = 3 };

// A batch of small-integer matrices (A: GM x GK, B: GK x GN, C: GM x GN), float.
static void batch_inputs(unsigned *seed, float *A, float *B, float *C)
{
    for (int i = 0; i < BATCH * GM * GK; i++)
        A[i] = small(seed);
    for (int i = 0; i < BATCH * GK * GN; i++)
        B[i] = small(seed);
    for (int i = 0; i < BATCH * GM * GN; i++)
        C[i] = small(seed);
}

static void batched(cublasHandle_t h, unsigned *seed)
{
    static float A[BATCH * GM * GK], B[BATCH * GK * GN], C[BATCH * GM * GN], want[BATCH * GM * GN],
        got[BATCH * GM * GN];
    batch_inputs(seed, A, B, C);
    memcpy(want, C, sizeof C);
    float alpha = 2, beta = -1;
    for (int b = 0; b < BATCH; b++)
        ref_gemm(0, 0, GM, GN, GK, alpha, A + b * GM * GK, GM, B + b * GK * GN, GK, beta,
                 want + b * GM * GN, GM);
    float *dA = dev_floats(A, BATCH * GM * GK), *dB = dev_floats(B, BATCH * GK * GN),
          *dC = dev_floats(C, BATCH * GM * GN);
    const float *pa[BATCH], *pb[BATCH];
    float *pc[BATCH];
    for (int b = 0; b < BATCH; b++) { // the batch in reverse order in memory
        pa[b] = dA + (BATCH - 1 - b) * GM * GK;
        pb[b] = dB + (BATCH - 1 - b) * GK * GN;
        pc[b] = dC + (BATCH - 1 - b) * GM * GN;
    }
    const float **dpa;
    const float **dpb;
    float **dpc;
    CHECK_CUDA(cudaMalloc(&dpa, sizeof pa));
    CHECK_CUDA(cudaMalloc(&dpb, sizeof pb));
    CHECK_CUDA(cudaMalloc(&dpc, sizeof pc));
    CHECK_CUDA(cudaMemcpy(dpa, pa, sizeof pa, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dpb, pb, sizeof pb, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dpc, pc, sizeof pc, cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dpa, GM, dpb, GK,
                                  &beta, dpc, GM, BATCH));
    get_floats(got, dC, BATCH * GM * GN);
    conf_check(near_all(got, want, BATCH * GM * GN, 0), "SgemmBatched");

    // The same with GemmBatchedEx (float) and alpha, beta in device memory.
    CHECK_CUDA(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice));
    float sc[2] = { alpha, beta }, *dsc = dev_floats(sc, 2);
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_BLAS(cublasGemmBatchedEx(
        h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, dsc, (const void *const *)dpa, CUDA_R_32F, GM,
        (const void *const *)dpb, CUDA_R_32F, GK, dsc + 1, (void *const *)dpc, CUDA_R_32F, GM,
        BATCH, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    get_floats(got, dC, BATCH * GM * GN);
    conf_check(near_all(got, want, BATCH * GM * GN, 0), "GemmBatchedEx float, device scalars");

    // Strided batch, float, transposed A (stored GK x GM).
    static float At[BATCH * GK * GM];
    for (int b = 0; b < BATCH; b++)
        for (int i = 0; i < GM; i++)
            for (int p = 0; p < GK; p++)
                At[b * GM * GK + p + i * GK] = A[b * GM * GK + i + p * GM];
    float *dAt = dev_floats(At, BATCH * GK * GM);
    CHECK_CUDA(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, GM, GN, GK, &alpha, dAt,
                                          CUDA_R_32F, GK, GM * GK, dB, CUDA_R_32F, GK, GK * GN,
                                          &beta, dC, CUDA_R_32F, GM, GM * GN, BATCH,
                                          CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
    get_floats(got, dC, BATCH * GM * GN);
    conf_check(near_all(got, want, BATCH * GM * GN, 0), "GemmStridedBatchedEx float, A^T");
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dAt));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
    CHECK_CUDA(cudaFree(dpa));
    CHECK_CUDA(cudaFree(dpb));
    CHECK_CUDA(cudaFree(dpc));
    CHECK_CUDA(cudaFree(dsc));
}

// GemmEx with 16-bit inputs: half in, half or float out (compute 32F), half in
// and out with compute 16F (__half scalars), bfloat16 in and out, double.
static void mixed(cublasHandle_t h, unsigned *seed)
{
    static float A[BATCH * GM * GK], B[BATCH * GK * GN], C[BATCH * GM * GN], want[BATCH * GM * GN];
    static __half hA[BATCH * GM * GK], hB[BATCH * GK * GN], hC[BATCH * GM * GN];
    static __nv_bfloat16 bA[GM * GK], bB[GK * GN], bC[GM * GN];
    static double dAh[GM * GK], dBh[GK * GN], dCh[GM * GN];
    static float fC[GM * GN];
    batch_inputs(seed, A, B, C);
    for (int i = 0; i < BATCH * GM * GK; i++)
        hA[i] = __float2half(A[i]);
    for (int i = 0; i < BATCH * GK * GN; i++)
        hB[i] = __float2half(B[i]);
    for (int i = 0; i < BATCH * GM * GN; i++)
        hC[i] = __float2half(C[i]);
    for (int i = 0; i < GM * GK; i++) {
        bA[i] = __float2bfloat16(A[i]);
        dAh[i] = A[i];
    }
    for (int i = 0; i < GK * GN; i++) {
        bB[i] = __float2bfloat16(B[i]);
        dBh[i] = B[i];
    }
    for (int i = 0; i < GM * GN; i++) {
        bC[i] = __float2bfloat16(C[i]);
        dCh[i] = C[i];
    }
    float alpha = 0.5f, beta = 2;
    memcpy(want, C, sizeof C);
    for (int b = 0; b < BATCH; b++)
        ref_gemm(0, 0, GM, GN, GK, alpha, A + b * GM * GK, GM, B + b * GK * GN, GK, beta,
                 want + b * GM * GN, GM);
    void *dA, *dB, *dC;
    CHECK_CUDA(cudaMalloc(&dA, sizeof hA));
    CHECK_CUDA(cudaMalloc(&dB, sizeof hB));
    CHECK_CUDA(cudaMalloc(&dC, sizeof dCh));
    CHECK_CUDA(cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice));

    // half x half -> half, compute 32F, a strided batch.
    __half got_h[BATCH * GM * GN];
    CHECK_CUDA(cudaMemcpy(dC, hC, sizeof hC, cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dA,
                                          CUDA_R_16F, GM, GM * GK, dB, CUDA_R_16F, GK, GK * GN,
                                          &beta, dC, CUDA_R_16F, GM, GM * GN, BATCH,
                                          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    CHECK_CUDA(cudaMemcpy(got_h, dC, sizeof got_h, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < BATCH * GM * GN; i++)
        ok &= __half2float(got_h[i]) == want[i];
    conf_check(ok, "GemmStridedBatchedEx half -> half, compute 32F");

    // half x half -> float, compute 32F (first matrix of the batch).
    CHECK_CUDA(cudaMemcpy(dC, C, GM * GN * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dA, CUDA_R_16F, GM, dB,
                            CUDA_R_16F, GK, &beta, dC, CUDA_R_32F, GM, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
    get_floats(fC, (const float *)dC, GM * GN);
    conf_check(near_all(fC, want, GM * GN, 0), "GemmEx half -> float");

    // half, compute 16F: alpha and beta are __half.
    __half ha = __float2half(alpha), hb = __float2half(beta);
    CHECK_CUDA(cudaMemcpy(dC, hC, GM * GN * sizeof(__half), cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &ha, dA, CUDA_R_16F, GM, dB,
                            CUDA_R_16F, GK, &hb, dC, CUDA_R_16F, GM, CUBLAS_COMPUTE_16F,
                            CUBLAS_GEMM_DEFAULT));
    CHECK_CUDA(cudaMemcpy(got_h, dC, GM * GN * sizeof(__half), cudaMemcpyDeviceToHost));
    ok = 1;
    for (int i = 0; i < GM * GN; i++)
        ok &= __half2float(got_h[i]) == want[i];
    conf_check(ok, "GemmEx half, compute 16F");

    // bfloat16 -> bfloat16, compute 32F.
    __nv_bfloat16 got_b[GM * GN];
    CHECK_CUDA(cudaMemcpy(dA, bA, sizeof bA, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, bB, sizeof bB, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dC, bC, sizeof bC, cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dA, CUDA_R_16BF, GM,
                            dB, CUDA_R_16BF, GK, &beta, dC, CUDA_R_16BF, GM, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
    CHECK_CUDA(cudaMemcpy(got_b, dC, sizeof got_b, cudaMemcpyDeviceToHost));
    ok = 1;
    for (int i = 0; i < GM * GN; i++)
        ok &= __bfloat162float(got_b[i]) == want[i];
    conf_check(ok, "GemmEx bfloat16 -> bfloat16");

    // double, compute 64F.
    double da = alpha, db = beta, got_d[GM * GN];
    void *dDA, *dDB;
    CHECK_CUDA(cudaMalloc(&dDA, sizeof dAh));
    CHECK_CUDA(cudaMalloc(&dDB, sizeof dBh));
    CHECK_CUDA(cudaMemcpy(dDA, dAh, sizeof dAh, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dDB, dBh, sizeof dBh, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dC, dCh, sizeof dCh, cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &da, dDA, CUDA_R_64F, GM, dDB,
                            CUDA_R_64F, GK, &db, dC, CUDA_R_64F, GM, CUBLAS_COMPUTE_64F,
                            CUBLAS_GEMM_DEFAULT));
    CHECK_CUDA(cudaMemcpy(got_d, dC, sizeof got_d, cudaMemcpyDeviceToHost));
    ok = 1;
    for (int i = 0; i < GM * GN; i++)
        ok &= got_d[i] == (double)want[i];
    conf_check(ok, "GemmEx double");

    // A combination cuBLAS does not have: half inputs, double output.
    CHECK_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dA, CUDA_R_16F, GM,
                              dB, CUDA_R_16F, GK, &beta, dC, CUDA_R_64F, GM, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_NOT_SUPPORTED);
    // Bad sizes and leading dimensions.
    CHECK_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, GN, GK, &alpha, dA, CUDA_R_16F, GM,
                              dB, CUDA_R_16F, GK, &beta, dC, CUDA_R_16F, GM, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dA, CUDA_R_16F,
                              GM - 1, dB, CUDA_R_16F, GK, &beta, dC, CUDA_R_16F, GM,
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dA,
                                            CUDA_R_16F, GM, 0, dB, CUDA_R_16F, GK, 0, &beta, dC,
                                            CUDA_R_16F, GM, 0, -1, CUBLAS_COMPUTE_32F,
                                            CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasGemmEx(NULL, CUBLAS_OP_N, CUBLAS_OP_N, GM, GN, GK, &alpha, dA, CUDA_R_16F,
                              GM, dB, CUDA_R_16F, GK, &beta, dC, CUDA_R_16F, GM, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_NOT_INITIALIZED);
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
    CHECK_CUDA(cudaFree(dDA));
    CHECK_CUDA(cudaFree(dDB));
}

// Status codes of bad arguments; nothing is touched (the pointers are valid).
static void bad_arguments(cublasHandle_t h)
{
    float *d, one = 1;
    int r;
    CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(float)));
    CHECK_STATUS(cublasSger(h, -1, 2, &one, d, 1, d, 1, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasSger(h, 4, 2, &one, d, 0, d, 1, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasSger(h, 4, 2, &one, d, 1, d, 1, d, 3), CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasSsymv(h, CUBLAS_FILL_MODE_FULL, 4, &one, d, 4, d, 1, &one, d, 1),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasSsymv(h, CUBLAS_FILL_MODE_LOWER, 4, &one, d, 3, d, 1, &one, d, 1),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                             CUBLAS_DIAG_NON_UNIT, 4, -2, &one, d, 4, d, 4),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                             CUBLAS_DIAG_NON_UNIT, 4, 5, &one, d, 4, d, 4),
                 CUBLAS_STATUS_INVALID_VALUE); // lda 4 < n 5
    CHECK_STATUS(
        cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, &one, d, 4, &one, d + 8, 4, d + 16, 3),
        CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasSgeam(h, (cublasOperation_t)9, CUBLAS_OP_N, 4, 2, &one, d, 4, &one, d + 8, 4,
                             d + 16, 4),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, -2, &one,
                                    (const float *const *)d, 2, (const float *const *)d, 2, &one,
                                    (float *const *)d, 2, 1),
                 CUBLAS_STATUS_INVALID_VALUE);
    CHECK_STATUS(cublasSger(NULL, 4, 2, &one, d, 1, d, 1, d, 4), CUBLAS_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(cublasIsamin(NULL, 4, d, 1, &r), CUBLAS_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(cublasSetMathMode(NULL, CUBLAS_DEFAULT_MATH), CUBLAS_STATUS_NOT_INITIALIZED);
    CHECK_STATUS(cublasSetPointerMode(h, (cublasPointerMode_t)7), CUBLAS_STATUS_INVALID_VALUE);
    CHECK_CUDA(cudaFree(d));
}

int main(void)
{
    conf_require_device();
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    unsigned seed = 2024;
    cublasMath_t mm;
    CHECK_BLAS(cublasGetMathMode(h, &mm));
    conf_check(mm == CUBLAS_DEFAULT_MATH, "default math mode %d", (int)mm);
    CHECK_BLAS(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    CHECK_BLAS(cublasGetMathMode(h, &mm));
    conf_check(mm == CUBLAS_TF32_TENSOR_OP_MATH, "math mode TF32 %d", (int)mm);
    CHECK_BLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    cublasPointerMode_t pm;
    CHECK_BLAS(cublasGetPointerMode(h, &pm));
    conf_check(pm == CUBLAS_POINTER_MODE_HOST, "default pointer mode host");

    level1(h);
    level2(h, &seed);
    trsm_geam(h, &seed);
    batched(h, &seed);
    mixed(h, &seed);
    bad_arguments(h);
    CHECK_BLAS(cublasDestroy(h));
    return conf_finish();
}
