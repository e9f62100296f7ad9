// 32_kernel_args — kernel parameters are passed by value with their types:
// int, float, double, char, short, bool, unsigned long long, a float3, a struct
// by value holding a device pointer, and a pointer to const; the caller's copies stay unchanged.
#include "conformance.h"

#define NTABLE 5
#define NOUT 12

struct params {
    int n;
    float scale;
    double offset;
    const int *table; // a device pointer inside a struct
    char tag;
};

__global__ void take_args(int i32, float f32, double f64, char c, short s16, bool flag,
                          unsigned long long u64, float3 v, struct params p, const int *cp,
                          double *out)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    int table_sum = 0;
    for (int k = 0; k < p.n; k++)
        table_sum += p.table[k];
    out[0] = i32;
    out[1] = f32;
    out[2] = f64;
    out[3] = c;
    out[4] = s16;
    out[5] = flag ? 1.0 : 0.0;
    out[6] = (double)(u64 >> 32);
    out[7] = v.x + 10.0f * v.y + 100.0f * v.z;
    out[8] = p.scale * table_sum + p.offset;
    out[9] = p.tag;
    out[10] = cp[0] + cp[NTABLE - 1];
    p.n = -1; // a by-value copy: changing it affects nothing outside
    out[11] = p.n;
}

int main(void)
{
    conf_require_device();

    int h_table[NTABLE] = { 3, 1, 4, 1, 5 };
    int *d_table;
    double *d_out, h_out[NOUT];
    CHECK_CUDA(cudaMalloc(&d_table, sizeof(h_table)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMemcpy(d_table, h_table, sizeof(h_table), cudaMemcpyHostToDevice));

    struct params p;
    memset(&p, 0, sizeof(p));
    p.n = NTABLE;
    p.scale = 0.5f;
    p.offset = 1e10;
    p.table = d_table;
    p.tag = 'Q';
    const int *cp = d_table;
    float3 v = make_float3(1.5f, 2.0f, -3.0f);
    unsigned long long big = 0x123456789abcdef0ull;
    take_args<<<2, 32>>>(-123456, 3.25f, -2.0e-300, 'z', (short)-32000, true, big, v, p, cp, d_out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));

    double want[NOUT] = { -123456.0,       3.25, -2.0e-300,           'z',
                          -32000.0,        1.0,  (double)(big >> 32), 1.5 + 20.0 - 300.0,
                          0.5 * 14 + 1e10, 'Q',  3.0 + 5.0,           -1.0 };
    static const char *what[NOUT] = {
        "int",    "float",  "double",      "char",        "short",     "bool", "unsigned long long",
        "float3", "struct", "struct char", "const int *", "local copy"
    };
    for (int k = 0; k < NOUT; k++)
        conf_check(h_out[k] == want[k], "%s argument: kernel saw %.17g, expected %.17g", what[k],
                   h_out[k], want[k]);
    conf_check(p.n == NTABLE, "the caller's struct changed: n = %d", p.n);

    CHECK_CUDA(cudaFree(d_table));
    CHECK_CUDA(cudaFree(d_out));
    return conf_finish();
}
