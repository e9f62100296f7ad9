/* Lab 04's checks (labs/04_matvec): the three mat-vec kernels, their
 * coalescing, and the cuBLAS matmul.
 *
 * Expected values are computed here in double precision from the inputs; the
 * lab's own code is not used. Tolerances are float32 error bounds that hold
 * whatever order the program adds in (Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., eq. 3.5): a float32 dot product of length K
 * is within gamma_K * sum_j |x_j y_j| of the exact one, gamma_K = K u / (1 - K u),
 * u = 2^-24; one more u covers rounding the exact value to the float32 we store.
 *
 * A wrong u or C gets the demo's hint after the usual "k of n elements
 * differ" (labs/04_matvec/diagnose.h): rows never written, the kernel
 * version's likely slip, and for the matmul which known slip the numbers
 * show (C transposed, or row-major read as column-major: right for the
 * square C = A A, wrong for a rectangular product). To give it, a check's
 * judge compares the outputs itself (they are moved into its context).
 *
 * Coalescing is measured by the simulator: the run has GPULAB_SIM_STATS=1,
 * and the simulator prints, after each launch, the 32-byte sectors the
 * kernel's warp loads touched and how many warp load instructions it ran.
 * The grader reads those lines from the run's stderr (sim_report.h), never
 * the counts the program writes in result.json, which it could rewrite. On
 * the cuda backend nothing counts them, so those checks give no points there
 * and say why.
 */
#include "labs.h"
#include "sim_report.h"

#include "diagnose.h" /* the likely causes the lab's demo prints */
#include "lab/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEMO_N 100000 /* the demo's shape: A is (N, M) */
#define DEMO_M 100
#define COALESCED_FACTOR 1.25

static double gamma_f32(double k)
{
    const double u = ldexp(1.0, -24);
    return k * u / (1.0 - k * u);
}

/* ---- judging with the demo's hints --------------------------------------- */

/* What a check's judge needs: the outputs it compares itself, the kernel
 * version (0 for the matmul), the coalescing judged after them, and the
 * matmul's inputs for its likely cause. */
typedef struct lab04_ctx {
    grade_output outputs[GRADE_MAX_OUTPUTS];
    int n_outputs;
    int version;
    int coalescing, M; /* judge the sector counts of a row length M too */
    int cuda;          /* graded on the cuda backend: nothing counts sectors */
    float *A, *B;      /* matmul: A (n, k), B (k, m) */
    int n, k, m;
    /* mat-vec: each output's A (N, M) and v, for the likely cause of a wrong u */
    float *mv_A[GRADE_MAX_OUTPUTS], *mv_v[GRADE_MAX_OUTPUTS];
    int mv_N[GRADE_MAX_OUTPUTS], mv_M[GRADE_MAX_OUTPUTS];
} lab04_ctx;

static void ctx_free(void *p)
{
    lab04_ctx *x = p;
    for (int i = 0; i < x->n_outputs; i++)
        lab_npy_free(&x->outputs[i].expected);
    for (int i = 0; i < GRADE_MAX_OUTPUTS; i++) {
        free(x->mv_A[i]);
        free(x->mv_v[i]);
    }
    free(x->A);
    free(x->B);
    free(x);
}

static int judge(const grade_case *c, const grade_json_object *result, const char *outdir,
                 const char *out, const char *err, char *why, size_t len);

/* The case's context, made on first use; the check's judge is judge(). */
static lab04_ctx *ctx_of(grade_case *c, char *why, size_t len)
{
    if (!c->ctx) {
        c->ctx = calloc(1, sizeof(lab04_ctx));
        c->ctx_free = ctx_free;
        c->judge = judge;
        if (!c->ctx)
            snprintf(why, len, "out of memory");
    }
    return c->ctx;
}

/* Moves the outputs declared so far into the context: the judge compares
 * them, so that a wrong one can be explained. */
