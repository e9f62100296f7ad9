/* labs.c — the labs the grader knows, and the helpers their checks use to
 * declare inputs, expected outputs and facts (see labs.h). */
#define _POSIX_C_SOURCE 200809L
#include "labs.h"

#include "lab/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Each lab's checks, in grader/checks/<lab>.c: grade_lab_list.h, generated
 * by the build from its list of check files, says GRADE_LAB(<lab>) for each. */
#define GRADE_LAB(lab) extern const grade_lab grade_lab_##lab;
#include "grade_lab_list.h"
#undef GRADE_LAB

static const grade_lab *const all_labs[] = {
#define GRADE_LAB(lab) &grade_lab_##lab,
#include "grade_lab_list.h"
#undef GRADE_LAB
};

int grade_lab_internal(const grade_lab *lab)
{
    return strcmp(lab->name, grade_lab_fixture.name) == 0;
}

const grade_lab *grade_labs(int *count)
{
    static grade_lab labs[GRADE_COUNT(all_labs)];
    for (int i = 0; i < GRADE_COUNT(all_labs); i++)
        labs[i] = *all_labs[i];
    *count = GRADE_COUNT(all_labs);
    return labs;
}

void grade_case_free(grade_case *c)
{
    for (int i = 0; i < c->n_outputs; i++)
        lab_npy_free(&c->outputs[i].expected);
    c->n_outputs = 0;
    if (c->ctx)
        (c->ctx_free ? c->ctx_free : free)(c->ctx);
    c->ctx = NULL;
}

/* ---- declaring ----------------------------------------------------------- */

int grade_write_input(const grade_env *env, const char *name, lab_dtype dtype, int ndim,
                      const size_t *shape, const void *data, char *why, size_t why_len)
{
    char path[4096];
    lab_error err;
    snprintf(path, sizeof(path), "%s/%s.npy", env->dir, name);
    if (lab_npy_write(path, dtype, ndim, shape, data, &err) != LAB_OK) {
        snprintf(why, why_len, "cannot write input %s", err.msg);
        return -1;
    }
    return 0;
}

int grade_expect_output(grade_case *c, const char *name, lab_dtype dtype, int ndim,
                        const size_t *shape, void *want, double atol, double rtol, char *why,
                        size_t why_len)
{
    if (c->n_outputs >= GRADE_MAX_OUTPUTS || ndim < 0 || ndim > LAB_NPY_MAX_DIMS || !want) {
        snprintf(why, why_len, "output %s: %s", name,
                 !want ? "out of memory" : "too many outputs or dimensions in one check");
        free(want);
        return -1;
    }
    grade_output *o = &c->outputs[c->n_outputs++];
    memset(o, 0, sizeof(*o));
    snprintf(o->name, sizeof(o->name), "%s", name);
    o->expected.dtype = dtype;
    o->expected.ndim = ndim;
    o->expected.count = 1;
    for (int d = 0; d < ndim; d++) {
        o->expected.shape[d] = shape[d];
        o->expected.count *= shape[d];
    }
    o->expected.data = want;
    o->atol = atol;
    o->rtol = rtol;
    return 0;
}

static grade_fact *add_fact(grade_case *c, const char *key, grade_fact_kind kind, const char *hint)
{
    if (c->n_facts >= GRADE_MAX_FACTS) {
        c->failed = 1;
        return NULL;
    }
    grade_fact *f = &c->facts[c->n_facts++];
    memset(f, 0, sizeof(*f));
    snprintf(f->key, sizeof(f->key), "%s", key);
    f->kind = kind;
    snprintf(f->hint, sizeof(f->hint), "%s", hint ? hint : "");
    return f;
}

void grade_expect_fact(grade_case *c, const char *key, const char *hint)
{
    add_fact(c, key, GRADE_FACT_PRESENT, hint);
}

void grade_expect_fact_json(grade_case *c, const char *key, const char *json, const char *hint)
{
    grade_fact *f = add_fact(c, key, GRADE_FACT_EQUALS, hint);
    if (f)
        snprintf(f->want, sizeof(f->want), "%s", json);
}

void grade_expect_fact_int(grade_case *c, const char *key, long long want, const char *hint)
{
    char text[32];
    snprintf(text, sizeof(text), "%lld", want);
    grade_expect_fact_json(c, key, text, hint);
}

void grade_expect_fact_string(grade_case *c, const char *key, const char *want, const char *hint)
{
    char text[256];
    size_t n = 0;
    text[n++] = '"';
    for (const char *s = want; *s && n + 3 < sizeof(text); s++) {
        if (*s == '"' || *s == '\\')
            text[n++] = '\\';
        text[n++] = *s;
    }
    text[n++] = '"';
    text[n] = '\0';
    grade_expect_fact_json(c, key, text, hint);
}

void grade_expect_fact_bool(grade_case *c, const char *key, int want, const char *hint)
{
    grade_expect_fact_json(c, key, want ? "true" : "false", hint);
}

void grade_expect_fact_range(grade_case *c, const char *key, double lo, double hi, const char *hint)
{
    grade_fact *f = add_fact(c, key, GRADE_FACT_RANGE, hint);
    if (f) {
        f->lo = lo;
        f->hi = hi;
    }
}

