/* Unit tests of lab/compare.h (expected verdicts are numpy.isclose's). */
#include "lab/compare.h"
#include "lab_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void test_exact_arrays_are_close(void)
{
    const float a[] = { 0.0f, -1.0f, 3.25f, 1e30f, -0.0f };
    const float b[] = { 0.0f, -1.0f, 3.25f, 1e30f, 0.0f };
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f32(&rep, a, b, 5, 0.0, 0.0, 0), 1);
    CHECK_EQ_INT(rep.count, 5);
    CHECK_EQ_INT(rep.mismatches, 0);
    CHECK_EQ_INT(rep.shown, 0);
    CHECK(rep.max_abs_err == 0.0 && rep.max_rel_err == 0.0);
    CHECK_EQ_INT(lab_allclose_f32(NULL, a, b, 5, 0.0, 0.0, 0), 1);
}

static void test_tolerance_boundary_is_inclusive(void)
{
    /* atol + rtol * |want| = 0.25 + 0.25 * 1 = 0.5, all exact in binary. */
    const double want[] = { 1.0, 1.0, 1.0 };
    const double got[] = { 1.5, 0.5, nextafter(1.5, 2.0) };
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f64(&rep, got, want, 2, 0.25, 0.25, 0), 1);
    CHECK_EQ_INT(lab_allclose_f64(&rep, got, want, 3, 0.25, 0.25, 0), 0);
    CHECK_EQ_INT(rep.mismatches, 1);
    CHECK_EQ_INT(rep.index[0], 2);
    const float wf = 1.0f, gf = 1.5f, gf_out = nextafterf(1.5f, 2.0f);
    CHECK_EQ_INT(lab_allclose_f32(NULL, &gf, &wf, 1, 0.25, 0.25, 0), 1);
    CHECK_EQ_INT(lab_allclose_f32(NULL, &gf_out, &wf, 1, 0.25, 0.25, 0), 0);
    /* atol alone, rtol alone. */
    CHECK_EQ_INT(lab_allclose_f32(NULL, &gf, &wf, 1, 0.5, 0.0, 0), 1);
    CHECK_EQ_INT(lab_allclose_f32(NULL, &gf, &wf, 1, 0.0, 0.5, 0), 1);
    CHECK_EQ_INT(lab_allclose_f32(NULL, &gf, &wf, 1, 0.4, 0.0, 0), 0);
}

static void test_reference_is_want_not_got(void)
{
    /* numpy.isclose(1, 2, rtol=0.5, atol=0) is True, isclose(2, 1, ...) is False. */
    const double one = 1.0, two = 2.0;
    CHECK_EQ_INT(lab_allclose_f64(NULL, &one, &two, 1, 0.0, 0.5, 0), 1);
    CHECK_EQ_INT(lab_allclose_f64(NULL, &two, &one, 1, 0.0, 0.5, 0), 0);
}

static void test_nan(void)
{
    const float got[] = { NAN, NAN, 1.0f, 2.0f };
    const float want[] = { NAN, 1.0f, NAN, 2.0f };
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f32(&rep, got, want, 1, 1.0, 1.0, 0), 0); /* NaN != NaN */
    CHECK_EQ_INT(lab_allclose_f32(&rep, got, want, 1, 1.0, 1.0, 1), 1);
    CHECK_EQ_INT(lab_allclose_f32(&rep, got, want, 4, 1e9, 1e9, 1), 0);
    CHECK_EQ_INT(rep.mismatches, 2);
    CHECK_EQ_INT(rep.index[0], 1);
    CHECK_EQ_INT(rep.index[1], 2);
    CHECK_EQ_INT(rep.nan_count, 3);
    CHECK_EQ_INT(rep.nan_mismatches, 2);
    /* A NaN that makes an element differ is an error of NaN, never of 0. */
    CHECK(isnan(rep.max_abs_err) && isnan(rep.max_rel_err));
    CHECK_EQ_INT(rep.max_abs_index, 1);
    CHECK(rep.finite_max_abs_err == 0.0); /* [3]: 2 against 2 */
    CHECK(isnan(rep.got[0]) && rep.want[0] == 1.0);
    CHECK_EQ_INT(lab_allclose_f32(&rep, got, want, 4, 1e9, 1e9, 0), 0);
    CHECK_EQ_INT(rep.mismatches, 3);
    CHECK_EQ_INT(rep.max_abs_index, 0);
    /* NaN against NaN with equal_nan is close: no NaN error, the finite maximum stands. */
    CHECK_EQ_INT(lab_allclose_f32(&rep, got, want, 1, 0.0, 0.0, 1), 1);
    CHECK_EQ_INT(rep.nan_count, 1);
    CHECK_EQ_INT(rep.nan_mismatches, 0);
    CHECK(rep.max_abs_err == 0.0);
}