static int take_outputs(grade_case *c, char *why, size_t len)
{
    lab04_ctx *x = ctx_of(c, why, len);
    if (!x)
        return -1;
    memcpy(x->outputs, c->outputs, sizeof(c->outputs[0]) * (size_t)c->n_outputs);
    x->n_outputs = c->n_outputs;
    c->n_outputs = 0;
    return 0;
}

/* The shuffle offsets whose bits are (or are not) in mask, as "16, 8, 1". */
static void offsets_text(char *buf, size_t len, int mask, int in)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int off = 16; off >= 1; off /= 2)
        if (((mask & off) != 0) == in && n < len)
            n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? ", " : "", off);
    if (!buf[0])
        snprintf(buf, len, "none");
}

/*
 * v2 and v3 give row r's products A[r][j] v[j] to lane j % 32, and warp_sum
 * adds the 32 lanes' partial sums with __shfl_down_sync by 16, 8, 4, 2 and 1.
 * With some of those offsets left out, lane 0 ends with the sum over the lanes
 * whose index uses only the offsets' bits; a shuffle by 32 or more (or
 * __shfl_up_sync, which lane 0 reads from itself) doubles lane 0's value
 * instead. Whether every row of got is one of those (the right sum excluded),
 * and the sentence saying which, into buf. 1 when recognised.
 */
static int shuffle_cause(char *buf, size_t len, const float *got, const float *A, const float *v,
                         int N, int M, double atol)
{
    double *part = calloc((size_t)N * 32, sizeof(double)), *abs_part;
    int found = 0;
    if (!part || N <= 0 || M < 2)
        goto done;
    abs_part = calloc((size_t)N * 32, sizeof(double));
    if (!abs_part)
        goto done;
    for (int r = 0; r < N; r++)
        for (int j = 0; j < M; j++) {
            double t = (double)A[(size_t)r * M + j] * v[j];
            part[(size_t)r * 32 + j % 32] += t;
            abs_part[(size_t)r * 32 + j % 32] += fabs(t);
        }
    for (int mask = 31; mask >= 0 && !found; mask--)
        for (int twice = 0; twice <= 5 && !found; twice++) {
            if (mask == 31 && twice == 0)
                continue; /* the right sum */
            double scale = (double)(1 << twice);
            int all = 1, differs = 0;
            for (int r = 0; all && r < N; r++) {
                double s = 0.0, right = 0.0, bound = 0.0;
                for (int l = 0; l < 32; l++) {
                    right += part[(size_t)r * 32 + l];
                    if ((l & ~mask) == 0) {
                        s += part[(size_t)r * 32 + l];
                        bound += abs_part[(size_t)r * 32 + l];
                    }
                }
                double tol = scale * (atol + ldexp(bound, -20));
                all = fabs((double)got[r] - scale * s) <= tol;
                differs |= fabs(scale * s - right) > tol;
            }
            if (!all || !differs)
                continue;
            char used[40], missing[40];
            offsets_text(used, sizeof(used), mask, 1);
            offsets_text(missing, sizeof(missing), mask, 0);
            int lanes = 1 << __builtin_popcount((unsigned)mask);
            if (twice == 0)
                snprintf(buf, len,
                         "each u[row] is the sum of only %d of its warp's 32 lane partial sums, "
                         "as shuffles by %s alone give (%s missing): warp_sum in matvec.cu must "
                         "add __shfl_down_sync(0xffffffffu, x, offset) for offset = 16, 8, 4, 2, 1",
                         lanes, used, missing);
            else
                snprintf(buf, len,
                         "each u[row] is %d times the sum of %d of its warp's 32 lane partial "
                         "sums: a shuffle by 32 or more (or __shfl_up_sync) hands lane 0 its own "
                         "value, which it adds again; warp_sum in matvec.cu must add "
                         "__shfl_down_sync(0xffffffffu, x, offset) for offset = 16, 8, 4, 2, 1",
                         1 << twice, lanes);
            found = 1;
        }
    free(abs_part);
done:
    free(part);
    return found;
}

