/*
 * Unit tests of lab/rng.h.
 *
 *   test-rng                          run the unit tests
 *   test-rng --print                  print the reference lines (see rng_reference.py)
 *   test-rng --check-python SCRIPT    run `python3 SCRIPT` and compare its lines with
 *                                     ours bit for bit (the unit-rng-reference test)
 *
 * The expected values pinned below were not copied from this library's output:
 * the PCG32 values are those of the reference pcg32-demo (seed 42, stream 54),
 * recomputed with an independent Python implementation; the normals come from
 * rng_reference.py.
 */
#define _POSIX_C_SOURCE 200809L

#include "lab/rng.h"
#include "lab_test.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

static float float_from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof(f));
    return f;
}

static uint64_t double_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof(b));
    return b;
}

static double double_from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof(d));
    return d;
}

/* ---------------------------------------------------------------------------
 * Unit tests
 */

static void test_reference_demo_values(void)
{
    static const uint32_t want[] = { 0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
                                     0x83d2f293u, 0xbfa4784bu, 0xcbed606eu };
    lab_rng rng;
    lab_rng_seed(&rng, 42, 54);
    CHECK_EQ_HEX(rng.inc, 109);
    CHECK_EQ_HEX(rng.state, 0x185706b82c2e03f8ull);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        CHECK_EQ_HEX(lab_rng_u32(&rng), want[i]);
}

static void test_same_seed_same_stream(void)
{
    lab_rng a, b, c, d;
    lab_rng_seed(&a, 7, 1);
    lab_rng_seed(&b, 7, 1);
    lab_rng_seed(&c, 7, 2);
    lab_rng_seed(&d, 8, 1);
    int same_ab = 1, diff_ac = 0, diff_ad = 0;
    for (int i = 0; i < 100; i++) {
        uint32_t va = lab_rng_u32(&a);
        same_ab &= va == lab_rng_u32(&b);
        diff_ac += va != lab_rng_u32(&c);
        diff_ad += va != lab_rng_u32(&d);
    }
    CHECK(same_ab);
    CHECK(diff_ac > 95);
    CHECK(diff_ad > 95);
    lab_rng fork = a; /* a copy continues the same sequence */
    CHECK_EQ_HEX(lab_rng_u32(&fork), lab_rng_u32(&a));
}

static void test_log_matches_libm(void)
{
    double worst = 0.0;
    lab_rng rng;
    lab_rng_seed(&rng, 1, 2);
    for (int i = 0; i < 200000; i++) {
        /* Random finite positive doubles over the whole range, then (0, 1]. */
        uint64_t bits = ((uint64_t)lab_rng_u32(&rng) << 32) | lab_rng_u32(&rng);
        double x = i % 2 ? double_from_bits(bits & 0x7fffffffffffffffull)
                         : (lab_rng_u32(&rng) + 1.0) * 0x1p-32;
        if (!(x > 0.0) || isinf(x))
            continue;
        double want = log(x), got = lab_rng_log(x);
        double rel = want == 0.0 ? fabs(got) : fabs(got - want) / fabs(want);
        if (rel > worst)
            worst = rel;
    }
    CHECK(worst <= 1e-15);
    CHECK(lab_rng_log(1.0) == 0.0);
    CHECK(fabs(lab_rng_log(1.0 + DBL_EPSILON) - DBL_EPSILON) <= 1e-15 * DBL_EPSILON);
    CHECK(fabs(lab_rng_log(DBL_MIN) - log(DBL_MIN)) <= 1e-15 * fabs(log(DBL_MIN)));
    CHECK(fabs(lab_rng_log(DBL_TRUE_MIN) - log(DBL_TRUE_MIN)) <= 1e-15 * 745.0);
    CHECK(lab_rng_log(0.0) == -INFINITY);
    CHECK(lab_rng_log(INFINITY) == INFINITY);
    CHECK(isnan(lab_rng_log(-1.0)));
    CHECK(isnan(lab_rng_log(NAN)));
}

static void test_uniform_statistics(void)
{
    const int n = 1000000;
    lab_rng rng;
    lab_rng_seed(&rng, 42, 54);
    double sum = 0.0, sum2 = 0.0;
    int out_of_range = 0;
    for (int i = 0; i < n; i++) {
        float u = lab_rng_uniform(&rng);
        out_of_range += !(u >= 0.0f && u < 1.0f);
        sum += u;
        sum2 += (double)u * u;
    }
    double mean = sum / n, var = sum2 / n - mean * mean;
    CHECK_EQ_INT(out_of_range, 0);
    /* 5 standard errors: sd of the mean 0.289/1000, of the variance 7.5e-5. */
    CHECK_NEAR(mean, 0.5, 5 * 0.2887 / 1000);
    CHECK_NEAR(var, 1.0 / 12.0, 5 * 7.5e-5);
}

