/*
 * Lab 04's harness (students do not edit it): the simulator's counts of each
 * version's global memory traffic, read through the kit's lab/stats.h (on
 * the cuda backend there are none, and the table says so).
 */
#define _POSIX_C_SOURCE 200809L /* strtok */
#include "harness.h"
#include "matvec.h"

#include "lab/check.h"
#include "lab/protocol.h"
#include "lab/stats.h"

#include <stdio.h>
#include <string.h>

/* The counts of the last kernel, when this run counts (the sim backend, run
 * counting by lab_kernel_stats_rerun or with GPULAB_SIM_STATS=1); else valid = 0. */
lab04_sector_counts lab04_last_kernel_counts(void)
{
    lab04_sector_counts c = { 0, 0, 0, 0, 0 };
    lab_kernel_stats st;
    if (lab_kernel_stats_last(&st, NULL) == LAB_OK) {
        c.valid = 1;
        c.load_requests = st.load_requests;
        c.load_sectors = st.load_sectors;
        c.store_requests = st.store_requests;
        c.store_sectors = st.store_sectors;
    }
    return c;
}

/* --count-sectors: one launch of each version on the demo's shape, counted by
 * the simulator; one line "sectors v<k> <load req> <load sec> <store req>
 * <store sec>" each. Only in a counting run (see lab04_count_sectors_in_child). */
int lab04_count_sectors_here(void)
{
    const int N = LAB04_DEMO_N, M = LAB04_DEMO_M;
    float *d_A, *d_v, *d_u;
    LAB_CHECK(cudaMalloc((void **)&d_A, sizeof(float) * (size_t)N * M));
    LAB_CHECK(cudaMalloc((void **)&d_v, sizeof(float) * M));
    LAB_CHECK(cudaMalloc((void **)&d_u, sizeof(float) * N));
    LAB_CHECK(cudaMemset(d_A, 0, sizeof(float) * (size_t)N * M));
    LAB_CHECK(cudaMemset(d_v, 0, sizeof(float) * M));
    for (int version = 1; version <= LAB04_VERSIONS; version++) {
        matvec(version, d_u, d_A, d_v, N, M);
        LAB_CHECK(cudaDeviceSynchronize());
        lab04_sector_counts c = lab04_last_kernel_counts();
        if (!c.valid) {
            fprintf(stderr, "%s: --count-sectors needs the sim backend and GPULAB_SIM_STATS=1\n",
                    GPULAB_LAB_NAME);
            return LAB_EXIT_USAGE;
        }
        printf("sectors v%d %llu %llu %llu %llu\n", version, c.load_requests, c.load_sectors,
               c.store_requests, c.store_sectors);
    }
    LAB_CHECK(cudaFree(d_A));
    LAB_CHECK(cudaFree(d_v));
    LAB_CHECK(cudaFree(d_u));
    return LAB_EXIT_PASS;
}

/* The demo's table wants the counts, but counting slows every access down,
 * and timing must not pay for it: so this program runs itself again,
 * counting, with --count-sectors, and reads the lines back. */
int lab04_count_sectors_in_child(lab04_sector_counts out[LAB04_VERSIONS + 1])
{
    char text[4096];
    memset(out, 0, sizeof(lab04_sector_counts) * (LAB04_VERSIONS + 1));
    if (lab_kernel_stats_rerun(text, sizeof(text), "--count-sectors", NULL) != LAB_OK)
        return -1;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int v;
        lab04_sector_counts c = { 1, 0, 0, 0, 0 };
        if (sscanf(line, "sectors v%d %llu %llu %llu %llu", &v, &c.load_requests, &c.load_sectors,
                   &c.store_requests, &c.store_sectors) == 5 &&
            v >= 1 && v <= LAB04_VERSIONS)
            out[v] = c;
    }
    return 0;
}