void grade_case_setenv(grade_case *c, const char *name, const char *value)
{
    if (c->n_env >= GRADE_MAX_ENV) {
        c->failed = 1;
        return;
    }
    snprintf(c->env[c->n_env++], sizeof(c->env[0]), "%s=%s", name, value);
}

/* ---- judging ------------------------------------------------------------- */

/* The elements of a as doubles (exact for every lab_dtype but large int64s). */
static double *as_doubles(const lab_npy_array *a)
{
    double *d = malloc(sizeof(*d) * (a->count ? a->count : 1));
    if (!d)
        return NULL;
    for (size_t i = 0; i < a->count; i++) {
        switch (a->dtype) {
        case LAB_DTYPE_F32:
            d[i] = ((const float *)a->data)[i];
            break;
        case LAB_DTYPE_F64:
            d[i] = ((const double *)a->data)[i];
            break;
        case LAB_DTYPE_I32:
            d[i] = ((const int *)a->data)[i];
            break;
        case LAB_DTYPE_I64:
            d[i] = (double)((const long long *)a->data)[i];
            break;
        case LAB_DTYPE_U8:
            d[i] = ((const unsigned char *)a->data)[i];
            break;
        }
    }
    return d;
}

/* "[3, 4]" for a shape. */
static void shape_text(char *buf, size_t len, const lab_npy_array *a)
{
    size_t n = (size_t)snprintf(buf, len, "(");
    for (int d = 0; d < a->ndim && n < len; d++)
        n += (size_t)snprintf(buf + n, len - n, "%s%zu", d ? ", " : "", a->shape[d]);
    if (n < len)
        snprintf(buf + n, len - n, a->ndim == 1 ? ",)" : ")");
}

int grade_judge_output(const char *path, const grade_output *o, char *why, size_t len)
{
    struct stat st;
    lab_npy_array got;
    lab_error err;
    lab_compare_report rep;
    char gs[96], ws[96];
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, len, "missing output %s.npy", o->name);
        return 0;
    }
    if (lab_npy_read(&got, path, &err) != LAB_OK) {
        const char *msg = strstr(err.msg, o->name);
        snprintf(why, len, "%s", msg ? msg : err.msg);
        return 0;
    }
    int ok = got.dtype == o->expected.dtype && got.ndim == o->expected.ndim;
    for (int d = 0; ok && d < got.ndim; d++)
        ok = got.shape[d] == o->expected.shape[d];
    if (!ok) {
        shape_text(gs, sizeof(gs), &got);
        shape_text(ws, sizeof(ws), &o->expected);
        snprintf(why, len, "%s.npy is %s of shape %s; expected %s of shape %s", o->name,
                 lab_dtype_name(got.dtype), gs, lab_dtype_name(o->expected.dtype), ws);
        lab_npy_free(&got);
        return 0;
    }
    double *g = as_doubles(&got), *w = as_doubles(&o->expected);
    if (!g || !w) {
        snprintf(why, len, "grader: out of memory comparing %s", o->name);
        ok = 0;
    } else if (!lab_allclose_f64(&rep, g, w, got.count, o->atol, o->rtol, 0)) {
        if (rep.shown)
            snprintf(why, len,
                     "%s: %zu of %zu elements differ; first at [%zu]: got %.9g, want %.9g", o->name,
                     rep.mismatches, rep.count, rep.index[0], rep.got[0], rep.want[0]);
        else
            snprintf(why, len, "%s: %zu of %zu elements differ", o->name, rep.mismatches,
                     rep.count);
        ok = 0;
    }
    free(g);
    free(w);
    lab_npy_free(&got);
    return ok;
}

/* Whether two JSON value texts are equal: numbers as numbers, the rest as text. */
static int json_values_equal(const char *got, const char *want)
{
    char *end1, *end2;
    double a = strtod(got, &end1), b = strtod(want, &end2);
    if (end1 != got && !*end1 && end2 != want && !*end2)
        return a == b;
    return strcmp(got, want) == 0;
}

int grade_judge_facts(const grade_case *c, const grade_json_object *result, char *why, size_t len)
{
    for (int i = 0; i < c->n_facts; i++) {
        const grade_fact *f = &c->facts[i];
        const char *v = grade_json_get(result, f->key);
        const char *sep = f->hint[0] ? " — " : "";
        if (!v) {
            snprintf(why, len, "result.json has no \"%s\"%s%s", f->key, sep, f->hint);
            return 0;
        }
        if (f->kind == GRADE_FACT_EQUALS && !json_values_equal(v, f->want)) {
            snprintf(why, len, "result.json: \"%s\" is %.80s, expected %.80s%s%s", f->key, v,
                     f->want, sep, f->hint);
            return 0;
        }
        if (f->kind == GRADE_FACT_RANGE) {
            char *end;
            double x = strtod(v, &end);
            if (end == v || *end || !(x >= f->lo && x <= f->hi)) {
                snprintf(why, len,
                         "result.json: \"%s\" is %.80s, expected a number in [%g, %g]%s%s", f->key,
                         v, f->lo, f->hi, sep, f->hint);
                return 0;
            }
        }
    }
    return 1;
}
