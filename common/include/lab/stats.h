/**
 * @file stats.h
 * @brief How a kernel touched memory: the simulator's access counts, for
 *        harnesses that show them (lab 04: coalesced vs strided loads).
 *
 * Counting is the simulator's (its check build counts every access); on the
 * cuda backend these functions return `LAB_EUNSUPPORTED`. Counting slows
 * every access down, so a harness that also times its kernels asks for the
 * counts in a second run of itself (lab_kernel_stats_rerun()) and keeps its
 * own run uncounted. A harness needs no simulator header for any of this.
 */
#ifndef LAB_STATS_H
#define LAB_STATS_H

#include "lab/error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Counts of one kernel launch's memory traffic. A request is one warp
 *         executing one load or store instruction; a sector is 32 bytes of
 *         device memory that request touches. */
typedef struct lab_kernel_stats {
    unsigned long long threads;        /**< Threads that ran. */
    unsigned long long global_loads;   /**< Global-memory loads, by all threads. */
    unsigned long long global_stores;  /**< Global-memory stores, by all threads. */
    unsigned long long shared_loads;   /**< Shared-memory loads, by all threads. */
    unsigned long long shared_stores;  /**< Shared-memory stores, by all threads. */
    unsigned long long load_requests;  /**< Warp-level global load requests. */
    unsigned long long load_sectors;   /**< 32-byte sectors those loads touched. */
    unsigned long long store_requests; /**< Warp-level global store requests. */
    unsigned long long store_sectors;  /**< 32-byte sectors those stores touched. */
} lab_kernel_stats;

/**
 * @brief The counts of the last kernel that finished in this program.
 * @param[out] out Filled on success; untouched on error.
 * @param err      Optional: why there are none.
 * @return `LAB_OK`; `LAB_EUNSUPPORTED` when this program does not count: the
 *         cuda backend, or a sim program not run by lab_kernel_stats_rerun()
 *         (or with `GPULAB_SIM_STATS=1`).
 */
LAB_MUST_CHECK int lab_kernel_stats_last(lab_kernel_stats *out, lab_error *err);

/**
 * @brief Sectors per request, the coalescing figure: 0 when there were no
 *        requests.
 * @param sectors  Sectors touched.
 * @param requests Requests made.
 * @return sectors / requests, or 0.
 */
double lab_kernel_stats_per_request(unsigned long long sectors, unsigned long long requests);

/**
 * @brief Runs this program again, counting, and reads what it prints.
 *
 * The second run is this same executable with the one argument @p arg, the
 * simulator counting every access (`GPULAB_SIM_STATS=1`), the performance
 * model off and no model report written; its standard error is discarded.
 * In that run lab_kernel_stats_last() returns the counts, which it prints in
 * whatever form its caller parses.
 *
 * @param[out] buf Its standard output, NUL-terminated, cut to @p cap - 1 bytes.
 * @param cap      Size of @p buf (at least 1).
 * @param arg      The one command-line argument of the second run.
 * @param err      Optional: what went wrong.
 * @return `LAB_OK` when it ran and exited 0; `LAB_EUNSUPPORTED` on the cuda
 *         backend; `LAB_EIO` when it could not be started or failed;
 *         `LAB_EINVAL` for a NULL or empty argument or buffer. On error
 *         @p buf holds what was read, possibly nothing.
 */
LAB_MUST_CHECK int lab_kernel_stats_rerun(char *buf, size_t cap, const char *arg, lab_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAB_STATS_H */
