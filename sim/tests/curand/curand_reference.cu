// curand_reference.cu — the simulator's cuRAND against NVIDIA's own.
//
// Built twice: with the host compiler against the CUDA toolkit's headers and
// libcurand (-DGPULAB_CURAND_REFERENCE: the toolkit's host generators, and its
// device API compiled for the host), and for the simulator (its host API with
// host and device generators, and its device API inside a kernel). Both print
// the same cases, one value a line:
//     <case> <index> <e|a> <value>
// e: must match exactly (integers, uniform floats and doubles); a: normal and
// log-normal values, which go through logf/sinf/cosf and may differ in the
// last bits between math libraries (and a GPU's fast sine and cosine more).
// Without an argument the program checks that its device generators give
// what its host generators give; given the reference build's output, it
// also compares every line with it. It prints PASS or FAIL.
#include <curand.h>
#include <curand_kernel.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

static std::vector<std::string> lines;

static void put(const char *name, int i, bool exact, double v, bool dbl)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s %d %c %.*g", name, i, exact ? 'e' : 'a', dbl ? 17 : 10, v);
    lines.push_back(buf);
}

#define CURAND_OK(call)                                                                            \
    do {                                                                                           \
        curandStatus_t st_ = (call);                                                               \
        if (st_ != CURAND_STATUS_SUCCESS) {                                                        \
            printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)st_);           \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// ---------------------------------------------------------------------------
// Device API: a fixed list of draws from each generator.

#define DEV_U 96
#define DEV_F 64
#define DEV_D 48

// The reference build runs the device API on the host (the toolkit's header
// has host paths); elsewhere it runs in a kernel.
#ifdef GPULAB_CURAND_REFERENCE
#define CASE_FN static inline
#else
#define CASE_FN static __device__
#endif

template <typename S>
CASE_FN void draws(S *s, unsigned *u, float *f, double *d)
{
    for (int i = 0; i < 8; i++)
        u[i] = curand(s);
    for (int i = 0; i < 6; i++)
        f[i] = curand_uniform(s);
    for (int i = 0; i < 5; i++)
        f[6 + i] = curand_normal(s); // an odd count: the kept second value
    for (int i = 0; i < 3; i++)
        f[11 + i] = curand_log_normal(s, 0.5f, 0.25f);
    for (int i = 0; i < 3; i++)
        d[i] = curand_uniform_double(s);
    for (int i = 0; i < 3; i++)
        d[3 + i] = curand_normal_double(s);
    for (int i = 0; i < 3; i++)
        d[6 + i] = curand_log_normal_double(s, 1.0, 0.5);
    float2 n2 = curand_normal2(s);
    f[14] = n2.x;
    f[15] = n2.y;
    for (int i = 0; i < 4; i++)
        u[8 + i] = curand_poisson(s, 3.5);
    for (int i = 0; i < 2; i++)
        u[12 + i] = curand_poisson(s, 5000.0);
}

CASE_FN void device_cases(unsigned *u, float *f, double *d)
{
    const unsigned long long seeds[2] = { 1234ULL, 0x123456789abcdefULL };
    const unsigned long long subs[2] = { 0, 70001 };
    const unsigned long long offs[2] = { 0, 100003 };
    int c = 0;
    for (int si = 0; si < 2; si++)
        for (int k = 0; k < 2; k++, c++) {
            curandStateXORWOW_t x;
            curand_init(seeds[si], subs[k], offs[k], &x);
            draws(&x, u + c * 16, f + c * 16, d + c * 12);
        }
    for (int si = 0; si < 2; si++)
        for (int k = 0; k < 2; k++, c++) {
            curandStatePhilox4_32_10_t p;
            curand_init(seeds[si], subs[k], offs[k] + k, &p); // offset not a multiple of 4
            draws(&p, u + c * 16, f + c * 16, d + c * 12);
        }
    // MRG32k3a's skips are slower; one seed.
    for (int k = 0; k < 2; k++, c++) {
        curandStateMRG32k3a_t m;
        curand_init(seeds[1], subs[k], offs[k], &m);
        draws(&m, u + c * 16, f + c * 16, d + c * 12);
    }
}

#define DEV_CASES 10

#ifndef GPULAB_CURAND_REFERENCE
__global__ void device_kernel(unsigned *u, float *f, double *d)
{
    device_cases(u, f, d);
}
#endif

