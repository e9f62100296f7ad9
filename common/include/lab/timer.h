/**
 * @file timer.h
 * @brief CPU wall-clock time and statistics over repeated measurements.
 *
 * lab_wall_seconds() reads the monotonic clock, which never jumps when the
 * system time is set. Every time it gives is CPU wall-clock time, not GPU time:
 * a kernel launch returns before the kernel ends, so time device work with the
 * CUDA-event timers, or synchronize inside the timed function.
 *
 * lab_time_repeat() runs a function a few times untimed (warm-up: caches,
 * lazy initialization, clock ramp-up), then times each of a number of runs and
 * summarizes them. Report the median or the minimum; the mean is pulled up by
 * the occasional interrupted run.
 * @code
 * lab_time_stats st;
 * lab_error err;
 * if (lab_time_repeat(&st, run_matvec, &args, 2, 10, &err) == LAB_OK)
 *     printf("matvec: median %.3f ms (CPU wall clock, %zu runs)\n", st.median * 1e3, st.n);
 * @endcode
 */
#ifndef LAB_TIMER_H
#define LAB_TIMER_H

#include <stddef.h>

#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Seconds on the monotonic clock (CLOCK_MONOTONIC) from an arbitrary origin.
 *
 * Only differences between two calls mean something; they never go negative.
 * @return Seconds, with the clock's resolution (typically 1 ns).
 */
double lab_wall_seconds(void);

/** @brief Summary of a set of time samples (all in the samples' unit, e.g. seconds). */
typedef struct lab_time_stats {
    size_t n;      /**< Number of samples. */
    double min;    /**< Smallest sample. */
    double median; /**< Middle sample; the mean of the two middle ones when n is even. */
    double max;    /**< Largest sample. */
    double mean;   /**< Arithmetic mean. */
    double stddev; /**< Sample standard deviation (divides by n - 1); 0 when n is 1. */
} lab_time_stats;

/**
 * @brief Computes min, median, max, mean and standard deviation of samples.
 *
 * The samples are not modified (the median is taken from a sorted copy).
 * On error nothing is written to @p out.
 * @param[out] out  Statistics.
 * @param samples   The @p n samples.
 * @param n         Number of samples; must be at least 1.
 * @param[out] err  Why it failed; may be NULL.
 * @return LAB_OK; LAB_EINVAL when @p n is 0 or a pointer is NULL; LAB_ENOMEM
 *         when the sorted copy cannot be allocated.
 */
LAB_MUST_CHECK int lab_time_stats_compute(lab_time_stats *out, const double *samples, size_t n,
                                          lab_error *err);

/**
 * @brief Runs @p fn @p warmup times untimed, then @p reps times, each timed alone.
 *
 * Each timed run is measured with lab_wall_seconds() around one call, so the
 * statistics are in seconds of CPU wall-clock time. On error nothing is
 * written to @p out and @p fn is not called.
 * @param[out] out Statistics of the @p reps run times, in seconds.
 * @param fn       Function to time.
 * @param ctx      Passed to every call of @p fn.
 * @param warmup   Untimed calls first (>= 0).
 * @param reps     Timed calls (>= 1).
 * @param[out] err Why it failed; may be NULL.
 * @return LAB_OK; LAB_EINVAL for a NULL @p out or @p fn, @p warmup < 0 or
 *         @p reps < 1; LAB_ENOMEM when the samples cannot be allocated.
 */
LAB_MUST_CHECK int lab_time_repeat(lab_time_stats *out, void (*fn)(void *ctx), void *ctx,
                                   int warmup, int reps, lab_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAB_TIMER_H */
