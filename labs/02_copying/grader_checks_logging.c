/* Lab 02's logging check (labs/02_copying, task 5): X_{k+1} = A X_k for 1000
 * steps with A = s times an orthogonal matrix, so the k-th norm is
 * s^k ||X0||; the program logs it every step (a copy to the host each time)
 * and on the device (one copy at the end), and both logs must agree. The
 * rest of lab 02's checks: grader_checks.c. */
#define _POSIX_C_SOURCE 200809L
#include "grader_checks.h"

#include "lab/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LOG_N 100
#define LOG_STEPS 1000
#define LOG_GROWTH 1.005

static int judge_logs_agree(const grade_case *c, const grade_json_object *r, const char *outdir,
                            const char *out, const char *err, char *why, size_t len)
{
    lab_npy_array a, b;
    int ok = 1;
    (void)c;
    (void)r;
    (void)out;
    (void)err;
    if (!lab02_read_output(&a, outdir, "norms_every_step", why, len))
        return 0;
    if (!lab02_read_output(&b, outdir, "norms_on_device", why, len)) {
        lab_npy_free(&a);
        return 0;
    }
    const float *x = a.data, *y = b.data;
    for (size_t i = 0; ok && i < a.count && i < b.count; i++)
        if (!(fabsf(x[i] - y[i]) <= 1e-5f * fabsf(x[i]))) {
            snprintf(why, len,
                     "the two logs differ at step %zu: %.9g every step, %.9g on the device", i + 1,
                     x[i], y[i]);
            ok = 0;
        }
    lab_npy_free(&a);
    lab_npy_free(&b);
    return ok;
}

/* A = s (I - 2uu')(I - 2vv') for unit u, v: s times an orthogonal matrix. */
static void log_matrix(float *A, lab_rng *rng)
{
    double u[LOG_N], v[LOG_N], nu = 0, nv = 0, uv = 0;
    for (int i = 0; i < LOG_N; i++) {
        u[i] = lab_rng_normal(rng, 0.0f, 1.0f);
        v[i] = lab_rng_normal(rng, 0.0f, 1.0f);
        nu += u[i] * u[i];
        nv += v[i] * v[i];
    }
    for (int i = 0; i < LOG_N; i++) {
        u[i] /= sqrt(nu);
        v[i] /= sqrt(nv);
        uv += u[i] * v[i];
    }
    for (int i = 0; i < LOG_N; i++)
        for (int j = 0; j < LOG_N; j++)
            A[i * LOG_N + j] = (float)(LOG_GROWTH * ((i == j) - 2 * u[i] * u[j] - 2 * v[i] * v[j] +
                                                     4 * uv * u[i] * v[j]));
}

int lab02_logging(grade_case *c, const grade_env *env, char *why, size_t len)
{
    static float A[LOG_N * LOG_N], X0[LOG_N * LOG_N];
    size_t shape2[2] = { LOG_N, LOG_N }, shape1[1] = { LOG_STEPS };
    float *w1 = malloc(sizeof(float) * LOG_STEPS), *w2 = malloc(sizeof(float) * LOG_STEPS);
    lab_rng rng;
    double norm = 0;
    if (!w1 || !w2) {
        free(w1);
        free(w2);
        snprintf(why, len, "out of memory");
        return -1;
    }
    lab_rng_seed(&rng, env->seed, 600);
    log_matrix(A, &rng);
    lab_rng_fill_uniform(&rng, X0, LOG_N * LOG_N, -1.0f, 1.0f);
    for (int i = 0; i < LOG_N * LOG_N; i++)
        norm += (double)X0[i] * X0[i];
    norm = sqrt(norm);
    for (int k = 0; k < LOG_STEPS; k++) {
        norm *= LOG_GROWTH;
        w1[k] = w2[k] = (float)norm;
    }
    c->judge = judge_logs_agree;
    if (grade_write_input(env, "log_a", LAB_DTYPE_F32, 2, shape2, A, why, len) ||
        grade_write_input(env, "log_x0", LAB_DTYPE_F32, 2, shape2, X0, why, len)) {
        free(w1);
        free(w2);
        return -1;
    }
    /* 1000 float products: allow 1e-3 relative (one step is 5e-3). */
    if (grade_expect_output(c, "norms_every_step", LAB_DTYPE_F32, 1, shape1, w1, 0, 1e-3, why,
                            len)) {
        free(w2);
        return -1;
    }
    if (grade_expect_output(c, "norms_on_device", LAB_DTYPE_F32, 1, shape1, w2, 0, 1e-3, why, len))
        return -1;
    grade_expect_fact_string(c, "log_on_device_error", "cudaSuccess",
                             "norms_on_device in costs.cu");
    return 0;
}