/* After grade_judge_output's reason for a wrong output, the likely cause. */
static void add_cause(const lab04_ctx *x, int at, const grade_output *o, const char *path,
                      char *why, size_t len)
{
    lab_npy_array got;
    lab_error err;
    char cause[600];
    size_t used = strlen(why);
    if (lab_npy_read(&got, path, &err) != LAB_OK)
        return;
    if (got.dtype == LAB_DTYPE_F32 && got.count == o->expected.count && got.count > 0) {
        const float *g = got.data;
        if (x->version == 0) {
            lab04_matmul_cause(cause, sizeof(cause), g, x->A, x->B, x->n, x->k, x->m,
                               o->rtol > 0 ? o->rtol : 1e-5);
        } else {
            size_t nan = 0, first = got.count;
            for (size_t i = 0; i < got.count; i++)
                if (isnan(g[i]) && nan++ == 0)
                    first = i;
            if (nan || x->version == 1 || !x->mv_A[at] ||
                !shuffle_cause(cause, sizeof(cause), g, x->mv_A[at], x->mv_v[at], x->mv_N[at],
                               x->mv_M[at], o->atol))
                lab04_matvec_hint(cause, sizeof(cause), x->version, nan, got.count, first,
                                  "build/bin/lab04-sim-student");
        }
        if (cause[0] && used + 4 < len)
            snprintf(why + used, len - used, " — %s", cause);
    }
    lab_npy_free(&got);
}

static int judge_coalescing(const lab04_ctx *x, const char *key, const char *err, char *why,
                            size_t len);

static int judge(const grade_case *c, const grade_json_object *result, const char *outdir,
                 const char *out, const char *err, char *why, size_t len)
{
    const lab04_ctx *x = c->ctx;
    char path[4200];
    (void)out;
    (void)result;
    for (int i = 0; i < x->n_outputs; i++) {
        const grade_output *o = &x->outputs[i];
        snprintf(path, sizeof(path), "%s/%s.npy", outdir, o->name);
        if (!grade_judge_output(path, o, why, len)) {
            add_cause(x, i, o, path, why, len);
            return 0;
        }
    }
    return x->coalescing ? judge_coalescing(x, c->sim_key, err, why, len) : 1;
}

/* ---- mat-vec ------------------------------------------------------------- */

/* Writes A<suffix>, v<suffix> (standard normal entries) and
 * declares u<suffix> = A v with atol = gamma_{M+1} max_i sum_j |A_ij v_j|. */
static int matvec_problem(grade_case *c, const grade_env *env, int N, int M, const char *suffix,
                          char *why, size_t len)
{
    size_t a_shape[2] = { (size_t)N, (size_t)M }, v_shape[1] = { (size_t)M },
           u_shape[1] = { (size_t)N };
    float *A = malloc(sizeof(*A) * (size_t)N * M), *v = malloc(sizeof(*v) * M);
    float *u = malloc(sizeof(*u) * N);
    char name[48];
    lab_rng rng;
    int rc = -1;
    lab04_ctx *x = ctx_of(c, why, len);
    if (!A || !v || !u) {
        snprintf(why, len, "out of memory");
        free(u);
        goto free_inputs;
    }
    lab_rng_seed(&rng, env->seed, 4000 + (uint64_t)N * 7919 + (uint64_t)M);
    lab_rng_fill_normal(&rng, A, (size_t)N * M, 0.0f, 1.0f);
    lab_rng_fill_normal(&rng, v, (size_t)M, 0.0f, 1.0f);
    double worst = 0.0;
    for (int i = 0; i < N; i++) {
        double s = 0.0, abs_s = 0.0;
        for (int j = 0; j < M; j++) {
            double t = (double)A[(size_t)i * M + j] * v[j];
            s += t;
            abs_s += fabs(t);
        }
        u[i] = (float)s;
        if (abs_s > worst)
            worst = abs_s;
    }
    snprintf(name, sizeof(name), "A%s", suffix);
    if (grade_write_input(env, name, LAB_DTYPE_F32, 2, a_shape, A, why, len)) {
        free(u);
        goto free_inputs;
    }
    snprintf(name, sizeof(name), "v%s", suffix);
    if (grade_write_input(env, name, LAB_DTYPE_F32, 1, v_shape, v, why, len)) {
        free(u);
        goto free_inputs;
    }
    snprintf(name, sizeof(name), "u%s", suffix);
    rc = grade_expect_output(c, name, LAB_DTYPE_F32, 1, u_shape, u, gamma_f32(M + 1) * worst, 0.0,
                             why, len);
    if (rc == 0 && x && c->n_outputs > 0) { /* A and v, for a wrong u's likely cause */
        int at = c->n_outputs - 1;
        x->mv_A[at] = A, x->mv_v[at] = v, x->mv_N[at] = N, x->mv_M[at] = M;
        A = v = NULL;
    }
free_inputs:
    free(A);
    free(v);
    return rc;
}