static void test_uniform_is_top_24_bits(void)
{
    lab_rng a, b;
    lab_rng_seed(&a, 3, 4);
    b = a;
    int bad = 0;
    for (int i = 0; i < 100000; i++)
        bad += lab_rng_uniform(&a) != (float)(lab_rng_u32(&b) >> 8) / 16777216.0f;
    CHECK_EQ_INT(bad, 0);
    /* The largest draw maps to the largest float below 1, never to 1. */
    CHECK_EQ_HEX(float_bits((float)(0xffffffffu >> 8) / 16777216.0f), 0x3f7fffffu);
}

static void test_uniform_range(void)
{
    lab_rng rng;
    lab_rng_seed(&rng, 9, 9);
    int bad = 0, bad_ulp = 0;
    const float one_ulp_hi = nextafterf(1.0f, 2.0f);
    for (int i = 0; i < 100000; i++) {
        float r = lab_rng_uniform_range(&rng, -5.0f, 3.5f);
        bad += !(r >= -5.0f && r < 3.5f);
        /* Half of these round up to hi in float: they must come back as lo. */
        bad_ulp += lab_rng_uniform_range(&rng, 1.0f, one_ulp_hi) != 1.0f;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(bad_ulp, 0);
    lab_rng a, b;
    lab_rng_seed(&a, 5, 5);
    b = a;
    CHECK(lab_rng_uniform_range(&a, 2.0f, 2.0f) == 2.0f);
    CHECK(lab_rng_uniform_range(&a, 3.0f, -3.0f) == 3.0f);
    lab_rng_u32(&b);
    lab_rng_u32(&b); /* an empty range still takes its one draw */
    CHECK_EQ_HEX(lab_rng_u32(&a), lab_rng_u32(&b));
}

static void test_normal_statistics(void)
{
    const int n = 1000000;
    lab_rng rng;
    lab_rng_seed(&rng, 42, 54);
    double sum = 0.0, sum2 = 0.0;
    int within1 = 0, beyond2 = 0;
    for (int i = 0; i < n; i++) {
        double z = lab_rng_normal(&rng, 0.0f, 1.0f);
        sum += z;
        sum2 += z * z;
        within1 += fabs(z) < 1.0;
        beyond2 += fabs(z) > 2.0;
    }
    double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    CHECK_NEAR(mean, 0.0, 5.0 / 1000);
    CHECK_NEAR(sd, 1.0, 5 * 0.000707);
    /* P(|z| < 1) = 0.6827, P(|z| > 2) = 0.0455: a wrong distribution fails here. */
    CHECK_NEAR((double)within1 / n, 0.6827, 0.003);
    CHECK_NEAR((double)beyond2 / n, 0.0455, 0.0015);
    lab_rng_seed(&rng, 1, 1);
    double shifted = 0.0;
    for (int i = 0; i < 10000; i++)
        shifted += lab_rng_normal(&rng, 3.5f, 0.25f);
    CHECK_NEAR(shifted / 10000, 3.5, 5 * 0.25 / 100);
}

static void test_normal_pinned_values(void)
{
    /* Seed 42, stream 54, mean 0, stddev 1: float bits from rng_reference.py. */
    static const uint32_t want[] = { 0x40126ca0u, 0x3fe2ae8bu, 0x3f26788bu, 0x3fd59be1u,
                                     0xbe4588edu, 0x401109cau, 0x3f702f29u, 0x3f484a17u };
    lab_rng rng;
    lab_rng_seed(&rng, 42, 54);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        CHECK_EQ_HEX(float_bits(lab_rng_normal(&rng, 0.0f, 1.0f)), want[i]);
}

static void test_below(void)
{
    static const uint32_t bounds[] = { 1, 2, 3, 7, 1000, 0x80000001u, 0xffffffffu };
    lab_rng rng;
    lab_rng_seed(&rng, 11, 12);
    int bad = 0;
    for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++)
        for (int i = 0; i < 20000; i++)
            bad += lab_rng_below(&rng, bounds[b]) >= bounds[b];
    CHECK_EQ_INT(bad, 0);

    long counts[10] = { 0 };
    const int n = 100000;
    for (int i = 0; i < n; i++)
        counts[lab_rng_below(&rng, 10)]++;
    double chi2 = 0.0;
    for (int k = 0; k < 10; k++)
        chi2 += (counts[k] - n / 10.0) * (counts[k] - n / 10.0) / (n / 10.0);
    CHECK(chi2 < 30.0); /* 9 degrees of freedom: P(chi2 > 30) < 0.001 */

    lab_rng a = rng;
    CHECK_EQ_INT(lab_rng_below(&rng, 0), 0);
    CHECK_EQ_HEX(rng.state, a.state); /* bound 0 takes no draw */
}

