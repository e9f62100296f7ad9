/*
 * Lab 04's harness (students do not edit it): the demo's table. Every
 * version that passed validation, cublasSgemv, cblas_sgemv and a
 * device-to-device copy (the bandwidth reference) timed, each row saying
 * what timed it; with the simulator's performance model, its summary.
 */
#include "harness.h"
#include "matvec.h"
#include "reference.h"

#include "lab/alloc.h"
#include "lab/check.h"
#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab/stats.h"
#include "lab/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bench {
    const lab04_problem *p;
    int version; /* 0: cublasSgemv; -1: cudaMemcpy D2D of A, the bandwidth reference */
    cublasHandle_t handle;
    float *cpu_u;
    float *d_copy; /* version -1: the destination of a device-to-device copy of A */
} bench;

static void run_device(void *ctx)
{
    const bench *b = ctx;
    if (b->version < 0)
        LAB_CHECK(cudaMemcpy(b->d_copy, b->p->d_A, sizeof(float) * (size_t)b->p->N * b->p->M,
                             cudaMemcpyDeviceToDevice));
    else if (b->version == 0)
        lab04_matvec_cublas(b->handle, b->p->d_u, b->p->d_A, b->p->d_v, b->p->N, b->p->M);
    else
        matvec(b->version, b->p->d_u, b->p->d_A, b->p->d_v, b->p->N, b->p->M);
}

static void run_cpu(void *ctx)
{
    const bench *b = ctx;
    lab04_matvec_cpu(b->cpu_u, b->p->A, b->p->v, b->p->N, b->p->M);
}

/* Whether event times are the simulator's performance model's (GPULAB_SIM_MODEL,
 * docs/model.md). */
static int is_modeled(void)
{
    return lab_cuda_timer_modeled_gpu() != NULL;
}

/* One row of the table: time, what produced it, bandwidth, its share of the
 * reference (peak_gbs; none when 0), and with the model on the simulator's
 * CPU time of the same calls (cpu_seconds; none when 0). */
static void print_row(const char *name, double seconds, const char *clock, double bytes,
                      double peak_gbs, double cpu_seconds, const char *sectors)
{
    /* Effective bandwidth = bytes u = A v must move / time
     *                     = 4 (N M + M + N) / t   (A and v read once, u written once). */
    double gbs = bytes / seconds / 1e9;
    char frac[32] = "", cpu[32] = "";
    if (peak_gbs > 0)
        snprintf(frac, sizeof(frac), "%5.1f%%", 100.0 * gbs / peak_gbs);
    if (cpu_seconds > 0)
        snprintf(cpu, sizeof(cpu), "%9.3f ms", cpu_seconds * 1e3);
    printf("  %-54s %10.3f ms  %-20s %8.2f GB/s %7s %12s  %s\n", name, seconds * 1e3, clock, gbs,
           frac, cpu, sectors);
}

/* Times b's device work: warmup untimed calls, then reps calls, each between
 * two events (CUDA events, or the modeled clock with the model on) into *ev
 * and, when cpu is not NULL, on the CPU wall clock from the call until the
 * stop event has completed into *cpu (seconds). */
static void time_device(bench *b, int warmup, int reps, lab_time_stats *ev, lab_time_stats *cpu)
{
    double *e = lab_xmalloc(sizeof(double) * reps), *c = lab_xmalloc(sizeof(double) * reps);
    lab_cuda_timer t;
    LAB_CHECK(lab_cuda_timer_create(&t));
    for (int i = 0; i < warmup; i++)
        run_device(b);
    for (int i = 0; i < reps; i++) {
        float ms;
        double t0 = lab_wall_seconds();
        LAB_CHECK(lab_cuda_timer_start(&t, 0));
        run_device(b);
        LAB_CHECK(lab_cuda_timer_stop(&t, 0));
        LAB_CHECK(lab_cuda_timer_elapsed_ms(&t, &ms));
        c[i] = lab_wall_seconds() - t0;
        e[i] = ms / 1e3;
    }
    lab_error err;
    LAB_CHECK_STATUS(lab_time_stats_compute(ev, e, (size_t)reps, &err), &err);
    if (cpu)
        LAB_CHECK_STATUS(lab_time_stats_compute(cpu, c, (size_t)reps, &err), &err);
    lab_cuda_timer_destroy(&t);
    free(e);
    free(c);
}

