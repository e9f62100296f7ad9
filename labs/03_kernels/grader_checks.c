/* Lab 03 — hand-written kernels (labs/03_kernels): the checks.
 *
 * Inputs (see labs/03_kernels/main.c): op.npy (1 vec_add, 2 grid-stride,
 * 3 mat_add), a.npy and b.npy from the seed, launch.npy (threads per block,
 * blocks for the grid-stride kernel, guard elements). The expected c = a + b
 * is computed here; a judge compares c.npy with it and, for a wrong answer,
 * gives the demo's own diagnosis (labs/03_kernels/diagnose.h): the harness
 * fills c with a marker, so the elements no thread wrote show, and with the
 * launch from result.json it tells a grid too small from an index that maps
 * threads to the wrong elements, and names the TODO. The launch configuration in result.json must
 * be the minimal one: ceil(n / threads) blocks (ceil(w / 16) x ceil(h / 16) in 2-D), never more,
 * never fewer.
 *
 * A kernel without its bounds check is caught two ways: on sim the checks
 * run under the simulator's memcheck (c->memcheck), so the first access past
 * an array is reported and fails the check; on every backend, cuda included,
 * the guard check gives c extra elements after c[n-1] holding a marker that
 * must survive the kernel. */
#define _POSIX_C_SOURCE 200809L
#include "labs.h"
#include "sim_report.h"

#include "diagnose.h" /* the diagnosis the lab's demo prints */
#include "lab/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_VEC_ADD = LAB03_OP_VEC_ADD,
    OP_GRID_STRIDE = LAB03_OP_GRID_STRIDE,
    OP_MAT_ADD = LAB03_OP_MAT_ADD
};

typedef struct lab03_ctx {
    int op, n, h, w, threads, blocks;
    long long launched; /* threads the launch must have: blocks x threads per block */
    int sim;            /* on sim: the simulator counts the launch and the stores (STATS=1) */
    float *want;        /* a + b */
} lab03_ctx;

static void ctx_free(void *p)
{
    lab03_ctx *x = p;
    free(x->want);
    free(x);
}

static long long result_int(const grade_json_object *result, const char *key)
{
    const char *v = grade_json_get(result, key);
    return v ? strtoll(v, NULL, 10) : 0;
}

/* The kernel each op must launch (kernels.cu), and its TODO. */
static const char *kernel_of(int op)
{
    return op == OP_VEC_ADD       ? "vec_add_kernel"
           : op == OP_GRID_STRIDE ? "vec_add_grid_stride_kernel"
                                  : "mat_add_kernel";
}

/* A right c, judged by what the simulator counted (GPULAB_SIM_STATS=1), not
 * by what the program says it launched: one launch of the op's kernel with
 * the configuration asked for (none for n = 0), and each element of c stored
 * exactly once. Catches the add done on the host and a grid-stride loop that
 * steps by blockDim.x alone (every block does all the work; c is right). */
static int judge_counts(const lab03_ctx *x, const char *key, const char *err, char *why, size_t len)
{
    grade_sim_report rep;
    grade_sim_launch k;
    const char *name = kernel_of(x->op);
    grade_sim_report_parse(&rep, err, key);
    int launches = grade_sim_report_kernel(&rep, name, &k);
    if (x->n == 0) {
        if (launches == 0)
            return 1;
        snprintf(why, len,
                 "with N = 0 the simulator counted %d launch%s of %s: there is nothing to "
                 "launch (0 blocks), the launcher must return before it (kernels.cu)",
                 launches, launches == 1 ? "" : "es", name);
        return 0;
    }
    if (launches == 0) {
        snprintf(why, len,
                 "c is right, but the simulator counted no launch of %s (%d kernel launch%s in "
                 "all): c was computed on the host; the add must run in %s, launched from "
                 "kernels.cu",
                 name, rep.n_launches, rep.n_launches == 1 ? "" : "es", name);
        return 0;
    }
    if (launches > 1) {
        snprintf(why, len,
                 "the simulator counted %d launches of %s (%s:%d first); one launch is asked for",
                 launches, name, k.file, k.line);
        return 0;
    }
    if ((long long)k.threads != x->launched) {
        snprintf(why, len,
                 "the simulator counted %llu threads in the launch of %s at %s:%d; the check "
                 "asked for %lld (result.json reports a launch the program did not run)",
                 k.threads, name, k.file, k.line, x->launched);
        return 0;
    }
    if (k.stores != (unsigned long long)x->n) {
        double times = (double)k.stores / (double)x->n;
        if (x->op == OP_GRID_STRIDE)
            snprintf(why, len,
                     "c is right, but each element was stored %.2f times on average (the "
                     "simulator counted %llu stores for N = %d on %d blocks): the grid-stride "
                     "loop must step by the whole grid, blockDim.x * gridDim.x (TODO 3 in "
                     "kernels.cu); a step of blockDim.x alone makes every block do all the work",
                     times, k.stores, x->n, x->blocks);
        else
            snprintf(why, len,
                     "c is right, but the simulator counted %llu stores into c for %d elements "
                     "(%.2f per element): each thread must write its one element once "
                     "(%s in kernels.cu)",
                     k.stores, x->n, times, name);
        return 0;
    }
    return 1;
}

