/*
 * bench_sim.cu — how fast the simulator runs kernels, on one worker and on
 * every core.
 *
 * Build and run: make bench-sim   (or build/bin/bench-sim; --help lists the options)
 *
 * Rows, each the median of a few runs, timed with the CPU wall clock (or,
 * with --cpu-clock, the process's CPU time: on a loaded machine a one-worker
 * run's rate then counts only the time it ran):
 *   add     a barrier-free vector add: each simulated thread is one loop step
 *           (run as plain loops over each block's threads);
 *   c       the same vector add as a plain C loop on one core (plain_add.c,
 *           compiled with the build's C flags), and the ratio of the two
 *           (printed with the add row);
 *   reduce  a 256-thread shared-memory tree reduction: one __syncthreads
 *           after the load and one per halving step (9 barriers per thread),
 *           so each thread runs as a fiber;
 *   shuffle a warp-shuffle reduction (5 __shfl_down_sync per thread).
 * Simulated threads per second = threads launched / wall time of the launch
 * and its cudaDeviceSynchronize. The rows run with GPULAB_SIM_THREADS=1 (one
 * worker), then again with one worker per core: the program runs itself with
 * `--rates`, which prints each selected row's rate as one number per line.
 *
 * `--check` then runs add and reduce under the check mode (GPULAB_SIM_CHECK=all,
 * every access checked, through this program's check twin) and prints their
 * rates and their slowdown against the one-worker rows.
 */
#include <cuda_runtime.h>

#include "plain_add.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// The clock rows are timed with: the wall clock, or the process's CPU time.
static clockid_t row_clock = CLOCK_MONOTONIC;

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(row_clock, &ts);
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

enum which { VEC_ADD, PLAIN_C, REDUCE_SHARED, REDUCE_SHUFFLE, N_ROWS };
static const char *const row_names[N_ROWS] = { "add", "c", "reduce", "shuffle" };
static const char *const row_titles[N_ROWS] = { "vector add, no barrier (threads)",
                                                "same loop in plain C (elements)",
                                                "256-thread reduction, 9 barriers (threads)",
                                                "warp-shuffle reduction, 5 shuffles (threads)" };
// What each row must reach on one worker (threads per second; 0: none).
static const double row_targets[N_ROWS] = { 250e6, 0, 10e6, 5e6 };

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

// Median wall time of `reps` runs of row k on n elements.
static double time_row(enum which k, const float *a, const float *b, float *c, int n, int reps)
{
    double t[64];
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    for (int r = 0; r < reps; r++) {
        double t0 = wall_seconds();
        if (k == PLAIN_C) {
            bench_plain_add(c, a, b, n);
        } else {
            if (k == VEC_ADD)
                vec_add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
            else if (k == REDUCE_SHARED)
                reduce_shared_kernel<<<(n + 255) / 256, 256>>>(a, c, n);
            else
                reduce_shuffle_kernel<<<(n + 255) / 256, 256>>>(a, c, n);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
        }
        t[r] = wall_seconds() - t0;
    }
    qsort(t, reps, sizeof(t[0]), cmp_double);
    return reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

struct options {
    int rows[N_ROWS]; // selected rows
    int n_add, n_red; // elements of the add and c rows, of the reductions
    int reps;
    int rates; // print rates only, one per line (how a run of itself reports back)
    int check;
    int all_cores; // also run the rows on every core
    int cpu_clock; // time with the process's CPU time, not the wall clock
};

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--rows LIST] [--n N] [--n-reduce N] [--reps R] [--check] [--one-worker]\n"
            "          [--cpu-clock]\n"
            "  --rows LIST    rows to run, comma-separated: add,c,reduce,shuffle (default: all)\n"
            "  --n N          elements of the vector add and plain C rows (default 16777216)\n"
            "  --n-reduce N   threads of the reduction rows (default 1048576)\n"
            "  --reps R       runs per row; the median is printed (default 5)\n"
            "  --check        add and reduce again under GPULAB_SIM_CHECK=all\n"
            "  --one-worker   only GPULAB_SIM_THREADS=1 (default: then again on every core)\n"
            "  --cpu-clock    time with the process's CPU time (all its threads), not the wall\n"
            "                 clock: steadier on a loaded machine; meaningful for one worker\n"
            "  --rates        print each selected row's rate (per second), one per line\n"
            "Workers: GPULAB_SIM_THREADS if set, else 1; the every-core rows use one per core.\n",
            argv0);
}

