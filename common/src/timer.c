/* CPU wall clock and repeat statistics: see lab/timer.h. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include "lab/timer.h"
#include "lab/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double lab_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int lab_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Mean and sample standard deviation, two passes for accuracy. */
static void moments(lab_time_stats *st, const double *samples, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += samples[i];
    st->mean = sum / (double)n;
    double sq = 0.0;
    for (size_t i = 0; i < n; i++)
        sq += (samples[i] - st->mean) * (samples[i] - st->mean);
    st->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
}

int lab_time_stats_compute(lab_time_stats *out, const double *samples, size_t n, lab_error *err)
{
    if (!out || !samples || n == 0)
        return lab_error_set(err, LAB_EINVAL, "lab_time_stats_compute: %s",
                             n == 0 ? "no samples" : "a NULL pointer");
    double *sorted = malloc(n * sizeof(*sorted));
    if (!sorted)
        return lab_error_set(err, LAB_ENOMEM, "lab_time_stats_compute: no memory for %zu samples",
                             n);
    memcpy(sorted, samples, n * sizeof(*sorted));
    qsort(sorted, n, sizeof(*sorted), lab_compare_doubles);

    lab_time_stats st;
    st.n = n;
    st.min = sorted[0];
    st.max = sorted[n - 1];
    st.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    moments(&st, samples, n);
    free(sorted);
    *out = st;
    return LAB_OK;
}

int lab_time_repeat(lab_time_stats *out, void (*fn)(void *ctx), void *ctx, int warmup, int reps,
                    lab_error *err)
{
    if (!out || !fn || warmup < 0 || reps < 1)
        return lab_error_set(err, LAB_EINVAL,
                             "lab_time_repeat: needs a function, warmup >= 0 and reps >= 1 "
                             "(got warmup %d, reps %d)",
                             warmup, reps);
    double *samples = malloc((size_t)reps * sizeof(*samples));
    if (!samples)
        return lab_error_set(err, LAB_ENOMEM, "lab_time_repeat: no memory for %d samples", reps);
    for (int i = 0; i < warmup; i++)
        fn(ctx);
    for (int i = 0; i < reps; i++) {
        double t0 = lab_wall_seconds();
        fn(ctx);
        samples[i] = lab_wall_seconds() - t0;
    }
    int rc = lab_time_stats_compute(out, samples, (size_t)reps, err);
    free(samples);
    return rc;
}