/* With the model on: each version's modeled speed-up over v1 beside the
 * ratio of the sectors they load (a memory-bound kernel's modeled time
 * follows its sectors), and cuBLAS's bandwidth against the copy's. */
static void print_model_summary(const double seconds[], const lab04_sector_counts counts[],
                                double copy_gbs, double cublas_gbs)
{
    const char *gpu = lab_cuda_timer_modeled_gpu();
    printf("\n  Modeled %s (docs/model.md): ", gpu);
    if (seconds[1] > 0)
        for (int v = 2; v <= LAB04_VERSIONS; v++)
            if (seconds[v] > 0)
                printf("v%d %.2fx%s", v, seconds[1] / seconds[v],
                       v < LAB04_VERSIONS ? " and " : " faster than v1.\n");
    if (counts[1].valid && counts[1].load_requests) {
        printf("  A memory-bound kernel's modeled time follows the 32-byte sectors it touches\n"
               "  (requests x sectors per request): v1 loads %llu sectors (%llu requests x %.2f)",
               counts[1].load_sectors, counts[1].load_requests,
               lab_kernel_stats_per_request(counts[1].load_sectors, counts[1].load_requests));
        for (int v = 2; v <= LAB04_VERSIONS; v++)
            if (counts[v].valid && counts[v].load_sectors)
                printf(
                    ",\n  v%d %llu (%llu x %.2f): %.2fx fewer", v, counts[v].load_sectors,
                    counts[v].load_requests,
                    lab_kernel_stats_per_request(counts[v].load_sectors, counts[v].load_requests),
                    (double)counts[1].load_sectors / (double)counts[v].load_sectors);
        printf(".\n");
    }
    if (copy_gbs > 0 && cublas_gbs > 0)
        printf("  cublasSgemv: %.1f GB/s modeled, %.0f%% of the modeled device-to-device copy's "
               "%.1f GB/s (the most\n  a streaming kernel gets on this GPU in the model): %s.\n",
               cublas_gbs, 100.0 * cublas_gbs / copy_gbs, copy_gbs,
               cublas_gbs >= 0.8 * copy_gbs ? "near the bandwidth bound"
                                            : "below the bandwidth bound");
}

