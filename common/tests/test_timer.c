/* Unit tests of lab/timer.h. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include "lab/error.h"
#include "lab/timer.h"
#include "lab_test.h"

#include <errno.h>
#include <string.h>
#include <time.h>

static void test_known_stats_odd(void)
{
    const double samples[] = { 4.0, 1.0, 9.0, 2.0, 4.0 };
    double copy[5];
    memcpy(copy, samples, sizeof(copy));
    lab_time_stats st;
    CHECK_EQ_INT(lab_time_stats_compute(&st, copy, 5, NULL), LAB_OK);
    CHECK_EQ_INT(st.n, 5);
    CHECK(st.min == 1.0);
    CHECK(st.max == 9.0);
    CHECK(st.median == 4.0);
    CHECK(st.mean == 4.0);
    /* deviations 0 -3 5 -2 0: squares sum 38, / (n - 1) = 9.5 */
    CHECK_NEAR(st.stddev, sqrt(9.5), 1e-12);
    CHECK(memcmp(copy, samples, sizeof(copy)) == 0); /* input untouched */
}

static void test_even_median_and_single(void)
{
    const double even[] = { 10.0, 3.0, 1.0, 7.0 };
    lab_time_stats st;
    CHECK_EQ_INT(lab_time_stats_compute(&st, even, 4, NULL), LAB_OK);
    CHECK(st.median == 5.0); /* (3 + 7) / 2 */
    CHECK(st.mean == 5.25);
    const double one = 0.125;
    CHECK_EQ_INT(lab_time_stats_compute(&st, &one, 1, NULL), LAB_OK);
    CHECK(st.min == 0.125 && st.median == 0.125 && st.max == 0.125 && st.mean == 0.125);
    CHECK(st.stddev == 0.0);
}

static void test_invalid_arguments(void)
{
    lab_time_stats st = { 99, 1, 2, 3, 4, 5 };
    const double x = 1.0;
    lab_error err;
    CHECK_EQ_INT(lab_time_stats_compute(&st, &x, 0, &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "no samples");
    CHECK_EQ_INT(lab_time_stats_compute(&st, NULL, 1, NULL), LAB_EINVAL);
    CHECK_EQ_INT(lab_time_stats_compute(NULL, &x, 1, NULL), LAB_EINVAL);
    CHECK_EQ_INT(st.n, 99); /* nothing written on error */
}

static void count_call(void *ctx)
{
    ++*(int *)ctx;
}

static void test_repeat_counts_calls(void)
{
    int calls = 0;
    lab_time_stats st;
    CHECK_EQ_INT(lab_time_repeat(&st, count_call, &calls, 3, 7, NULL), LAB_OK);
    CHECK_EQ_INT(calls, 10);
    CHECK_EQ_INT(st.n, 7);
    CHECK(st.min >= 0.0 && st.min <= st.median && st.median <= st.max);
    calls = 0;
    CHECK_EQ_INT(lab_time_repeat(&st, count_call, &calls, 0, 1, NULL), LAB_OK);
    CHECK_EQ_INT(calls, 1);
    CHECK_EQ_INT(lab_time_repeat(&st, count_call, &calls, 0, 0, NULL), LAB_EINVAL);
    CHECK_EQ_INT(lab_time_repeat(&st, count_call, &calls, -1, 3, NULL), LAB_EINVAL);
    CHECK_EQ_INT(lab_time_repeat(&st, NULL, &calls, 0, 3, NULL), LAB_EINVAL);
    CHECK_EQ_INT(calls, 1); /* fn not called on error */
}

static void sleep_2ms(void *ctx)
{
    (void)ctx;
    struct timespec ts = { 0, 2000000 };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void test_repeat_measures_sleep(void)
{
    lab_time_stats st;
    CHECK_EQ_INT(lab_time_repeat(&st, sleep_2ms, NULL, 1, 5, NULL), LAB_OK);
    CHECK(st.min >= 0.0015);
    CHECK(st.max < 1.0); /* generous: only catches a wrong unit */
}

static void test_clock_is_monotonic(void)
{
    double prev = lab_wall_seconds();
    int backwards = 0;
    for (int i = 0; i < 100000; i++) {
        double now = lab_wall_seconds();
        backwards += now < prev;
        prev = now;
    }
    CHECK_EQ_INT(backwards, 0);
    CHECK(prev > 0.0);
}

int main(void)
{
    LAB_TEST_RUN(test_known_stats_odd);
    LAB_TEST_RUN(test_even_median_and_single);
    LAB_TEST_RUN(test_invalid_arguments);
    LAB_TEST_RUN(test_repeat_counts_calls);
    LAB_TEST_RUN(test_repeat_measures_sleep);
    LAB_TEST_RUN(test_clock_is_monotonic);
    LAB_TEST_MAIN_END();
}