static int write_version(grade_case *c, const grade_env *env, int version, char *why, size_t len)
{
    size_t shape[1] = { 1 };
    char hint[96];
    lab04_ctx *x = ctx_of(c, why, len);
    if (!x)
        return -1;
    x->version = version;
    snprintf(hint, sizeof(hint), "the program ran version.npy's kernel (%d)", version);
    grade_expect_fact_int(c, "version", version, hint);
    return grade_write_input(env, "version", LAB_DTYPE_I32, 0, shape, &version, why, len);
}

/* The demo's shape, N = 100000, M = 100: A.npy, v.npy -> u.npy. */
static int demo_shape(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int version = c->arg.i[0];
    if (write_version(c, env, version, why, len) ||
        matvec_problem(c, env, DEMO_N, DEMO_M, "", why, len))
        return -1;
    return take_outputs(c, why, len);
}

/* Shapes whose N and M are no multiple of a block (256, 1024 threads), a
 * warp (32) or a tile of v (256): a single row, a single column, M > 1024.
 * Under memcheck on the sim backend, so a read past a row's end is reported
 * even when it happens to land in the next row (v2 and v3: under all four of
 * the simulator's checks). */
static const int awkward[][2] = { { 1, 1 },    { 1, 1500 }, { 1000, 1 },
                                  { 777, 33 }, { 3, 1025 }, { 2049, 257 } };

static int awkward_shapes(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int version = c->arg.i[0];
    const int k = (int)(sizeof(awkward) / sizeof(awkward[0]));
    size_t shape[2] = { (size_t)k, 2 };
    char suffix[32];
    if (write_version(c, env, version, why, len) ||
        grade_write_input(env, "shapes", LAB_DTYPE_I32, 2, shape, awkward, why, len))
        return -1;
    for (int i = 0; i < k; i++) {
        snprintf(suffix, sizeof(suffix), "_%dx%d", awkward[i][0], awkward[i][1]);
        if (matvec_problem(c, env, awkward[i][0], awkward[i][1], suffix, why, len))
            return -1;
    }
    grade_expect_fact_int(c, "problems", k, "one u_<N>x<M>.npy per row of shapes.npy");
    /* v2 and v3 share a warp's values and v3 a block's tile: racecheck, synccheck and
     * initcheck too, so a missing barrier, an early return or a read of a tile element no
     * thread loaded is reported where it happens, not only as a wrong u. */
    c->memcheck = version == 1 ? 1 : 2;
    if (version == 2)
        snprintf(c->check_hint, sizeof(c->check_hint),
                 "all 32 lanes of a warp must reach warp_sum's shuffles together "
                 "(matvec_kernel2 in matvec.cu)");
    else if (version == 3)
        snprintf(c->check_hint, sizeof(c->check_hint),
                 "every thread must load its element of each tile and reach both "
                 "__syncthreads(): no early return, and a barrier before the next tile "
                 "overwrites the last (matvec_kernel3 in matvec.cu)");
    return take_outputs(c, why, len);
}

/* ---- coalescing ---------------------------------------------------------- */

