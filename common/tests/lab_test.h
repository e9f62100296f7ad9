/*
 * lab_test.h — the unit-test harness of gpulab's own tests (not a public header).
 *
 * A test program is a list of `static void test_x(void)` functions run from
 * main with LAB_TEST_RUN(test_x). Each check that fails prints
 * `file:line: check failed: <expression> (details)` and marks the test failed;
 * the test goes on so one run shows every broken check. LAB_TEST_MAIN_END()
 * prints `N passed, M failed` and returns 1 when anything failed, 0 otherwise.
 * A program that must skip (no GPU for a cuda-backend test) returns
 * LAB_TEST_SKIP (77), which CTest reports as skipped, never as passed.
 */
#ifndef LAB_TEST_H
#define LAB_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#define LAB_TEST_SKIP 77

static int lab_test_checks_failed; /* in the running test */
static int lab_test_tests_passed;  /* tests with no failed check */
static int lab_test_tests_failed;  /* tests with at least one failed check */

#define LAB_TEST_RUN(fn)                                                                           \
    do {                                                                                           \
        lab_test_checks_failed = 0;                                                                \
        fn();                                                                                      \
        if (lab_test_checks_failed) {                                                              \
            lab_test_tests_failed++;                                                               \
            printf("FAIL %s\n", #fn);                                                              \
        } else {                                                                                   \
            lab_test_tests_passed++;                                                               \
            printf("ok   %s\n", #fn);                                                              \
        }                                                                                          \
        fflush(stdout);                                                                            \
    } while (0)

#define LAB_TEST_MAIN_END()                                                                        \
    do {                                                                                           \
        printf("%d passed, %d failed\n", lab_test_tests_passed, lab_test_tests_failed);            \
        return lab_test_tests_failed ? 1 : 0;                                                      \
    } while (0)

#define LAB_TEST_FAIL_AT(...)                                                                      \
    do {                                                                                           \
        printf("%s:%d: check failed: ", __FILE__, __LINE__);                                       \
        printf(__VA_ARGS__);                                                                       \
        printf("\n");                                                                              \
        lab_test_checks_failed++;                                                                  \
    } while (0)

/** Checks a condition. */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            LAB_TEST_FAIL_AT("%s", #cond);                                                         \
    } while (0)

/** Checks two integers (as long long) are equal and prints both when not. */
#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long lab_t_a_ = (long long)(a), lab_t_b_ = (long long)(b);                            \
        if (lab_t_a_ != lab_t_b_)                                                                  \
            LAB_TEST_FAIL_AT("%s == %s (%lld vs %lld)", #a, #b, lab_t_a_, lab_t_b_);               \
    } while (0)

/** Checks two unsigned 64-bit integers are equal, printed in hex. */
#define CHECK_EQ_HEX(a, b)                                                                         \
    do {                                                                                           \
        unsigned long long lab_t_a_ = (unsigned long long)(a);                                     \
        unsigned long long lab_t_b_ = (unsigned long long)(b);                                     \
        if (lab_t_a_ != lab_t_b_)                                                                  \
            LAB_TEST_FAIL_AT("%s == %s (0x%llx vs 0x%llx)", #a, #b, lab_t_a_, lab_t_b_);           \
    } while (0)

/** Checks |a - b| <= tol. */
#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double lab_t_a_ = (double)(a), lab_t_b_ = (double)(b);                                     \
        if (!(fabs(lab_t_a_ - lab_t_b_) <= (double)(tol)))                                         \
            LAB_TEST_FAIL_AT("%s ~= %s (%.9g vs %.9g, tol %g)", #a, #b, lab_t_a_, lab_t_b_,        \
                             (double)(tol));                                                       \
    } while (0)

/** Checks that string @p hay contains @p needle. */
#define CHECK_CONTAINS(hay, needle)                                                                \
    do {                                                                                           \
        const char *lab_t_h_ = (hay), *lab_t_n_ = (needle);                                        \
        if (!lab_t_h_ || !strstr(lab_t_h_, lab_t_n_))                                              \
            LAB_TEST_FAIL_AT("\"%s\" contains \"%s\"", lab_t_h_ ? lab_t_h_ : "(null)", lab_t_n_);  \
    } while (0)

/** Checks two strings are equal. */
#define CHECK_STREQ(a, b)                                                                          \
    do {                                                                                           \
        const char *lab_t_a_ = (a), *lab_t_b_ = (b);                                               \
        if (!lab_t_a_ || !lab_t_b_ || strcmp(lab_t_a_, lab_t_b_) != 0)                             \
            LAB_TEST_FAIL_AT("%s == %s (\"%s\" vs \"%s\")", #a, #b,                                \
                             lab_t_a_ ? lab_t_a_ : "(null)", lab_t_b_ ? lab_t_b_ : "(null)");      \
    } while (0)

#endif /* LAB_TEST_H */