/* An all-NaN result (a kernel that wrote nothing into a NaN-filled buffer)
 * must not read as an error of 0. */
static void test_all_nan(void)
{
    static float got[1000], want[1000];
    for (int i = 0; i < 1000; i++) {
        got[i] = NAN;
        want[i] = (float)i;
    }
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f32(&rep, got, want, 1000, 1e-5, 0.0, 0), 0);
    CHECK_EQ_INT(rep.mismatches, 1000);
    CHECK_EQ_INT(rep.nan_mismatches, 1000);
    CHECK(isnan(rep.max_abs_err) && isnan(rep.max_rel_err));
    CHECK_EQ_INT(rep.max_abs_index, 0);
    double dg[2] = { 1.0, NAN }, dw[2] = { 1.0, 2.0 };
    CHECK_EQ_INT(lab_allclose_f64(&rep, dg, dw, 2, 0.0, 0.0, 0), 0);
    CHECK(isnan(rep.max_abs_err));
    CHECK_EQ_INT(rep.max_abs_index, 1);
}

static void test_infinities(void)
{
    const double got[] = { INFINITY, -INFINITY, INFINITY, 1e300, 5.0 };
    const double want[] = { INFINITY, -INFINITY, -INFINITY, INFINITY, 5.0 };
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f64(&rep, got, want, 2, 0.0, 0.0, 0), 1);
    CHECK(rep.max_abs_err == 0.0);
    CHECK_EQ_INT(lab_allclose_f64(&rep, got, want, 5, 1e300, 1e300, 0), 0);
    CHECK_EQ_INT(rep.mismatches, 2);
    CHECK_EQ_INT(rep.index[0], 2);
    CHECK_EQ_INT(rep.index[1], 3);
    CHECK(isinf(rep.max_abs_err));
    CHECK_EQ_INT(rep.max_abs_index, 2);
    const double big = 1e30;
    CHECK_EQ_INT(lab_allclose_f64(NULL, &got[0], &big, 1, 1e300, 1e300, 0), 0);
    CHECK_EQ_INT(lab_allclose_f64(NULL, &big, &got[0], 1, 1e300, 1e300, 0), 0);
}

static void test_first_ten_listed(void)
{
    static float got[2000], want[2000];
    for (int i = 0; i < 2000; i++) {
        want[i] = (float)i;
        got[i] = (float)i + (i % 2 ? 1.0f : 0.0f); /* every odd index is off by one */
    }
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f32(&rep, got, want, 2000, 0.5, 0.0, 0), 0);
    CHECK_EQ_INT(rep.count, 2000);
    CHECK_EQ_INT(rep.mismatches, 1000);
    CHECK_EQ_INT(rep.shown, LAB_COMPARE_SHOWN);
    for (int k = 0; k < LAB_COMPARE_SHOWN; k++) {
        CHECK_EQ_INT(rep.index[k], 2 * k + 1);
        CHECK(rep.got[k] == 2 * k + 2 && rep.want[k] == 2 * k + 1);
    }
    CHECK(rep.max_abs_err == 1.0);
    CHECK_EQ_INT(rep.max_abs_index, 1); /* ties: the first index */
    CHECK(rep.max_rel_err == 1.0);
    CHECK_EQ_INT(rep.max_rel_index, 1);
}

static void test_max_errors(void)
{
    const double want[] = { 100.0, 1.0, 1000.0, 0.5, 7.0 };
    const double got[] = { 100.5, 1.0, 1003.0, 0.75, 7.0 };
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f64(&rep, got, want, 5, 0.0, 1e-9, 0), 0);
    CHECK(rep.max_abs_err == 3.0);
    CHECK_EQ_INT(rep.max_abs_index, 2);
    CHECK(rep.max_rel_err == 0.5);
    CHECK_EQ_INT(rep.max_rel_index, 3);
    /* Relative error against a zero reference is infinite, and 0 vs 0 is none. */
    const double z[] = { 0.0, 0.0 }, g[] = { 0.0, 1e-12 };
    CHECK_EQ_INT(lab_allclose_f64(&rep, g, z, 2, 1e-9, 0.0, 0), 1);
    CHECK(isinf(rep.max_rel_err));
    CHECK_EQ_INT(rep.max_rel_index, 1);
    CHECK(rep.max_abs_err == 1e-12);
}

