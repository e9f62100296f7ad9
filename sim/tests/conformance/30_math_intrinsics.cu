// 30_math_intrinsics — single-precision math in kernels against the host's C
// library within CUDA's documented ulp bounds: expf, __expf, sinf, logf, sqrtf,
// rsqrtf, fmaf, fminf/fmaxf (NaN rules), __fdividef, __saturatef, min/max overloads.
#include "conformance.h"

#define N 256
#define NOUT 16

__global__ void math_ops(const float *x, const float *y, float *out, int *iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = x[i], b = y[i], pos = fabsf(a) + 0.1f;
    float *o = out + NOUT * i;
    o[0] = expf(a);
    o[1] = __expf(a);
    o[2] = sinf(a);
    o[3] = logf(pos);
    o[4] = sqrtf(pos);
    o[5] = rsqrtf(pos);
    o[6] = fmaf(a, b, 0.5f);
    o[7] = fminf(a, b);
    o[8] = fmaxf(a, b);
    o[9] = __fdividef(a, b);
    o[10] = __saturatef(a);
    o[11] = min(a, b); // float overloads
    o[12] = max(a, b);
    o[13] = fminf(a, __int_as_float(0x7fc00000)); // NaN operand: the other one wins
    o[14] = fmaxf(__int_as_float(0x7fc00000), b);
    o[15] = __saturatef(__int_as_float(0x7fc00000)); // NaN saturates to +0
    int ia = (int)(a * 100.0f), ib = (int)(b * 100.0f);
    iout[2 * i] = min(ia, ib); // int overloads
    iout[2 * i + 1] = max(ia, ib);
}

int main(void)
{
    conf_require_device();

    static float h_x[N], h_y[N], h_out[NOUT * N];
    static int h_iout[2 * N];
    unsigned seed = 30;
    for (int i = 0; i < N; i++) {
        h_x[i] = conf_lcg_float(&seed, -4.0f, 4.0f);
        h_y[i] = conf_lcg_float(&seed, 0.25f, 3.0f) * (i % 2 ? 1.0f : -1.0f);
    }
    h_x[0] = 0.0f;
    h_x[1] = 1.0f;
    h_x[2] = 1.5f;
    h_x[3] = -0.0f;

    float *d_x, *d_y, *d_out;
    int *d_iout;
    CHECK_CUDA(cudaMalloc(&d_x, sizeof(h_x)));
    CHECK_CUDA(cudaMalloc(&d_y, sizeof(h_y)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMalloc(&d_iout, sizeof(h_iout)));
    CHECK_CUDA(cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_y, h_y, sizeof(h_y), cudaMemcpyHostToDevice));
    math_ops<<<(N + 63) / 64, 64>>>(d_x, d_y, d_out, d_iout, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_iout, d_iout, sizeof(h_iout), cudaMemcpyDeviceToHost));

    static const char *names[NOUT] = {
        "expf",       "__expf",     "sinf",        "logf",
        "sqrtf",      "rsqrtf",     "fmaf",        "fminf",
        "fmaxf",      "__fdividef", "__saturatef", "min(float)",
        "max(float)", "fminf(NaN)", "fmaxf(NaN)",  "__saturatef(NaN)"
    };
    for (int i = 0; i < N; i++) {
        float a = h_x[i], b = h_y[i], pos = fabsf(a) + 0.1f;
        double want[NOUT] = { expf(a),
                              expf(a),
                              sinf(a),
                              logf(pos),
                              sqrtf(pos),
                              1.0 / sqrt((double)pos),
                              fmaf(a, b, 0.5f),
                              a < b ? a : b,
                              a > b ? a : b,
                              (double)a / (double)b,
                              a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a),
                              a < b ? a : b,
                              a > b ? a : b,
                              a,
                              b,
                              0.0 };
        // Relative bounds a few ulp wide (float ulp = 1.19e-7 relative).
        double rtol[NOUT] = {
            4e-7, 2e-6, 4e-7, 4e-7, 1.2e-7, 4e-7, 0, 0, 0, 4e-7, 0, 0, 0, 0, 0, 0
        };
        double atol[NOUT] = { 0, 0, 2e-7, 2e-7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
        for (int k = 0; k < NOUT; k++) {
            float got = h_out[NOUT * i + k];
            conf_check(conf_near(got, want[k], atol[k], rtol[k]),
                       "%s(x = %.9g, y = %.9g) = %.9g, expected %.9g", names[k], a, b, got,
                       want[k]);
        }
        int ia = (int)(a * 100.0f), ib = (int)(b * 100.0f);
        conf_check(h_iout[2 * i] == (ia < ib ? ia : ib), "min(%d, %d) = %d", ia, ib, h_iout[2 * i]);
        conf_check(h_iout[2 * i + 1] == (ia > ib ? ia : ib), "max(%d, %d) = %d", ia, ib,
                   h_iout[2 * i + 1]);
    }

    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_y));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_iout));
    return conf_finish();
}