/* The fewest sectors a warp's load can touch in u = A v with rows of M
 * floats: its lanes read min(32, M) neighbouring floats of one row, 4 bytes
 * each, and a sector holds 32 bytes:
 *     minimum = ceil(4 * min(32, M) / 32)      (4 for M >= 32). */
static int min_sectors_per_load(int M)
{
    int lanes = M < 32 ? M : 32;
    return (4 * lanes + 31) / 32;
}

static int judge_coalescing(const lab04_ctx *x, const char *key, const char *err, char *why,
                            size_t len)
{
    char kernel[32];
    grade_sim_report rep;
    grade_sim_launch k;
    if (x->cuda) {
        snprintf(why, len,
                 "not measured on the cuda backend, so no points here: only the simulator "
                 "counts sectors per warp load (grade with --backend sim)");
        return 0;
    }
    snprintf(kernel, sizeof(kernel), "matvec_kernel%d", x->version);
    grade_sim_report_parse(&rep, err, key);
    /* The version's own kernel; when the program ran another in its place (v1's kernel for
     * v2), the loads of what it did run are what this check measures. */
    if (grade_sim_report_kernel(&rep, kernel, &k) == 0 && rep.n_launches > 0 &&
        grade_sim_report_kernel(&rep, NULL, &k) > 0)
        snprintf(kernel, sizeof(kernel), "%.31s",
                 rep.n_launches == 1 ? rep.launch[0].kernel : "the kernels it launched");
    if (rep.n_launches == 0) {
        snprintf(why, len,
                 "the simulator counted no launch of %s (%d launch%s in all): u was not computed "
                 "by matvec.cu's %s, or its counts never reached the run's stderr",
                 kernel, rep.n_launches, rep.n_launches == 1 ? "" : "es", kernel);
        return 0;
    }
    long long requests = (long long)k.load_requests, sectors = (long long)k.load_sectors;
    if (requests <= 0) {
        snprintf(why, len,
                 "v%d made no global loads: is matvec_kernel%d in matvec.cu still the TODO stub?",
                 x->version, x->version);
        return 0;
    }
    double got = (double)sectors / (double)requests;
    int least = min_sectors_per_load(x->M);
    double allowed = COALESCED_FACTOR * least;
    if (got > allowed) {
        snprintf(why, len,
                 "v%d is not coalesced: %.2f sectors per warp load (%lld sectors / %lld "
                 "requests, counted by the simulator in %s, matvec.cu), at most %.2f allowed "
                 "(%.2f x %d, the least a warp's load of %d neighbouring floats touches); "
                 "neighbouring lanes must read neighbouring floats of a row",
                 x->version, got, sectors, requests, kernel, allowed, COALESCED_FACTOR, least,
                 x->M < 32 ? x->M : 32);
        return 0;
    }
    return 1;
}

/* Runs the demo's shape with GPULAB_SIM_STATS=1 and judges the counts. */
static int coalescing(grade_case *c, const grade_env *env, char *why, size_t len)
{
    lab04_ctx *x = ctx_of(c, why, len);
    if (!x)
        return -1;
    x->coalescing = 1;
    x->M = DEMO_M;
    x->cuda = strcmp(env->backend, "cuda") == 0;
    grade_case_setenv(c, "GPULAB_SIM_STATS", "1");
    return demo_shape(c, env, why, len); /* the same c->arg: the version */
}

/* ---- matmul -------------------------------------------------------------- */

/* C = A B, row-major, A (n, k) and B (k, m) uniform in [0, 1), as in the
 * demo. Every term is >= 0, so sum_j |A_ij B_jl| = C_il and the float32
 * bound is a relative tolerance: rtol = gamma_{k+1}. */
