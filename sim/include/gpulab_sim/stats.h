/*
 * gpulab_sim/stats.h — the simulator's access counts for the last kernel, for
 * a program that wants to show them (lab 04: coalesced vs strided loads).
 * Counting is on when the program runs with GPULAB_SIM_STATS=1 (which also
 * prints a table per kernel on stderr); it needs the program's check twin,
 * as GPULAB_SIM_CHECK does. Usable from C and C++, on the sim backend only.
 */
#ifndef GPULAB_SIM_STATS_H
#define GPULAB_SIM_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Counts of one kernel launch. A "request" is one warp executing one load or
 * store instruction; a sector is 32 bytes of device memory it touches. A
 * shared-memory request takes one wavefront (one pass over the 32 banks of 4
 * bytes) per distinct word its busiest bank serves: 1 without bank
 * conflicts, 32 when the 32 lanes read 32 words of one bank (lanes reading
 * the same word share it). */
struct gpulab_sim_kernel_stats {
    unsigned long long threads;
    unsigned long long global_loads, global_stores; /* by all threads */
    unsigned long long shared_loads, shared_stores;
    unsigned long long load_requests, load_sectors;
    unsigned long long store_requests, store_sectors;
    unsigned long long shared_requests, shared_wavefronts;
};

/* Fills *out with the counts of the last kernel that finished; returns 0, or
 * -1 when counting is off (no GPULAB_SIM_STATS=1, or not the check build). */
int gpulab_sim_last_kernel_stats(struct gpulab_sim_kernel_stats *out);

#ifdef __cplusplus
}
#endif

#endif