/* Whether c is right but for the elements of the last, partial block of a
 * vec_add launch that reaches them: the kernel's bounds check leaves out a
 * block that is not full (i < n is enough), while ceil_div is right. The
 * reason into why when so. */
static int partial_block_unwritten(const lab03_run *r, const float *c, const float *want, char *why,
                                   size_t len)
{
    if (r->op != OP_VEC_ADD || r->bx <= 0 || r->n % r->bx == 0 || r->gx * r->bx < r->n)
        return 0;
    long long full = r->n / r->bx * r->bx;
    for (long long i = 0; i < r->n; i++) {
        int right = fabs((double)c[i] - (double)want[i]) <= 1e-6 * fabs((double)want[i]);
        if (i < full ? !right : !lab03_unwritten(c[i]))
            return 0;
    }
    snprintf(why, len,
             "c[%lld] .. c[%lld], the elements of the last block (block %lld, which has %lld "
             "threads for %lld elements), were never written, and every other element is "
             "right: the grid reaches them (%lld blocks of %lld threads: ceil_div is right), so "
             "the kernel's bounds check leaves out the threads of a block that is not full; "
             "only threads with i >= n must do nothing, the check is i < n (TODO 2, "
             "vec_add_kernel in kernels.cu)",
             full, r->n - 1, full / r->bx, r->bx, r->n - full, r->gx, r->bx);
    return 1;
}

/* c.npy against a + b; a wrong c gets the harness's own diagnosis
 * (labs/03_kernels/diagnose.h): which elements were written, whether the
 * launch reported in result.json reaches them, and the TODO that points at. */
static int judge_c(const grade_case *c, const grade_json_object *result, const char *outdir,
                   const char *out_text, const char *err_text, char *why, size_t len)
{
    const lab03_ctx *x = c->ctx;
    char path[4200], brief[96];
    lab_npy_array got;
    lab_error err;
    (void)out_text;
    snprintf(path, sizeof(path), "%s/c.npy", outdir);
    if (lab_npy_read(&got, path, &err) != LAB_OK) {
        snprintf(why, len, "c.npy: %.400s", err.msg);
        return 0;
    }
    size_t n = (size_t)x->n;
    int shape_ok =
        got.dtype == LAB_DTYPE_F32 && got.count == n && got.ndim == (x->op == OP_MAT_ADD ? 2 : 1);
    if (shape_ok && x->op == OP_MAT_ADD)
        shape_ok = got.shape[0] == (size_t)x->h && got.shape[1] == (size_t)x->w;
    if (!shape_ok) {
        snprintf(why, len, "c.npy has the wrong type or shape (%zu elements; expected %zu float32)",
                 got.count, n);
        lab_npy_free(&got);
        return 0;
    }
    lab03_run r = { x->op,
                    x->n,
                    x->h,
                    x->w,
                    result_int(result, "grid_x"),
                    result_int(result, "grid_y"),
                    result_int(result, "block_x"),
                    result_int(result, "block_y") };
    int ok = lab03_diagnose(&r, got.data, x->want, 1e-6, brief, sizeof(brief), why, len);
    if (!ok)
        partial_block_unwritten(&r, got.data, x->want, why, len);
    lab_npy_free(&got);
    return ok && (!x->sim || judge_counts(x, c->sim_key, err_text, why, len));
}

