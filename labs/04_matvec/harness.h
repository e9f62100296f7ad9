/*
 * harness.h — what the files of lab 04's harness share (main.c, validate.c,
 * timing.c, sectors.c, graded.c, bigmm.c). Students do not edit it.
 */
#ifndef LAB04_HARNESS_H
#define LAB04_HARNESS_H

#include "matvec.h"

#include "lab/protocol.h"

#include <cublas_v2.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LAB04_DEMO_N 100000 /* the demo's shape: A is (N, M) */
#define LAB04_DEMO_M 100
#define LAB04_DEMO_SEED 4

/* Counts of one kernel's global memory traffic (lab/stats.h): a request is
 * one warp executing one load (or store) instruction; a sector is 32 bytes. */
typedef struct lab04_sector_counts {
    int valid;
    unsigned long long load_requests, load_sectors, store_requests, store_sectors;
} lab04_sector_counts;

/* The counts of the last kernel, when this run counts (the sim backend, run
 * counting by lab_kernel_stats_rerun or with GPULAB_SIM_STATS=1); else valid = 0. */
lab04_sector_counts lab04_last_kernel_counts(void);

/* --count-sectors: each version launched once on the demo's shape, its counts
 * printed one line each. Returns the exit status. */
int lab04_count_sectors_here(void);

/* The demo's counts without slowing its timing: this program run again with
 * --count-sectors, counting, and its lines read back into out[1..]. Returns
 * 0, or -1 when they could not be read. */
int lab04_count_sectors_in_child(lab04_sector_counts out[LAB04_VERSIONS + 1]);

/* One validation problem: inputs, the CPU reference, the device copies. */
typedef struct lab04_problem {
    int N, M;
    float *A, *v, *want; /* host: inputs and the CPU reference */
    float *d_A, *d_v, *d_u;
    double atol;
} lab04_problem;

/* A (N, M) and v (M) with normal entries from the demo's seed and `stream`,
 * u = A v on the CPU, and the inputs copied to the device. */
void lab04_problem_make(lab04_problem *p, int N, int M, uint64_t stream);
void lab04_problem_free(lab04_problem *p);

/* Validates cublasSgemv (version 0) and every version on demo and on the
 * awkward shapes; ok_version[v] says which passed. Returns 1 when all did. */
int lab04_validate_all(const lab04_problem *demo, cublasHandle_t h, int ok_version[]);

/* Times every version that passed on demo and prints the table (peak_gbs:
 * the device's peak bandwidth, or 0 when unknown). */
void lab04_time_all(const lab04_problem *demo, cublasHandle_t h, const int ok_version[],
                    double peak_gbs);

/* Graded mode (graded.c). Returns the exit status. */
int lab04_graded(const lab_args *args);

/* The big matmul of the demo: C = A A for an n x n matrix A, cblas_sgemm
 * against cublasSgemm (matmul_cublas), GFLOP/s, and the timing trap.
 * Returns 1 when the GPU's C matches the CPU's. */
int lab04_big_matmul(int n, cublasHandle_t handle);

#ifdef __cplusplus
}
#endif

#endif