static int matmul(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int n = c->arg.i[0], k = c->arg.i[1], m = c->arg.i[2], square = c->arg.i[3];
    size_t a_shape[2] = { (size_t)n, (size_t)k }, b_shape[2] = { (size_t)k, (size_t)m },
           c_shape[2] = { (size_t)n, (size_t)m };
    float *A = malloc(sizeof(*A) * (size_t)n * k), *B = malloc(sizeof(*B) * (size_t)k * m);
    float *C = malloc(sizeof(*C) * (size_t)n * m);
    double *row = malloc(sizeof(*row) * m);
    lab04_ctx *x = ctx_of(c, why, len);
    lab_rng rng;
    int rc = -1;
    if (!A || !B || !C || !row || !x) {
        snprintf(why, len, "out of memory");
        free(C);
        goto free_all;
    }
    lab_rng_seed(&rng, env->seed, 4100 + (uint64_t)n);
    lab_rng_fill_uniform(&rng, A, (size_t)n * k, 0.0f, 1.0f);
    if (square)
        memcpy(B, A, sizeof(*B) * (size_t)k * m); /* the demo's C = A A */
    else
        lab_rng_fill_uniform(&rng, B, (size_t)k * m, 0.0f, 1.0f);
    for (int i = 0; i < n; i++) {
        for (int l = 0; l < m; l++)
            row[l] = 0.0;
        for (int j = 0; j < k; j++) {
            double a = A[(size_t)i * k + j];
            const float *b = B + (size_t)j * m;
            for (int l = 0; l < m; l++)
                row[l] += a * b[l];
        }
        for (int l = 0; l < m; l++)
            C[(size_t)i * m + l] = (float)row[l];
    }
    if (grade_write_input(env, "A", LAB_DTYPE_F32, 2, a_shape, A, why, len) ||
        grade_write_input(env, "B", LAB_DTYPE_F32, 2, b_shape, B, why, len)) {
        free(C);
        goto free_all;
    }
    rc = grade_expect_output(c, "C", LAB_DTYPE_F32, 2, c_shape, C, 0.0, gamma_f32(k + 1), why, len);
    grade_expect_fact_string(c, "task", "matmul", "B.npy present: the program runs the matmul");
    if (rc == 0)
        rc = take_outputs(c, why, len);
    if (rc == 0) { /* the judge's likely cause needs the inputs */
        x->A = A, x->B = B, x->n = n, x->k = k, x->m = m;
        A = B = NULL;
    }
free_all:
    free(A);
    free(B);
    free(row);
    return rc;
}

/* One row per check: name, points, seconds, prepare, { its argument }:
 * the version for the mat-vec checks, { n, k, m, square } for the matmul. */
// clang-format off
static const grade_check checks[] = {
    { "v1 one thread per row: N = 100000, M = 100", 10, 120, demo_shape, { { 1 } } },
    { "v1: N, M = 1x1, 1x1500, 1000x1, 777x33, 3x1025, 2049x257 (memcheck on sim)",
      10, 120, awkward_shapes, { { 1 } } },
    { "v2 warp per row: N = 100000, M = 100", 10, 120, demo_shape, { { 2 } } },
    { "v2: the awkward shapes (all four sim checks)", 10, 120, awkward_shapes, { { 2 } } },
    { "v2 coalesced: sectors per warp load <= 1.25 x least (sim counts; none on cuda)",
      10, 120, coalescing, { { 2 } } },
    { "v3 shared-memory tiles of v: N = 100000, M = 100", 10, 120, demo_shape, { { 3 } } },
    { "v3: the awkward shapes (all four sim checks)", 10, 120, awkward_shapes, { { 3 } } },
    { "v3 coalesced: sectors per warp load <= 1.25 x least (sim counts; none on cuda)",
      10, 120, coalescing, { { 3 } } },
    { "matmul_cublas: row-major C = A B, (300, 200) x (200, 100)",
      10, 120, matmul, { { 300, 200, 100, 0 } } },
    { "matmul_cublas: C = A A, 512 x 512", 10, 120, matmul, { { 512, 512, 512, 1 } } },
};
// clang-format on

const grade_lab grade_lab_lab04 = {
    .name = "lab04",
    .title = "Mat-vec: kernels v1-v3, coalescing, cuBLAS and the big matmul",
    .checks = checks,
    .n_checks = GRADE_COUNT(checks),
    .dir = "04_matvec",
};