void lab04_time_all(const lab04_problem *demo, cublasHandle_t h, const int ok_version[],
                    double peak_gbs)
{
    const int reps = lab_backend_is_sim() ? 3 : 50, warmup = lab_backend_is_sim() ? 1 : 5;
    const int modeled = is_modeled();
    const double bytes = lab04_matvec_bytes(demo->N, demo->M);
    const size_t a_bytes = sizeof(float) * (size_t)demo->N * demo->M;
    lab04_sector_counts counts[LAB04_VERSIONS + 1];
    double seconds[LAB04_VERSIONS + 1] = { 0 }, copy_gbs = 0.0;
    char sectors[64];
    lab_time_stats st, cpu;
    lab_error err;
    bench b = { demo, 0, h, lab_xmalloc(sizeof(float) * demo->N), NULL };

    memset(counts, 0, sizeof(counts));
    if (lab_backend_is_sim() && lab04_count_sectors_in_child(counts) != 0)
        printf("  (the simulator's counts could not be read: is %s.check built?)\n",
               GPULAB_LAB_NAME);
    printf("\nu = A v, N = %d, M = %d: median of %d runs after %d warm-up\n", demo->N, demo->M,
           reps, warmup);
    printf("  %-54s %13s  %-20s %13s %7s %12s  %s\n", "version", "time", "timed by", "bandwidth",
           peak_gbs > 0 ? "of peak"
           : modeled    ? "of copy"
                        : "",
           modeled ? "sim CPU time" : "", lab_backend_is_sim() ? "sectors per warp load" : "");
    LAB_CHECK_STATUS(lab_time_repeat(&st, run_cpu, &b, warmup, reps, &err), &err);
    print_row("cblas_sgemv (OpenBLAS, CPU)", st.median, "CPU wall clock", bytes, 0.0, 0.0, "");

    /* The bandwidth reference: a device-to-device copy of A reads and writes
     * each byte once, bytes moved = 2 x 4 N M. */
    LAB_CHECK(cudaMalloc((void **)&b.d_copy, a_bytes));
    b.version = -1;
    time_device(&b, warmup, reps, &st, modeled ? &cpu : NULL);
    copy_gbs = 2.0 * (double)a_bytes / st.median / 1e9;
    print_row("cudaMemcpy D2D of A (the bandwidth reference)", st.median,
              lab_cuda_timer_clock_name(), 2.0 * (double)a_bytes, peak_gbs,
              modeled ? cpu.median : 0.0, "");
    LAB_CHECK(cudaFree(b.d_copy));
    b.d_copy = NULL;

    for (int version = 0; version <= LAB04_VERSIONS; version++) {
        const char *name = version ? matvec_describe(version) : "cublasSgemv (cuBLAS)";
        if (!ok_version[version]) {
            printf("  %-54s not timed: it failed validation\n", name);
            continue;
        }
        b.version = version;
        time_device(&b, warmup, reps, &st, modeled ? &cpu : NULL);
        seconds[version] = st.median;
        sectors[0] = '\0';
        if (version && counts[version].valid)
            snprintf(sectors, sizeof(sectors), "%5.2f (%llu / %llu)",
                     lab_kernel_stats_per_request(counts[version].load_sectors,
                                                  counts[version].load_requests),
                     counts[version].load_sectors, counts[version].load_requests);
        else if (version == 0 && lab_backend_is_sim())
            snprintf(sectors, sizeof(sectors), "(a library call, not counted)");
        print_row(name, st.median, lab_cuda_timer_clock_name(), bytes,
                  peak_gbs > 0 ? peak_gbs
                  : modeled    ? copy_gbs
                               : 0.0,
                  modeled ? cpu.median : 0.0, sectors);
    }
    printf("  bandwidth = 4 (N M + M + N) bytes / time: A and v read once, u written once "
           "(the copy: 2 x 4 N M).\n");
    if (modeled) {
        print_model_summary(seconds, counts, copy_gbs,
                            seconds[0] > 0 ? bytes / seconds[0] / 1e9 : 0.0);
        printf("\n  Model figures, not measurements: the \"%s\" times are what the "
               "simulator's\n  performance model (docs/model.md) says that GPU would take, from "
               "the simulator's counts of\n  each kernel's sectors, requests and launch. Every "
               "sector is charged to DRAM (no caches), so v1,\n  which a GPU's caches help, is "
               "modeled slower than it would be: the ranking holds, the gap is\n  overstated. "
               "\"sim CPU time\" is this machine's CPU time for the same calls (the simulator's\n"
               "  instrumented build, which the model needs). Another GPU: GPULAB_SIM_MODEL=a100 "
               "(t4, l4, v100,\n  rtx3060, rtx4090, a100, h100-sxm, h100-pcie, h200, ...: "
               "docs/model.md); "
               "no model: GPULAB_SIM_MODEL=off.\n",
               lab_cuda_timer_clock_name());
    } else if (lab_backend_is_sim()) {
        printf("  Simulator figures: times are CPU time on this machine, not GPU time. For "
               "modeled GPU times\n  leave GPULAB_SIM_MODEL unset (the T4) or name a GPU: "
               "GPULAB_SIM_MODEL=a100 (docs/model.md).\n");
    }
    if (lab_backend_is_sim())
        printf("  Sectors per warp load are the simulator's counts of 32-byte sectors per warp "
               "load instruction\n  (4 is the least for 32 floats).\n");
    free(b.cpu_u);
}