// Fills `lines` with the device API's values; leaves it empty (the caller
// skips) when there is no usable device.
static void run_device_api(void)
{
    static unsigned u[DEV_CASES * 16];
    static float f[DEV_CASES * 16];
    static double d[DEV_CASES * 12];
#ifdef GPULAB_CURAND_REFERENCE
    device_cases(u, f, d);
#else
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("SKIP curand_reference: no usable CUDA device\n");
        return;
    }
    unsigned *du;
    float *df;
    double *dd;
    cudaMalloc(&du, sizeof u);
    cudaMalloc(&df, sizeof f);
    cudaMalloc(&dd, sizeof d);
    device_kernel<<<1, 1>>>(du, df, dd);
    cudaMemcpy(u, du, sizeof u, cudaMemcpyDeviceToHost);
    cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost);
    cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost);
    cudaFree(du);
    cudaFree(df);
    cudaFree(dd);
#endif
    for (int c = 0; c < DEV_CASES; c++) {
        char name[32];
        snprintf(name, sizeof name, "dev%d", c);
        for (int i = 0; i < 14; i++)
            // The middle-lambda Poisson values are the simulator's own (inversion).
            if (i < 8 || i >= 12)
                put(name, i, i < 12, u[c * 16 + i], false);
        for (int i = 0; i < 16; i++)
            put(name, 100 + i, i < 6, f[c * 16 + i], false);
        for (int i = 0; i < 9; i++)
            put(name, 200 + i, i < 3, d[c * 12 + i], true);
    }
}

// ---------------------------------------------------------------------------
// Host API: a sequence of calls on one generator (so that each call starts
// where the last left the offset), then a large call past the stream count.