static void test_fill_matches_single_calls(void)
{
    float x[257], y[257];
    lab_rng a, b;
    lab_rng_seed(&a, 100, 200);
    b = a;
    lab_rng_fill_uniform(&a, x, 257, -1.0f, 1.0f);
    for (int i = 0; i < 257; i++)
        y[i] = lab_rng_uniform_range(&b, -1.0f, 1.0f);
    CHECK(memcmp(x, y, sizeof(x)) == 0);
    lab_rng_fill_normal(&a, x, 257, 1.0f, 2.0f);
    for (int i = 0; i < 257; i++)
        y[i] = lab_rng_normal(&b, 1.0f, 2.0f);
    CHECK(memcmp(x, y, sizeof(x)) == 0);
    lab_rng_fill_normal(&a, NULL, 0, 0.0f, 1.0f);
    lab_rng_fill_uniform(&a, NULL, 0, 0.0f, 1.0f);
    CHECK_EQ_HEX(a.state, b.state);
}

/* ---------------------------------------------------------------------------
 * Reference lines, compared with rng_reference.py (keep the tables in step)
 */

struct seed_case {
    uint64_t seed, stream;
    int count;
};

static const struct seed_case u32_cases[] = { { 42, 54, 1000 },
                                              { 0, 0, 100 },
                                              { UINT64_MAX, INT64_MAX, 100 },
                                              { 12345, (1ull << 63) + 5, 100 } };
static const uint32_t below_bounds[] = { 1, 2, 3, 7, 10, 1000, 0x80000001u, 0xffffffffu, 0 };
static const uint32_t range_cases[][2] = {
    { 0xbf800000u, 0x3f800000u }, { 0x00000000u, 0x3a800000u }, { 0xc0a00000u, 0x40600000u },
    { 0x3f800000u, 0x3f800001u }, { 0x40000000u, 0x40000000u }, { 0x40400000u, 0xc0400000u }
};
static const uint32_t normal_cases[][3] = { { 0x00000000u, 0x3f800000u, 1000 },
                                            { 0x40600000u, 0x3e800000u, 100 },
                                            { 0xc0000000u, 0x41200000u, 100 } };
static const uint64_t log_special[] = {
    0x3ff0000000000000ull, 0x3fe0000000000000ull, 0x4000000000000000ull, 0x3fe6a09e667f3bcdull,
    0x3fe6a09e667f3bccull, 0x3ff6a09e667f3bcdull, 0x3ff0000000000001ull, 0x3fefffffffffffffull,
    0x3fb999999999999aull, 0x4024000000000000ull, 0x01a56e1fc2f8f359ull, 0x0000000000000001ull,
    0x0010000000000000ull, 0x7fefffffffffffffull
};
#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define LOG_RANDOM 2000

static void emit_log(FILE *out)
{
    for (size_t i = 0; i < N_ELEMS(log_special); i++)
        fprintf(out, "log %016llx %016llx\n", (unsigned long long)log_special[i],
                (unsigned long long)double_bits(lab_rng_log(double_from_bits(log_special[i]))));
    lab_rng rng;
    lab_rng_seed(&rng, 7, 11);
    for (int done = 0; done < LOG_RANDOM;) {
        uint64_t hi = lab_rng_u32(&rng);
        uint64_t bits = ((hi << 32) | lab_rng_u32(&rng)) & 0x7fffffffffffffffull;
        if (bits == 0 || (bits >> 52) == 0x7ff)
            continue;
        fprintf(out, "log %016llx %016llx\n", (unsigned long long)bits,
                (unsigned long long)double_bits(lab_rng_log(double_from_bits(bits))));
        done++;
    }
}