static int parse_rows(const char *list, int *rows)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    for (int k = 0; k < N_ROWS; k++)
        rows[k] = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int found = 0;
        for (int k = 0; k < N_ROWS; k++)
            if (strcmp(tok, row_names[k]) == 0)
                rows[k] = found = 1;
        if (!found)
            return -1;
    }
    return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){ { 1, 1, 1, 1 }, 1 << 24, 1 << 20, 5, 0, 0, 1, 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, argv[0]);
            exit(0);
        } else if (strcmp(a, "--rates") == 0) {
            o->rates = 1;
        } else if (strcmp(a, "--check") == 0) {
            o->check = 1;
        } else if (strcmp(a, "--one-worker") == 0) {
            o->all_cores = 0;
        } else if (strcmp(a, "--cpu-clock") == 0) {
            o->cpu_clock = 1;
        } else if (strcmp(a, "--rows") == 0 && v) {
            if (parse_rows(v, o->rows) != 0)
                return -1;
            i++;
        } else if ((strcmp(a, "--n") == 0 || strcmp(a, "--n-reduce") == 0 ||
                    strcmp(a, "--reps") == 0) &&
                   v) {
            char *end;
            long x = strtol(v, &end, 10);
            if (*end || x < 1 || x > (1 << 28))
                return -1;
            *(strcmp(a, "--n") == 0          ? &o->n_add
              : strcmp(a, "--n-reduce") == 0 ? &o->n_red
                                             : &o->reps) = (int)x;
            i++;
        } else {
            return -1;
        }
    }
    return 0;
}

// Runs this program (or its check twin) with `env` and --rates for `rows`;
// reads one rate per selected row into rates[]. Returns 0 on success.
static int rates_of_run(const char *env, int twin, const char *rows, const struct options *o,
                        double *rates, int count)
{
    char cmd[4600], self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 20);
    if (n <= 0 || memchr(self, '\'', n))
        return -1;
    self[n] = '\0';
    if (twin)
        strcat(self, ".check");
    snprintf(cmd, sizeof(cmd),
             "%s '%s' --rates --rows %s --n %d --n-reduce %d --reps %d%s 2>/dev/null", env, self,
             rows, o->n_add, o->n_red, o->reps, o->cpu_clock ? " --cpu-clock" : "");
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int got = 0;
    while (got < count && fscanf(p, "%lf", &rates[got]) == 1)
        got++;
    return pclose(p) == 0 && got == count ? 0 : -1;
}

static void print_row(enum which k, double rate, int one_worker)
{
    double target = one_worker ? row_targets[k] : 0;
    printf("%-46s %10.1f M/s", row_titles[k], rate / 1e6);
    if (target > 0)
        printf("   target >= %5.0f M/s   %s", target / 1e6, rate >= target ? "meets" : "BELOW");
    printf("\n");
}

// The selected rows with this process's workers: rates[k] per second.
static void measure(const struct options *o, const float *a, const float *b, float *c,
                    double *rates)
{
    for (int k = 0; k < N_ROWS; k++) {
        if (!o->rows[k])
            continue;
        int n = k == VEC_ADD || k == PLAIN_C ? o->n_add : o->n_red;
        rates[k] = n / time_row((enum which)k, a, b, c, n, o->reps);
    }
}

static int report(const struct options *o, const double *rates);