/* a and b from the seed, c = a + b expected; the case's judge compares them. */
static int prepare_common(grade_case *c, const grade_env *env, int op, int n, int h, int w,
                          int threads, int blocks, int guard, char *why, size_t len)
{
    lab_rng rng;
    size_t count = (size_t)n, shape[2];
    int ndim = op == OP_MAT_ADD ? 2 : 1;
    lab03_ctx *x = calloc(1, sizeof(*x));
    float *a = malloc(sizeof(float) * (count ? count : 1));
    float *b = malloc(sizeof(float) * (count ? count : 1));
    int rc = -1;
    if (!x || !a || !b) {
        snprintf(why, len, "out of memory");
        free(x);
        goto free_ab;
    }
    x->want = malloc(sizeof(float) * (count ? count : 1));
    c->ctx = x;
    c->ctx_free = ctx_free;
    c->judge = judge_c;
    if (!x->want) {
        snprintf(why, len, "out of memory");
        goto free_ab;
    }
    x->op = op;
    x->n = n;
    x->h = h;
    x->w = w;
    x->threads = threads;
    x->blocks = blocks;
    x->sim = strcmp(env->backend, "sim") == 0;
    if (x->sim)
        grade_case_setenv(c, "GPULAB_SIM_STATS", "1");
    lab_rng_seed(&rng, env->seed, (uint64_t)op * 1000003u + (uint64_t)n * 7u + (uint64_t)threads);
    lab_rng_fill_uniform(&rng, a, count, -10.0f, 10.0f);
    lab_rng_fill_uniform(&rng, b, count, -10.0f, 10.0f);
    for (size_t i = 0; i < count; i++)
        x->want[i] = a[i] + b[i];
    if (ndim == 2) {
        shape[0] = (size_t)h;
        shape[1] = (size_t)w;
    } else {
        shape[0] = count;
    }
    int opv = op, launch[3] = { threads, blocks, guard };
    size_t three[1] = { 3 };
    if (grade_write_input(env, "op", LAB_DTYPE_I32, 0, shape, &opv, why, len) ||
        grade_write_input(env, "a", LAB_DTYPE_F32, ndim, shape, a, why, len) ||
        grade_write_input(env, "b", LAB_DTYPE_F32, ndim, shape, b, why, len) ||
        grade_write_input(env, "launch", LAB_DTYPE_I32, 1, three, launch, why, len))
        goto free_ab;
    grade_expect_fact_string(c, "backend", env->backend, "the backend the program ran on");
    rc = 0;
free_ab:
    free(a);
    free(b);
    return rc;
}

/* Vector add (version 1): c = a + b, and the minimal 1-D launch. Under
 * memcheck on sim. The row's argument: { n, threads per block }. */
static int vec_case(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int n = c->arg.i[0], threads = c->arg.i[1];
    char hint[160];
    int blocks = (n + threads - 1) / threads;
    long long total = (long long)blocks * threads;
    if (prepare_common(c, env, OP_VEC_ADD, n, 0, 0, threads, 0, 0, why, len))
        return -1;
    ((lab03_ctx *)c->ctx)->launched = total;
    c->memcheck = 1;
    snprintf(hint, sizeof(hint),
             "blocks = ceil(%d / %d) = %d exactly: ceil_div rounds up (TODO 1) and vec_add "
             "(kernels.cu) launches ceil_div(n, threads) blocks",
             n, threads, blocks);
    grade_expect_fact_int(c, "grid_x", blocks, hint);
    grade_expect_fact_int(c, "block_x", threads, "the threads per block the grader asked for");
    grade_expect_fact_int(c, "grid_y", 1, "a 1-D launch");
    grade_expect_fact_int(c, "total_threads", total, hint);
    grade_expect_fact_int(c, "idle_threads", total - n, hint);
    grade_expect_fact_bool(c, "launched", blocks > 0,
                           "with n = 0 there is nothing to launch (0 blocks)");
    return 0;
}

/* The guard region: the 678 idle threads of N = 5466 with 1024 threads per
 * block must not write c[5466] and beyond. No memcheck: this works on a GPU. */
static int vec_guard(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int n = 5466, threads = 1024, guard = 1024;
    if (prepare_common(c, env, OP_VEC_ADD, n, 0, 0, threads, 0, guard, why, len))
        return -1;
    ((lab03_ctx *)c->ctx)->launched = (long long)((n + threads - 1) / threads) * threads;
    grade_expect_fact_int(c, "guard_elems", guard, NULL);
    grade_expect_fact_int(c, "guard_intact", guard,
                          "a thread wrote past c[n - 1]: threads with i >= n must do nothing "
                          "(the bounds check, TODO 2)");
    return 0;
}