static void emit_reference(FILE *out)
{
    lab_rng rng;
    for (size_t c = 0; c < N_ELEMS(u32_cases); c++) {
        lab_rng_seed(&rng, u32_cases[c].seed, u32_cases[c].stream);
        for (int i = 0; i < u32_cases[c].count; i++)
            fprintf(out, "u32 %zu %d %08lx\n", c, i, (unsigned long)lab_rng_u32(&rng));
    }
    lab_rng_seed(&rng, 2024, 7);
    for (size_t b = 0; b < N_ELEMS(below_bounds); b++)
        for (int i = 0; i < 50; i++)
            fprintf(out, "below %lu %d %lu\n", (unsigned long)below_bounds[b], i,
                    (unsigned long)lab_rng_below(&rng, below_bounds[b]));
    lab_rng_seed(&rng, 42, 54);
    for (int i = 0; i < 200; i++)
        fprintf(out, "uniform 0 %d %08lx\n", i, (unsigned long)float_bits(lab_rng_uniform(&rng)));
    lab_rng_seed(&rng, 42, 54);
    for (size_t c = 0; c < N_ELEMS(range_cases); c++)
        for (int i = 0; i < 100; i++) {
            float r = lab_rng_uniform_range(&rng, float_from_bits(range_cases[c][0]),
                                            float_from_bits(range_cases[c][1]));
            fprintf(out, "range %zu %d %08lx\n", c, i, (unsigned long)float_bits(r));
        }
    for (size_t c = 0; c < N_ELEMS(normal_cases); c++) {
        lab_rng_seed(&rng, 42, 54);
        for (uint32_t i = 0; i < normal_cases[c][2]; i++) {
            float r = lab_rng_normal(&rng, float_from_bits(normal_cases[c][0]),
                                     float_from_bits(normal_cases[c][1]));
            fprintf(out, "normal %zu %lu %08lx\n", c, (unsigned long)i,
                    (unsigned long)float_bits(r));
        }
    }
    emit_log(out);
}

/* Copies the output of `python3 script` into a tmpfile; *status gets pclose's status. */
static FILE *run_python(const char *script, int *status)
{
    char cmd[4096], line[128];
    snprintf(cmd, sizeof(cmd), "python3 '%s'", script);
    FILE *copy = tmpfile();
    FILE *py = copy ? popen(cmd, "r") : NULL;
    if (!py) {
        if (copy)
            fclose(copy);
        return NULL;
    }
    while (fgets(line, sizeof(line), py))
        fputs(line, copy);
    *status = pclose(py);
    rewind(copy);
    return copy;
}

/* Compares our lines with those of `python3 script`: 0 same, 1 differ, 77 no python3. */
static int check_python(const char *script)
{
    char mine[128], theirs[128];
    int status = 0;
    FILE *py = run_python(script, &status);
    if (!py)
        return 1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        printf("python3 not found: skipped\n");
        fclose(py);
        return LAB_TEST_SKIP;
    }
    FILE *ours = tmpfile();
    if (!ours) {
        fclose(py);
        return 1;
    }
    emit_reference(ours);
    rewind(ours);
    long line = 0, differ = 0;
    for (;;) {
        char *a = fgets(mine, sizeof(mine), ours), *b = fgets(theirs, sizeof(theirs), py);
        if (!a && !b)
            break;
        line++;
        if (a && b && strcmp(a, b) == 0)
            continue;
        if (differ++ < 10)
            printf("line %ld: C %s      Python %s", line, a ? a : "(end)\n", b ? b : "(end)\n");
    }
    fclose(py);
    fclose(ours);
    printf("%ld lines compared, %ld differ (python3 exit status %d)\n", line, differ, status);
    return differ || status != 0 || line < 5000 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print") == 0) {
        emit_reference(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--check-python") == 0)
        return check_python(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--print | --check-python SCRIPT]\n", argv[0]);
        return 2;
    }
    LAB_TEST_RUN(test_reference_demo_values);
    LAB_TEST_RUN(test_same_seed_same_stream);
    LAB_TEST_RUN(test_log_matches_libm);
    LAB_TEST_RUN(test_uniform_statistics);
    LAB_TEST_RUN(test_uniform_is_top_24_bits);
    LAB_TEST_RUN(test_uniform_range);
    LAB_TEST_RUN(test_normal_statistics);
    LAB_TEST_RUN(test_normal_pinned_values);
    LAB_TEST_RUN(test_below);
    LAB_TEST_RUN(test_fill_matches_single_calls);
    LAB_TEST_MAIN_END();
}
