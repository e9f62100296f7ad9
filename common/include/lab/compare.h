/**
 * @file compare.h
 * @brief Element-wise comparison of arrays with NumPy's `allclose` semantics.
 *
 * An element is close when
 *
 *     |got - want| <= atol + rtol * |want|
 *
 * exactly as `numpy.isclose(got, want, rtol, atol, equal_nan)`: the tolerance
 * scales with the reference value @p want only, so swapping the arguments can
 * change the verdict. NaN is never close to anything, itself included, unless
 * `equal_nan` is set (then NaN is close to NaN and to nothing else). Infinities
 * are close only to the same infinity; an infinity against a finite value is a
 * mismatch. The test is evaluated in double precision (float inputs are
 * converted exactly), so at the very edge of the tolerance a float32 verdict
 * can differ from NumPy's, which computes in float32.
 *
 * The optional report says how many elements differ, lists the first
 * #LAB_COMPARE_SHOWN of them, and gives the largest absolute and relative
 * errors, which lab_compare_print() turns into the lines a student reads:
 * @code
 * lab_compare_report rep;
 * if (!lab_allclose_f32(&rep, d_result, cpu_result, n, 1e-5, 1e-5, 0))
 *     lab_compare_print(stderr, &rep, "y");
 * @endcode
 */
#ifndef LAB_COMPARE_H
#define LAB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief How many mismatching elements a lab_compare_report lists. */
#define LAB_COMPARE_SHOWN 10

/** @brief What a comparison found; filled by lab_allclose_f32() and lab_allclose_f64(). */
typedef struct lab_compare_report {
    size_t count;      /**< Number of elements compared. */
    size_t mismatches; /**< Number of elements that are not close. */
    size_t shown; /**< Entries used in index, got and want: min(mismatches, LAB_COMPARE_SHOWN). */
    size_t index[LAB_COMPARE_SHOWN]; /**< Indices of the first mismatches, in increasing order. */
    double got[LAB_COMPARE_SHOWN];   /**< Value under test at each listed index. */
    double want[LAB_COMPARE_SHOWN];  /**< Reference value at each listed index. */
    double max_abs_err;    /**< Largest |got - want| (inf possible); NaN when nan_mismatches > 0. */
    size_t max_abs_index;  /**< First index where max_abs_err occurs (0 when there is none), or
                                the first mismatching element with NaN. */
    double max_rel_err;    /**< Largest |got - want| / |want| (inf where want is 0 and got is not);
                                NaN when nan_mismatches > 0. */
    size_t max_rel_index;  /**< First index where max_rel_err occurs, as max_abs_index. */
    size_t nan_count;      /**< Elements where got or want (or both) is NaN. */
    size_t nan_mismatches; /**< Of those, the ones that are not close (all of them unless
                                equal_nan matched NaN with NaN). */
    double finite_max_abs_err;   /**< Largest |got - want| over the elements without NaN. */
    size_t finite_max_abs_index; /**< First index where finite_max_abs_err occurs (0: none). */
    double finite_max_rel_err;   /**< Largest relative error over the elements without NaN. */
    size_t finite_max_rel_index; /**< First index where finite_max_rel_err occurs (0: none). */
    double atol;                 /**< Absolute tolerance the comparison used. */
    double rtol;                 /**< Relative tolerance the comparison used. */
} lab_compare_report;

/**
 * @brief Compares two float arrays element by element (NumPy `allclose`).
 * @param[out] rep  Report to fill; may be NULL when only the verdict is wanted.
 * @param got       Values under test (@p n elements; may be NULL when @p n is 0).
 * @param want      Reference values (@p n elements; may be NULL when @p n is 0).
 * @param n         Number of elements; 0 compares nothing and is all close.
 * @param atol      Absolute tolerance (>= 0).
 * @param rtol      Relative tolerance, a fraction of |want| (>= 0).
 * @param equal_nan Nonzero: NaN against NaN counts as close.
 * @return 1 when every element is close, 0 otherwise.
 */
int lab_allclose_f32(lab_compare_report *rep, const float *got, const float *want, size_t n,
                     double atol, double rtol, int equal_nan);

/**
 * @brief Compares two double arrays element by element (NumPy `allclose`).
 * @param[out] rep  Report to fill; may be NULL when only the verdict is wanted.
 * @param got       Values under test (@p n elements; may be NULL when @p n is 0).
 * @param want      Reference values (@p n elements; may be NULL when @p n is 0).
 * @param n         Number of elements; 0 compares nothing and is all close.
 * @param atol      Absolute tolerance (>= 0).
 * @param rtol      Relative tolerance, a fraction of |want| (>= 0).
 * @param equal_nan Nonzero: NaN against NaN counts as close.
 * @return 1 when every element is close, 0 otherwise.
 */
int lab_allclose_f64(lab_compare_report *rep, const double *got, const double *want, size_t n,
                     double atol, double rtol, int equal_nan);

/**
 * @brief Prints a report for a person to read.
 *
 * One summary line (wrapped here, one line in the output), then one line per
 * listed mismatch, then how many more were not listed:
 * @code
 * y: 3 of 1000 elements differ (atol 1e-05, rtol 1e-05); max abs err 0.5 at [17], max rel
 * err 0.333333 at [17]
 *   [17] got 1.5 want 1
 * @endcode
 * When nothing differs the summary reads `y: all 100000 elements close (...)`.
 * Elements with NaN are counted in the summary ("2 with NaN"). A NaN that
 * makes an element differ is an error of NaN, never of 0: the summary then
 * gives the maximum error as nan at the first such element, and the finite
 * maxima of the other elements after it:
 * @code
 * u: 3 of 1000 elements differ (atol 1e-05, rtol 0); max abs err nan at [5] (3 with NaN);
 * without NaN: max abs err 0.5 at [17], max rel err 0.5 at [17]
 * u: 1000 of 1000 elements differ (atol 1e-05, rtol 0); every element is NaN in got or want:
 * max abs err nan at [0]
 * @endcode
 * @param out  Stream to write to.
 * @param rep  A report filled by lab_allclose_f32() or lab_allclose_f64().
 * @param what Name of the compared array, first on the summary line; NULL gives "values".
 */
void lab_compare_print(FILE *out, const lab_compare_report *rep, const char *what);

#ifdef __cplusplus
}
#endif

#endif /* LAB_COMPARE_H */