/* Grid-stride (version 2) on a grid the grader chooses, small or large. The
 * row's argument: { n, blocks, threads per block }. */
static int stride_case(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int n = c->arg.i[0], blocks = c->arg.i[1], threads = c->arg.i[2];
    if (prepare_common(c, env, OP_GRID_STRIDE, n, 0, 0, threads, blocks, 0, why, len))
        return -1;
    ((lab03_ctx *)c->ctx)->launched = (long long)blocks * threads;
    c->memcheck = 1;
    grade_expect_fact_int(c, "grid_x", blocks, "launch exactly the blocks asked for");
    grade_expect_fact_int(c, "block_x", threads, "launch exactly the threads asked for");
    return 0;
}

/* 2-D (version 3): odd shapes, 16 x 16 blocks, the minimal grid. The row's
 * argument: { h, w }. */
static int mat_case(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int h = c->arg.i[0], w = c->arg.i[1];
    char hint[160];
    int gx = (w + 15) / 16, gy = (h + 15) / 16;
    if (prepare_common(c, env, OP_MAT_ADD, h * w, h, w, 16, 0, 0, why, len))
        return -1;
    ((lab03_ctx *)c->ctx)->launched = (long long)gx * gy * 256;
    c->memcheck = 1;
    snprintf(hint, sizeof(hint), "grid = ceil(w / 16) x ceil(h / 16) = %d x %d: TODO 5", gx, gy);
    grade_expect_fact_int(c, "block_x", 16, "16 x 16 blocks");
    grade_expect_fact_int(c, "block_y", 16, "16 x 16 blocks");
    grade_expect_fact_int(c, "grid_x", gx, hint);
    grade_expect_fact_int(c, "grid_y", gy, hint);
    return 0;
}

/* One row per check: name, points, seconds, prepare, { its argument }. */
#define N_BIG ((1 << 20) + 3)
static const grade_check checks[] = {
    { "vec_add, N = 0 (nothing to launch)", 1, 60, vec_case, { { 0, 256 } } },
    { "vec_add, N = 1, 32 threads per block", 1, 60, vec_case, { { 1, 32 } } },
    { "vec_add, N = 31, 32 threads per block", 1, 60, vec_case, { { 31, 32 } } },
    { "vec_add, N = 1023, 1024 threads per block", 1, 60, vec_case, { { 1023, 1024 } } },
    { "vec_add, N = 1024, 256 threads per block", 1, 60, vec_case, { { 1024, 256 } } },
    { "vec_add, N = 1025, 1024 threads per block", 1, 60, vec_case, { { 1025, 1024 } } },
    { "vec_add, N = 5466, 1024 threads per block", 2, 60, vec_case, { { 5466, 1024 } } },
    { "vec_add, N = 5466, 32 threads per block", 1, 60, vec_case, { { 5466, 32 } } },
    { "vec_add, N = 2^20 + 3, 256 threads per block", 2, 120, vec_case, { { N_BIG, 256 } } },
    { "vec_add, N = 2^20 + 3, 1024 threads per block", 1, 120, vec_case, { { N_BIG, 1024 } } },
    { "vec_add writes nothing past c[N-1] (guard region)", 3, 60, vec_guard },
    { "grid-stride, N = 2^20 + 3 on 3 blocks of 128", 2, 120, stride_case, { { N_BIG, 3, 128 } } },
    { "grid-stride, N = 5466 on 1 block of 32", 1, 60, stride_case, { { 5466, 1, 32 } } },
    { "grid-stride, N = 1000 on 64 blocks of 256", 1, 60, stride_case, { { 1000, 64, 256 } } },
    { "2-D grid, 1 x 1", 1, 60, mat_case, { { 1, 1 } } },
    { "2-D grid, 17 x 33", 1, 60, mat_case, { { 17, 33 } } },
    { "2-D grid, 517 x 731", 2, 60, mat_case, { { 517, 731 } } },
    { "2-D grid, 1000 x 3", 1, 60, mat_case, { { 1000, 3 } } },
};

const grade_lab grade_lab_lab03 = {
    .name = "lab03",
    .title = "Hand-written kernels (launch math, grid-stride, 2-D grid)",
    .checks = checks,
    .n_checks = GRADE_COUNT(checks),
    .dir = "03_kernels",
};