int main(int argc, char **argv)
{
    struct options o;
    if (parse_options(argc, argv, &o) != 0) {
        usage(stderr, argv[0]);
        return 2;
    }
    setenv("GPULAB_SIM_THREADS", "1", 0);
    if (o.cpu_clock)
        row_clock = CLOCK_PROCESS_CPUTIME_ID;
    int n = o.n_add > o.n_red ? o.n_add : o.n_red;
    float *a, *b, *c;
    CHECK(cudaMallocManaged((void **)&a, sizeof(float) * n, cudaMemAttachGlobal));
    CHECK(cudaMallocManaged((void **)&b, sizeof(float) * n, cudaMemAttachGlobal));
    CHECK(cudaMallocManaged((void **)&c, sizeof(float) * n, cudaMemAttachGlobal));
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 13);
        b[i] = (float)(i % 7);
    }
    time_row(VEC_ADD, a, b, c, 1 << 16, 1); // start the device, touch the code
    double rates[N_ROWS] = { 0 };
    measure(&o, a, b, c, rates);
    if (o.rates) {
        for (int k = 0; k < N_ROWS; k++)
            if (o.rows[k])
                printf("%f\n", rates[k]);
    } else if (report(&o, rates) != 0) {
        return 1;
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return 0;
}

// Prints the rows measured here (rates[]), then runs the every-core and
// check-mode rows. Returns 0 on success.
static int report(const struct options *op, const double *rates)
{
    const struct options o = *op;

    char rows[64] = "";
    int count = 0;
    for (int k = 0; k < N_ROWS; k++)
        if (o.rows[k] && k != PLAIN_C) {
            snprintf(rows + strlen(rows), sizeof(rows) - strlen(rows), "%s%s", count ? "," : "",
                     row_names[k]);
            count++;
        }
    const char *workers = getenv("GPULAB_SIM_THREADS");
    printf("gpulab simulator benchmark: %s worker thread(s), n = %d (add, c), %d (reduce, "
           "shuffle), median of %d runs, times from the %s\n",
           workers, o.n_add, o.n_red, o.reps,
           o.cpu_clock ? "process's CPU time (all its threads)" : "CPU wall clock");
    for (int k = 0; k < N_ROWS; k++) {
        if (!o.rows[k])
            continue;
        print_row((enum which)k, rates[k], strcmp(workers, "1") == 0);
        if (k == PLAIN_C && o.rows[VEC_ADD])
            printf("%-46s %10.2fx the plain C loop's speed (target >= 0.8)\n", "vector add is",
                   rates[VEC_ADD] / rates[PLAIN_C]);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (o.all_cores && cores > 1 && count > 0) {
        char env[64];
        double r[N_ROWS];
        snprintf(env, sizeof(env), "GPULAB_SIM_THREADS=%ld", cores);
        if (rates_of_run(env, 0, rows, &o, r, count) != 0) {
            printf("could not run this program again with %s\n", env);
            return 1;
        }
        printf("the same with %ld worker threads (one per core):\n", cores);
        for (int k = 0, i = 0; k < N_ROWS; k++)
            if (o.rows[k] && k != PLAIN_C) {
                print_row((enum which)k, r[i], 0);
                printf("%-46s %10.2fx the one-worker rate\n", "", r[i] / rates[k]);
                i++;
            }
    }
    if (o.check) {
        double r[2];
        if (rates_of_run("GPULAB_SIM_CHECK=all GPULAB_SIM_THREADS=1", 1, "add,reduce", &o, r, 2) !=
            0) {
            printf("check mode: could not run this program's check twin (bench-sim.check)\n");
            return 1;
        }
        printf("check mode (GPULAB_SIM_CHECK=all), one worker:\n");
        printf("%-46s %10.1f M/s   target >=    20 M/s   %s   %.1fx slower\n",
               "check mode: vector add (threads)", r[0] / 1e6, r[0] >= 20e6 ? "meets" : "BELOW",
               rates[VEC_ADD] > 0 ? rates[VEC_ADD] / r[0] : 0.0);
        printf("%-46s %10.1f M/s   target >=     5 M/s   %s   %.1fx slower\n",
               "check mode: 256-thread reduction (threads)", r[1] / 1e6,
               r[1] >= 5e6 ? "meets" : "BELOW",
               rates[REDUCE_SHARED] > 0 ? rates[REDUCE_SHARED] / r[1] : 0.0);
    }
    return 0;
}