static void test_empty_is_close(void)
{
    lab_compare_report rep;
    CHECK_EQ_INT(lab_allclose_f32(&rep, NULL, NULL, 0, 0.0, 0.0, 0), 1);
    CHECK_EQ_INT(rep.count, 0);
    CHECK_EQ_INT(rep.mismatches, 0);
    CHECK_EQ_INT(lab_allclose_f64(NULL, NULL, NULL, 0, 0.0, 0.0, 0), 1);
}

/* Prints @p rep into a tmpfile and reads it back into @p buf. */
static void print_to_buffer(const lab_compare_report *rep, const char *what, char *buf, size_t cap)
{
    FILE *f = tmpfile();
    buf[0] = '\0';
    if (!f)
        return;
    lab_compare_print(f, rep, what);
    rewind(f);
    size_t len = fread(buf, 1, cap - 1, f);
    buf[len] = '\0';
    fclose(f);
}

static void test_print(void)
{
    static float got[100000], want[100000];
    for (int i = 0; i < 100000; i++)
        got[i] = want[i] = 1.0f;
    got[17] = 1.5f;
    got[40] = 0.75f;
    got[99999] = NAN;
    lab_compare_report rep;
    lab_allclose_f32(&rep, got, want, 100000, 1e-5, 1e-5, 0);
    char buf[4096];
    print_to_buffer(&rep, "u", buf, sizeof(buf));
    CHECK_STREQ(buf, "u: 3 of 100000 elements differ (atol 1e-05, rtol 1e-05); max abs err nan at "
                     "[99999] (1 with NaN); without NaN: max abs err 0.5 at [17], max rel err 0.5 "
                     "at [17]\n"
                     "  [17] got 1.5 want 1\n"
                     "  [40] got 0.75 want 1\n"
                     "  [99999] got nan want 1\n");

    lab_allclose_f32(&rep, want, want, 3, 0.0, 0.0, 0);
    print_to_buffer(&rep, NULL, buf, sizeof(buf));
    CHECK_STREQ(buf, "values: all 3 elements close (atol 0, rtol 0); max abs err 0 at [0], max rel "
                     "err 0 at [0]\n");

    /* Every element NaN: never "max abs err 0". */
    for (int i = 0; i < 5; i++)
        got[i] = NAN;
    lab_allclose_f32(&rep, got, want, 5, 1e-5, 0.0, 0);
    print_to_buffer(&rep, "y", buf, sizeof(buf));
    CHECK_STREQ(buf, "y: 5 of 5 elements differ (atol 1e-05, rtol 0); every element is NaN in got "
                     "or want: max abs err nan at [0]\n"
                     "  [0] got nan want 1\n  [1] got nan want 1\n  [2] got nan want 1\n"
                     "  [3] got nan want 1\n  [4] got nan want 1\n");
    CHECK(strstr(buf, "err 0") == NULL);

    /* NaN matched with NaN under equal_nan: counted, no error. */
    want[0] = NAN;
    lab_allclose_f32(&rep, got, want, 1, 0.0, 0.0, 1);
    print_to_buffer(&rep, "z", buf, sizeof(buf));
    CHECK_STREQ(buf,
                "z: all 1 elements close (atol 0, rtol 0); max abs err 0 at [0], max rel err 0 "
                "at [0]; 1 with NaN\n");
    want[0] = 1.0f;

    for (int i = 0; i < 30; i++)
        got[i] = 2.0f;
    lab_allclose_f32(&rep, got, want, 30, 0.0, 0.0, 0);
    print_to_buffer(&rep, "x", buf, sizeof(buf));
    CHECK_CONTAINS(buf, "x: 30 of 30 elements differ");
    CHECK_CONTAINS(buf, "  [9] got 2 want 1\n  ... and 20 more\n");
    CHECK(strstr(buf, "[10]") == NULL);
}

int main(void)
{
    LAB_TEST_RUN(test_exact_arrays_are_close);
    LAB_TEST_RUN(test_tolerance_boundary_is_inclusive);
    LAB_TEST_RUN(test_reference_is_want_not_got);
    LAB_TEST_RUN(test_nan);
    LAB_TEST_RUN(test_all_nan);
    LAB_TEST_RUN(test_infinities);
    LAB_TEST_RUN(test_first_ten_listed);
    LAB_TEST_RUN(test_max_errors);
    LAB_TEST_RUN(test_empty_is_close);
    LAB_TEST_RUN(test_print);
    LAB_TEST_MAIN_END();
}
