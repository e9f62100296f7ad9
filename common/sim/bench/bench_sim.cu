/*
 * bench_sim.cu — how fast the simulator runs kernels, on one core.
 *
 * Build and run: make bench-sim   (or build/bin/bench-sim)
 *
 * Four rows, each the best of a few runs, timed with the CPU wall clock:
 *   1. a barrier-free vector add: each simulated thread is one loop step;
 *   2. the same vector add as a plain C loop, and the ratio of the two;
 *   3. a 256-thread shared-memory tree reduction: one __syncthreads after
 *      the load and one per halving step (9 barriers per thread), so each
 *      thread runs as a fiber;
 *   4. a warp-shuffle reduction (5 __shfl_down_sync per thread).
 * Simulated threads per second = threads launched / wall time of the launch
 * and its cudaDeviceSynchronize. GPULAB_SIM_THREADS is set to 1 unless given.
 *
 * `bench-sim --check` then runs rows 1 and 3 again under the check mode
 * (GPULAB_SIM_CHECK=all, every access checked) and prints their rates and
 * their slowdown against the rows above. (`--rates` prints rows 1 and 3 as
 * two numbers; that is how the check run reports back.)
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                    cudaGetErrorName(e_));                                                         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// ---------------------------------------------------------------------------
// Kernels

__global__ void vec_add_kernel(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void reduce_shared_kernel(const float *x, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

__global__ void reduce_shuffle_kernel(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        out[i / 32] = v;
}

// ---------------------------------------------------------------------------
// Timing

enum which { VEC_ADD, REDUCE_SHARED, REDUCE_SHUFFLE };

static double time_kernel(enum which k, const float *a, const float *b, float *c, int n, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = wall_seconds();
        if (k == VEC_ADD)
            vec_add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
        else if (k == REDUCE_SHARED)
            reduce_shared_kernel<<<(n + 255) / 256, 256>>>(a, c, n);
        else
            reduce_shuffle_kernel<<<(n + 255) / 256, 256>>>(a, c, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        double t = wall_seconds() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

static double time_plain_c(const float *a, const float *b, float *c, int n, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = wall_seconds();
        for (int i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        double t = wall_seconds() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

static void row(const char *what, double rate, double target)
{
    printf("%-44s %10.1f M/s   target >= %5.0f M/s   %s\n", what, rate / 1e6, target / 1e6,
           rate >= target ? "meets" : "BELOW");
}

// Rows 1 and 3 under GPULAB_SIM_CHECK=all, measured by this program's check
// twin; returns 0 on success.
static int check_rates(double *add_rate, double *red_rate)
{
    char cmd[4200], self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    snprintf(cmd, sizeof(cmd), "GPULAB_SIM_CHECK=all '%s' --rates 2>/dev/null", self);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int got = fscanf(p, "%lf %lf", add_rate, red_rate);
    pclose(p);
    return got == 2 ? 0 : -1;
}

int main(int argc, char **argv)
{
    setenv("GPULAB_SIM_THREADS", "1", 0);
    int rates_only = argc > 1 && strcmp(argv[1], "--rates") == 0;
    int with_check = argc > 1 && strcmp(argv[1], "--check") == 0;
    const int n_add = rates_only ? 1 << 20 : 1 << 24, n_red = 1 << 20, reps = 3;
    float *a, *b, *c;
    CHECK(cudaMallocManaged((void **)&a, sizeof(float) * n_add, cudaMemAttachGlobal));
    CHECK(cudaMallocManaged((void **)&b, sizeof(float) * n_add, cudaMemAttachGlobal));
    CHECK(cudaMallocManaged((void **)&c, sizeof(float) * n_add, cudaMemAttachGlobal));
    for (int i = 0; i < n_add; i++) {
        a[i] = (float)(i % 13);
        b[i] = (float)(i % 7);
    }
    time_kernel(VEC_ADD, a, b, c, 1 << 16, 1); // start the device, touch the code
    if (rates_only) {
        double t_add = time_kernel(VEC_ADD, a, b, c, n_add, 1);
        double t_red = time_kernel(REDUCE_SHARED, a, b, c, n_red, 1);
        printf("%f %f\n", n_add / t_add, n_red / t_red);
        return 0;
    }

    printf("gpulab simulator benchmark: %s worker thread(s), times from the CPU wall clock\n",
           getenv("GPULAB_SIM_THREADS"));
    double t_add = time_kernel(VEC_ADD, a, b, c, n_add, reps);
    double t_c = time_plain_c(a, b, c, n_add, reps);
    double t_red = time_kernel(REDUCE_SHARED, a, b, c, n_red, reps);
    double t_shfl = time_kernel(REDUCE_SHUFFLE, a, b, c, n_red, reps);

    row("vector add, no barrier (threads)", n_add / t_add, 250e6);
    printf("%-44s %10.1f M/s   vector add is %.2fx its time (target <= 3x): %s\n",
           "same loop in plain C (elements)", n_add / t_c / 1e6, t_add / t_c,
           t_add / t_c <= 3.0 ? "meets" : "ABOVE");
    row("256-thread reduction, 9 barriers (threads)", n_red / t_red, 10e6);
    row("warp-shuffle reduction, 5 shuffles (threads)", n_red / t_shfl, 5e6);
    if (with_check) {
        double add_rate, red_rate;
        if (check_rates(&add_rate, &red_rate) != 0) {
            printf("check mode: could not run this program's check twin (bench-sim.check)\n");
            return 1;
        }
        row("check mode: vector add (threads)", add_rate, 20e6);
        printf("%-44s %10.1fx slower\n", "", (n_add / t_add) / add_rate);
        row("check mode: 256-thread reduction (threads)", red_rate, 5e6);
        printf("%-44s %10.1fx slower\n", "", (n_red / t_red) / red_rate);
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return 0;
}
