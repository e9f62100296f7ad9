// 31_integer_intrinsics — bit intrinsics against plain-C loops: __popc, __clz,
// __ffs, __brev and their 64-bit forms __popcll, __clzll, __ffsll, including
// the edge values 0, 1, 0x80000000 and all-ones (__clz(0) = 32, __ffs(0) = 0).
#include "conformance.h"

#define N 300
#define NOUT 7

__global__ void bits(const unsigned *x, const unsigned long long *y, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = x[i];
    unsigned long long w = y[i];
    out[NOUT * i] = (unsigned)__popc(v);
    out[NOUT * i + 1] = (unsigned)__clz((int)v);
    out[NOUT * i + 2] = (unsigned)__ffs((int)v);
    out[NOUT * i + 3] = __brev(v);
    out[NOUT * i + 4] = (unsigned)__popcll(w);
    out[NOUT * i + 5] = (unsigned)__clzll((long long)w);
    out[NOUT * i + 6] = (unsigned)__ffsll((long long)w);
}

static unsigned ref(int k, unsigned v, unsigned long long w)
{
    unsigned r = 0;
    int b;
    switch (k) {
    case 0:
        for (b = 0; b < 32; b++)
            r += (v >> b) & 1u;
        return r;
    case 1:
        for (b = 31; b >= 0 && !((v >> b) & 1u); b--)
            r++;
        return r;
    case 2:
        for (b = 0; b < 32; b++)
            if ((v >> b) & 1u)
                return (unsigned)b + 1;
        return 0;
    case 3:
        for (b = 0; b < 32; b++)
            r |= ((v >> b) & 1u) << (31 - b);
        return r;
    case 4:
        for (b = 0; b < 64; b++)
            r += (unsigned)((w >> b) & 1u);
        return r;
    case 5:
        for (b = 63; b >= 0 && !((w >> b) & 1u); b--)
            r++;
        return r;
    default:
        for (b = 0; b < 64; b++)
            if ((w >> b) & 1u)
                return (unsigned)b + 1;
        return 0;
    }
}

int main(void)
{
    conf_require_device();

    static unsigned h_x[N], h_out[NOUT * N];
    static unsigned long long h_y[N];
    unsigned seed = 31;
    for (int i = 0; i < N; i++) {
        h_x[i] = (conf_lcg(&seed) << 1) ^ conf_lcg(&seed);
        h_x[i] >>= i % 32; // vary the leading zeros
        h_y[i] = ((unsigned long long)conf_lcg(&seed) << 33) ^ conf_lcg(&seed);
        h_y[i] >>= i % 64;
    }
    unsigned edges[] = { 0u, 1u, 0x80000000u, 0xffffffffu, 0x00010000u, 0x7fffffffu };
    unsigned long long edges64[] = {
        0ull, 1ull, 0x8000000000000000ull, ~0ull, 0x0000000100000000ull, 0x00000000ffffffffull
    };
    for (int e = 0; e < 6; e++) {
        h_x[e] = edges[e];
        h_y[e] = edges64[e];
    }

    unsigned *d_x, *d_out;
    unsigned long long *d_y;
    CHECK_CUDA(cudaMalloc(&d_x, sizeof(h_x)));
    CHECK_CUDA(cudaMalloc(&d_y, sizeof(h_y)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_y, h_y, sizeof(h_y), cudaMemcpyHostToDevice));
    bits<<<(N + 127) / 128, 128>>>(d_x, d_y, d_out, N);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    static const char *names[NOUT] = { "__popc",   "__clz",   "__ffs",  "__brev",
                                       "__popcll", "__clzll", "__ffsll" };
    for (int i = 0; i < N; i++)
        for (int k = 0; k < NOUT; k++) {
            unsigned want = ref(k, h_x[i], h_y[i]);
            conf_check(h_out[NOUT * i + k] == want, "%s(0x%08x / 0x%016llx) = %u, expected %u",
                       names[k], h_x[i], h_y[i], h_out[NOUT * i + k], want);
        }

    CHECK_CUDA(cudaFree(d_x));
    CHECK_CUDA(cudaFree(d_y));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
