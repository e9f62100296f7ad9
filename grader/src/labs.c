/* labs.c — the labs' checks. Today: the fixture lab (y = a x on the device),
 * the build's own small lab that proves the grading pipeline end to end until
 * the real labs land; each real lab adds its table here. */
#include "labs.h"

#include "lab/npy.h"
#include "lab/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void grade_case_free(grade_case *c)
{
    for (int i = 0; i < c->n_outputs; i++)
        lab_npy_free(&c->outputs[i].expected);
    c->n_outputs = 0;
}

static int write_input(const char *dir, const char *name, lab_dtype dtype, int ndim,
                       const size_t *shape, const void *data, char *why, size_t why_len)
{
    char path[4096];
    lab_error err;
    snprintf(path, sizeof(path), "%s/%s.npy", dir, name);
    if (lab_npy_write(path, &err, dtype, ndim, shape, data) != LAB_OK) {
        snprintf(why, why_len, "cannot write input %s", err.msg);
        return -1;
    }
    return 0;
}

/* y = a x for n elements of x uniform in [-1, 1). */
static int prepare_scale(grade_case *c, const char *dir, unsigned long long seed, size_t n,
                         char *why, size_t why_len)
{
    lab_rng rng;
    float a = 2.5f;
    float *x = malloc(sizeof(*x) * (n ? n : 1)), *y = malloc(sizeof(*y) * (n ? n : 1));
    size_t shape[1] = { n };
    int rc = -1;
    if (!x || !y) {
        snprintf(why, why_len, "out of memory");
        goto free_arrays;
    }
    lab_rng_seed(&rng, seed, n);
    lab_rng_fill_uniform(&rng, x, n, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++)
        y[i] = a * x[i];
    if (write_input(dir, "x", LAB_DTYPE_F32, 1, shape, x, why, why_len) ||
        write_input(dir, "a", LAB_DTYPE_F32, 0, shape, &a, why, why_len))
        goto free_arrays;
    grade_output *o = &c->outputs[c->n_outputs++];
    memset(o, 0, sizeof(*o));
    snprintf(o->name, sizeof(o->name), "y");
    o->expected.dtype = LAB_DTYPE_F32;
    o->expected.ndim = 1;
    o->expected.shape[0] = n;
    o->expected.count = n;
    o->expected.data = y;
    o->atol = 0.0;
    o->rtol = 1e-6;
    y = NULL;
    snprintf(c->result_key, sizeof(c->result_key), "backend");
    rc = 0;
free_arrays:
    free(x);
    free(y);
    return rc;
}

static int scale_small(grade_case *c, const char *dir, unsigned long long seed, char *why,
                       size_t len)
{
    return prepare_scale(c, dir, seed, 1, why, len);
}
static int scale_5466(grade_case *c, const char *dir, unsigned long long seed, char *why,
                      size_t len)
{
    return prepare_scale(c, dir, seed, 5466, why, len);
}
static int scale_large(grade_case *c, const char *dir, unsigned long long seed, char *why,
                       size_t len)
{
    return prepare_scale(c, dir, seed, 1u << 20, why, len);
}

static const grade_check fixture_checks[] = {
    { "scale, n = 1", 2, 60, scale_small },
    { "scale, n = 5466 (not a multiple of the block)", 4, 60, scale_5466 },
    { "scale, n = 2^20", 4, 120, scale_large },
};

static const grade_lab all_labs[] = {
    { "fixture", "the build's fixture lab: y = a x", fixture_checks,
      (int)(sizeof(fixture_checks) / sizeof(fixture_checks[0])) },
};

const grade_lab *grade_labs(int *count)
{
    *count = (int)(sizeof(all_labs) / sizeof(all_labs[0]));
    return all_labs;
}