static void host_calls(curandGenerator_t g, const char *name, bool device)
{
    bool philox = !strcmp(name, "philox");
    const size_t big = 300000; // past 4096, 65536 and 81920 streams (x 4 for Philox)
    std::vector<unsigned> u(big);
    std::vector<float> f(big);
    std::vector<double> d(big);
    unsigned *du = nullptr;
    float *df = nullptr;
    double *dd = nullptr;
#ifndef GPULAB_CURAND_REFERENCE
    if (device) {
        cudaMalloc(&du, big * sizeof(unsigned));
        cudaMalloc(&df, big * sizeof(float));
        cudaMalloc(&dd, big * sizeof(double));
    }
#endif
    auto back = [&](size_t n, int what) {
#ifndef GPULAB_CURAND_REFERENCE
        if (device) {
            if (what == 0)
                cudaMemcpy(u.data(), du, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
            if (what == 1)
                cudaMemcpy(f.data(), df, n * sizeof(float), cudaMemcpyDeviceToHost);
            if (what == 2)
                cudaMemcpy(d.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost);
        }
#else
        (void)n;
        (void)what;
#endif
    };
    unsigned *pu = device ? du : u.data();
    float *pf = device ? df : f.data();
    double *pd = device ? dd : d.data();
    char tag[64];
    int step = 0;
    auto emit = [&](size_t n, int what, bool exact, size_t stride) {
        back(n, what);
        snprintf(tag, sizeof tag, "%s.%d", name, step++);
        for (size_t i = 0; i < n; i += stride) {
            if (what == 0)
                put(tag, (int)i, exact, u[i], false);
            else if (what == 1)
                put(tag, (int)i, exact, f[i], false);
            else
                put(tag, (int)i, exact, d[i], true);
        }
    };
    CURAND_OK(curandSetPseudoRandomGeneratorSeed(g, 4321ULL));
    CURAND_OK(curandGenerate(g, pu, 10));
    emit(10, 0, true, 1);
    // Philox's normals and doubles start at a multiple of four (elsewhere
    // cuRAND's layout is its own; docs/simulator.md).
    CURAND_OK(curandGenerateUniform(g, pf, philox ? 6 : 7));
    emit(philox ? 6 : 7, 1, true, 1);
    CURAND_OK(curandGenerateNormal(g, pf, 8, 1.0f, 2.0f));
    emit(8, 1, false, 1);
    CURAND_OK(curandGenerateUniformDouble(g, pd, philox ? 8 : 6));
    emit(philox ? 8 : 6, 2, true, 1);
    CURAND_OK(curandGenerateNormalDouble(g, pd, 4, -1.0, 0.5));
    emit(4, 2, false, 1);
    CURAND_OK(curandGenerateLogNormal(g, pf, 6, 0.0f, 0.5f));
    emit(6, 1, false, 1);
    CURAND_OK(curandGenerate(g, pu, philox ? 6 : 9));
    emit(philox ? 6 : 9, 0, true, 1);
    CURAND_OK(curandGenerateUniform(g, pf, big));
    emit(big, 1, true, 997);
    CURAND_OK(curandGenerateNormal(g, pf, big, 0.0f, 1.0f));
    emit(big, 1, false, 991);
    CURAND_OK(curandGenerateUniformDouble(g, pd, big));
    emit(big, 2, true, 983);
    CURAND_OK(curandSetGeneratorOffset(g, 123457));
    CURAND_OK(curandGenerate(g, pu, big));
    emit(big, 0, true, 977);
    if (philox)
        CURAND_OK(curandSetGeneratorOffset(g, 424000));
    CURAND_OK(curandGenerateNormalDouble(g, pd, 1000, 0.0, 1.0));
    emit(1000, 2, false, 7);
#ifndef GPULAB_CURAND_REFERENCE
    if (device) {
        cudaFree(du);
        cudaFree(df);
        cudaFree(dd);
    }
#endif
}

static void run_host_api(bool device)
{
    struct {
        curandRngType_t type;
        const char *name;
    } types[] = { { CURAND_RNG_PSEUDO_XORWOW, "xorwow" },
                  { CURAND_RNG_PSEUDO_PHILOX4_32_10, "philox" },
                  { CURAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a" } };
    for (auto &t : types) {
        curandGenerator_t g;
#ifdef GPULAB_CURAND_REFERENCE
        CURAND_OK(curandCreateGeneratorHost(&g, t.type));
#else
        if (device)
            CURAND_OK(curandCreateGenerator(&g, t.type));
        else
            CURAND_OK(curandCreateGeneratorHost(&g, t.type));
#endif
        host_calls(g, t.name, device);
        CURAND_OK(curandDestroyGenerator(g));
    }
}

// ---------------------------------------------------------------------------

static bool same(const char *want, const char *got)
{
    if (!strcmp(want, got))
        return true;
    char wn[64], gn[64], wk, gk;
    int wi, gi;
    double wv, gv;
    if (sscanf(want, "%63s %d %c %lg", wn, &wi, &wk, &wv) != 4 ||
        sscanf(got, "%63s %d %c %lg", gn, &gi, &gk, &gv) != 4)
        return false;
    if (strcmp(wn, gn) || wi != gi || wk != 'a' || gk != 'a')
        return false;
    return fabs(wv - gv) <= 1e-4 * fabs(wv) + 1e-5;
}

int main(int argc, char **argv)
{
    run_device_api();
#ifdef GPULAB_CURAND_REFERENCE
    run_host_api(false);
    (void)argc;
    (void)argv;
    for (const std::string &l : lines)
        printf("%s\n", l.c_str());
    return 0;
#else
    size_t device_part = lines.size();
    if (device_part == 0)
        return 77;
    run_host_api(false);
    // The device generators must give what the host ones give.
    std::vector<std::string> host_lines(lines.begin() + (long)device_part, lines.end());
    lines.resize(device_part);
    run_host_api(true);
    int bad = 0;
    for (size_t i = 0; i < host_lines.size(); i++) {
        const char *dev = lines[device_part + i].c_str();
        if (!same(host_lines[i].c_str(), dev) && bad++ < 20)
            printf("differs: host generator \"%s\", device generator \"%s\"\n",
                   host_lines[i].c_str(), dev);
    }
    size_t compared = host_lines.size();
    if (argc >= 2) {
        FILE *ref = fopen(argv[1], "r");
        if (!ref) {
            printf("FAIL cannot read the reference output %s\n", argv[1]);
            return 1;
        }
        std::vector<std::string> want;
        char buf[256];
        while (fgets(buf, sizeof buf, ref)) {
            buf[strcspn(buf, "\n")] = 0;
            want.push_back(buf);
        }
        fclose(ref);
        if (want.size() != lines.size()) {
            printf("FAIL %zu reference lines, %zu here\n", want.size(), lines.size());
            return 1;
        }
        for (size_t i = 0; i < want.size(); i++)
            if (!same(want[i].c_str(), lines[i].c_str()) && bad++ < 20)
                printf("differs: cuRAND \"%s\", here \"%s\"\n", want[i].c_str(), lines[i].c_str());
        compared += want.size();
    }
    printf("%s curand_reference: %zu values compared%s, %d differ\n", bad ? "FAIL" : "PASS",
           compared, argc >= 2 ? " (with cuRAND's)" : "", bad);
    return bad ? 1 : 0;
#endif
}
