/* Element-wise comparison with NumPy's allclose semantics: see lab/compare.h. */
#include "lab/compare.h"

#include <math.h>

static void lab_compare_begin(lab_compare_report *rep, size_t n, double atol, double rtol)
{
    *rep = (lab_compare_report){ 0 };
    rep->count = n;
    rep->atol = atol;
    rep->rtol = rtol;
}

/* numpy.isclose(got, want) for one pair. */
static int lab_is_close(double got, double want, double atol, double rtol, int equal_nan)
{
    if (isnan(got) || isnan(want))
        return equal_nan && isnan(got) && isnan(want);
    if (isinf(got) || isinf(want))
        return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

/* Folds one element's errors into the finite maxima; pairs with NaN are only counted. */
static void lab_compare_errors(lab_compare_report *rep, size_t i, double got, double want)
{
    if (isnan(got) || isnan(want)) {
        rep->nan_count++;
        return;
    }
    if (got == want) /* also equal infinities, whose difference is NaN */
        return;
    double abs_err = fabs(got - want);
    double rel_err = want == 0.0 ? INFINITY : abs_err / fabs(want);
    if (abs_err > rep->finite_max_abs_err) {
        rep->finite_max_abs_err = abs_err;
        rep->finite_max_abs_index = i;
    }
    if (rel_err > rep->finite_max_rel_err) {
        rep->finite_max_rel_err = rel_err;
        rep->finite_max_rel_index = i;
    }
}

static void lab_compare_element(lab_compare_report *rep, size_t i, double got, double want,
                                int equal_nan)
{
    lab_compare_errors(rep, i, got, want);
    if (lab_is_close(got, want, rep->atol, rep->rtol, equal_nan))
        return;
    if ((isnan(got) || isnan(want)) && rep->nan_mismatches++ == 0)
        rep->max_abs_index = rep->max_rel_index = i;
    if (rep->shown < LAB_COMPARE_SHOWN) {
        rep->index[rep->shown] = i;
        rep->got[rep->shown] = got;
        rep->want[rep->shown] = want;
        rep->shown++;
    }
    rep->mismatches++;
}

/* The overall maxima: NaN as soon as a NaN makes an element differ (an
 * error of NaN is no error of 0), else the finite ones. */
static void lab_compare_end(lab_compare_report *rep)
{
    if (rep->nan_mismatches) {
        rep->max_abs_err = rep->max_rel_err = NAN;
        return;
    }
    rep->max_abs_err = rep->finite_max_abs_err;
    rep->max_abs_index = rep->finite_max_abs_index;
    rep->max_rel_err = rep->finite_max_rel_err;
    rep->max_rel_index = rep->finite_max_rel_index;
}

/* The two lab_allclose_* in one: got and want are floats when f32, else doubles. */
static int allclose(lab_compare_report *rep, const void *got, const void *want, int f32, size_t n,
                    double atol, double rtol, int equal_nan)
{
    lab_compare_report local;
    if (!rep)
        rep = &local;
    lab_compare_begin(rep, n, atol, rtol);
    for (size_t i = 0; i < n; i++) {
        double g = f32 ? (double)((const float *)got)[i] : ((const double *)got)[i];
        double w = f32 ? (double)((const float *)want)[i] : ((const double *)want)[i];
        lab_compare_element(rep, i, g, w, equal_nan);
    }
    lab_compare_end(rep);
    return rep->mismatches == 0;
}

int lab_allclose_f32(lab_compare_report *rep, const float *got, const float *want, size_t n,
                     double atol, double rtol, int equal_nan)
{
    return allclose(rep, got, want, 1, n, atol, rtol, equal_nan);
}

int lab_allclose_f64(lab_compare_report *rep, const double *got, const double *want, size_t n,
                     double atol, double rtol, int equal_nan)
{
    return allclose(rep, got, want, 0, n, atol, rtol, equal_nan);
}

/* %.9g, but NaN always as "nan" (glibc prints "-nan" for a NaN with its sign bit set). */
static void lab_compare_value(FILE *out, const char *before, double v)
{
    if (isnan(v))
        fprintf(out, "%snan", before);
    else
        fprintf(out, "%s%.9g", before, v);
}

void lab_compare_print(FILE *out, const lab_compare_report *rep, const char *what)
{
    if (!what)
        what = "values";
    if (rep->mismatches)
        fprintf(out, "%s: %zu of %zu elements differ", what, rep->mismatches, rep->count);
    else
        fprintf(out, "%s: all %zu elements close", what, rep->count);
    fprintf(out, " (atol %g, rtol %g); ", rep->atol, rep->rtol);
    if (rep->nan_mismatches && rep->nan_count == rep->count)
        fprintf(out, "every element is NaN in got or want: max abs err nan at [%zu]",
                rep->max_abs_index);
    else if (rep->nan_mismatches)
        fprintf(out,
                "max abs err nan at [%zu] (%zu with NaN); without NaN: max abs err %g at [%zu], "
                "max rel err %g at [%zu]",
                rep->max_abs_index, rep->nan_count, rep->finite_max_abs_err,
                rep->finite_max_abs_index, rep->finite_max_rel_err, rep->finite_max_rel_index);
    else
        fprintf(out, "max abs err %g at [%zu], max rel err %g at [%zu]%s", rep->max_abs_err,
                rep->max_abs_index, rep->max_rel_err, rep->max_rel_index,
                rep->nan_count ? "; " : "");
    if (rep->nan_count && !rep->nan_mismatches)
        fprintf(out, "%zu with NaN", rep->nan_count);
    fputc('\n', out);
    for (size_t k = 0; k < rep->shown; k++) {
        fprintf(out, "  [%zu]", rep->index[k]);
        lab_compare_value(out, " got ", rep->got[k]);
        lab_compare_value(out, " want ", rep->want[k]);
        fputc('\n', out);
    }
    if (rep->mismatches > rep->shown)
        fprintf(out, "  ... and %zu more\n", rep->mismatches - rep->shown);
}
