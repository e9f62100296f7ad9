/* The fixture lab's checks (common/tests/fixture_lab): y = a x on the device.
 * The build's own small lab, which proves the grading pipeline end to end. */
#include "labs.h"

#include "lab/rng.h"

#include <stdio.h>
#include <stdlib.h>

/* y = a x for n elements of x uniform in [-1, 1). */
/* y = a x; the row's argument: { n }. */
static int prepare_scale(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const size_t n = (size_t)c->arg.i[0];
    lab_rng rng;
    float a = 2.5f;
    float *x = malloc(sizeof(*x) * (n ? n : 1)), *y = malloc(sizeof(*y) * (n ? n : 1));
    size_t shape[1] = { n };
    int rc = -1;
    if (!x || !y) {
        snprintf(why, len, "out of memory");
        free(y);
        goto free_x;
    }
    lab_rng_seed(&rng, env->seed, n);
    lab_rng_fill_uniform(&rng, x, n, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++)
        y[i] = a * x[i];
    if (grade_write_input(env, "x", LAB_DTYPE_F32, 1, shape, x, why, len) ||
        grade_write_input(env, "a", LAB_DTYPE_F32, 0, shape, &a, why, len)) {
        free(y);
        goto free_x;
    }
    rc = grade_expect_output(c, "y", LAB_DTYPE_F32, 1, shape, y, 0.0, 1e-6, why, len);
    grade_expect_fact_string(c, "backend", env->backend, "the backend the program ran on");
    grade_expect_fact_int(c, "n", (long long)n, NULL);
free_x:
    free(x);
    return rc;
}

static const grade_check checks[] = {
    { "scale, n = 1", 2, 60, prepare_scale, { { 1 } } },
    { "scale, n = 5466 (not a multiple of the block)", 4, 60, prepare_scale, { { 5466 } } },
    { "scale, n = 2^20", 4, 120, prepare_scale, { { 1 << 20 } } },
};

const grade_lab grade_lab_fixture = { "fixture", "the build's fixture lab: y = a x", checks,
                                      GRADE_COUNT(checks), "00_fixture" };
