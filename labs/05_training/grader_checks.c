/* Lab 05's checks (labs/05_training): a CNN's training step on the device
 * against the CPU trainer (lab05_core, linked into the grader), training on
 * the synthetic set, the iris MLP, and a memcheck run.
 *
 * Tolerances (net.h): loss 1e-5 + 1e-4|cpu|, gradients 1e-5 + 1e-3|cpu|,
 * parameters after one Adam step 1e-5 + 1e-4|cpu|. Training: 50 steps of
 * batch 32 over 256 synthetic images must end with a loss below 2.0 (it
 * starts near ln 10 = 2.30) and at least 20% accuracy on those images (twice
 * chance; the CPU trainer reaches 27-60% over seeds), every step's loss
 * within 0.05 of the CPU trainer's. Iris: every epoch's loss within 1e-4 +
 * 1e-3|cpu| of the CPU's, and >= 95% training accuracy after 100 epochs.
 *
 * A wrong step's reason is its first difference from the loss backwards
 * followed by where the gradient went wrong (labs/05_training/diagnose.h),
 * as the demo says it; under memcheck, a clean run with wrong results says
 * that memcheck found nothing before it. */
#include "labs.h"

#include "data.h"
#include "diagnose.h"
#include "net.h"

#include "lab/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TASK_STEP = 1, TASK_TRAIN = 2, TASK_IRIS = 3 };
enum { TRAIN_IMAGES = 256, TRAIN_BATCH = 32, TRAIN_STEPS = 50 };

static int write_task(const grade_env *env, int task, char *why, size_t len)
{
    size_t none[1] = { 1 };
    return grade_write_input(env, "task", LAB_DTYPE_I32, 0, none, &task, why, len);
}

static void *copy_of(const float *src, size_t n)
{
    float *p = malloc(sizeof(float) * (n ? n : 1));
    if (p)
        memcpy(p, src, sizeof(float) * n);
    return p;
}

/* What the judge of a task 1 check needs: the CPU trainer's loss, gradients
 * and parameters after Adam, and which of them the check grades. */
typedef struct step_ctx {
    l5_net net;
    float loss;
    float *grads, *params; /* n_params each */
    int grads_check;       /* 1: the loss and every gradient; 0: every parameter after Adam */
    int memcheck;          /* the run was under memcheck, which found nothing */
    int shift;             /* every logit raised by this much (the last bias; 0: none) */
} step_ctx;

static void step_ctx_free(void *p)
{
    step_ctx *x = p;
    free(x->grads);
    free(x->params);
    free(x);
}

/* <outdir>/<prefix><tensor>.npy against want (not owned); 1 when it matches,
 * else 0 with the usual reason in why. */
static int judge_tensor(const char *outdir, const char *prefix, const l5_tensor *t,
                        const float *want, double atol, double rtol, char *why, size_t len)
{
    grade_output o;
    char path[4300];
    memset(&o, 0, sizeof(o));
    snprintf(o.name, sizeof(o.name), "%s%s", prefix, t->name);
    o.expected.dtype = LAB_DTYPE_F32;
    o.expected.ndim = t->ndim;
    o.expected.count = t->count;
    for (int d = 0; d < t->ndim; d++)
        o.expected.shape[d] = (size_t)t->shape[d];
    o.expected.data = (void *)want;
    o.atol = atol;
    o.rtol = rtol;
    snprintf(path, sizeof(path), "%s/%s.npy", outdir, o.name);
    return grade_judge_output(path, &o, why, len);
}

/* The sum, over the classes, of the gradient of the output layer's bias the
 * program wrote: mean over the batch of sum_j (softmax_j - onehot_j), which is
 * 0 when each sample's label is one of the classes and 1 when none is (labels
 * that never reached the device: the simulator's fresh memory reads -1). NAN
 * when the file cannot be read. */
static double last_bias_grad_sum(const l5_net *net, const char *outdir)
{
    const l5_tensor *bias = &net->tensor[net->n_tensors - 1];
    char path[4300];
    lab_npy_array a;
    lab_error e;
    double sum = 0.0;
    snprintf(path, sizeof(path), "%s/grad_%s.npy", outdir, bias->name);
    if (lab_npy_read(&a, path, &e) != LAB_OK)
        return NAN;
    if (a.dtype != LAB_DTYPE_F32 || a.count != bias->count)
        sum = NAN;
    for (size_t i = 0; i < a.count && !isnan(sum); i++)
        sum += ((const float *)a.data)[i];
    lab_npy_free(&a);
    return sum;
}

/* A cause the numbers show better than where the gradients go wrong: labels
 * never copied, or Adam's moments never zeroed. 1 with it in cause. */
static int known_cause(const step_ctx *x, const char *outdir, const char *first, int grads_ok,
                       char *cause, size_t len)
{
    double s = last_bias_grad_sum(&x->net, outdir);
    if (!grads_ok && fabs(s - 1.0) < 0.05) {
        snprintf(cause, len,
                 "the output bias's gradient sums to %.3f over the classes, not 0: no sample's "
                 "label matched a class, so the labels never reached the device — "
                 "batch_to_device in to_device.cu must copy h_y to d_y",
                 s);
        return 1;
    }
    if (grads_ok && !x->grads_check && strstr(first, "nan")) {
        snprintf(cause, len,
                 "the loss and every gradient are right, but the parameters after Adam are NaN: "
                 "Adam's moments m and v must start at zero — model_to_device in to_device.cu "
                 "must cudaMemset them (cudaMalloc leaves memory as it is; the simulator's reads "
                 "as NaN)");
        return 1;
    }
    return 0;
}

/*
 * The loss and every gradient (or every parameter after Adam) against the
 * CPU trainer's. A wrong step is explained as the demo explains it
 * (labs/05_training/diagnose.h): the reason is the first difference from the
 * loss backwards, not conv.0's, followed by where the gradient went wrong;
 * under memcheck, that memcheck found nothing comes first.
 */
static int judge_step(const grade_case *c, const grade_json_object *result, const char *outdir,
                      const char *out, const char *err, char *why, size_t len)
{
    const step_ctx *x = c->ctx;
    const l5_net *net = &x->net;
    char first[512] = "", cause[700], one[512];
    int grad_ok[L5_MAX_TENSORS], all = 1;
    (void)result;
    (void)out;
    (void)err;
    l5_tensor loss_t = { "loss", 1, { 1, 0, 0, 0 }, 0, 1, 1 };
    int loss_ok = judge_tensor(outdir, "", &loss_t, &x->loss, L5_TOL_LOSS_ATOL, L5_TOL_LOSS_RTOL,
                               first, sizeof(first));
    all = loss_ok;
    /* The gradients, from the loss backwards: the first that differs is
     * the one to report. The parameters' check looks at them too (a graded
     * run writes both), to tell a wrong gradient from a wrong Adam step. */
    for (int i = net->n_tensors - 1; i >= 0; i--) {
        const l5_tensor *t = &net->tensor[i];
        grad_ok[i] = judge_tensor(outdir, "grad_", t, x->grads + t->offset, L5_TOL_GRAD_ATOL,
                                  L5_TOL_GRAD_RTOL, one, sizeof(one));
        if (!grad_ok[i] && all && x->grads_check)
            snprintf(first, sizeof(first), "%s", one);
        all = all && grad_ok[i];
    }
    if (!x->grads_check) {
        int params_ok = 1;
        for (int i = net->n_tensors - 1; i >= 0; i--) {
            const l5_tensor *t = &net->tensor[i];
            if (!judge_tensor(outdir, "param_", t, x->params + t->offset, L5_TOL_PARAM_ATOL,
                              L5_TOL_PARAM_RTOL, one, sizeof(one)) &&
                params_ok) {
                snprintf(first, sizeof(first), "%s", one);
                params_ok = 0;
            }
        }
        if (params_ok)
            return 1;
        if (known_cause(x, outdir, first, all, cause, sizeof(cause))) {
            /* the cause is known */
        } else if (all) {
            snprintf(cause, sizeof(cause),
                     "the loss and every gradient are right, so the Adam step is not: adam_kernel "
                     "in kernels.cu (or model_to_host in to_device.cu copying the parameters "
                     "back)");
        } else {
            char d[600];
            l5_diagnose_grads(net, loss_ok, grad_ok, d, sizeof(d));
            snprintf(cause, sizeof(cause), "the gradients are already wrong: %s", d);
        }
    } else {
        if (all)
            return 1;
        if (!known_cause(x, outdir, first, 0, cause, sizeof(cause)))
            l5_diagnose_grads(net, loss_ok, grad_ok, cause, sizeof(cause));
    }
    if (x->shift) {
        snprintf(why, len,
                 "with every logit raised by %d (the last layer's bias, which leaves softmax and "
                 "the gradients unchanged): %.200s — expf overflows float32 past 88.7: "
                 "softmax_xent_kernel in kernels.cu must subtract the row's max from each logit "
                 "before expf",
                 x->shift, first);
        return 0;
    }
    snprintf(why, len, "%s%.200s — %s",
             x->memcheck ? "memcheck found no bad access, but the step's results differ from the "
                           "CPU's: "
                         : "",
             first, cause);
    return 0;
}

/* Task 1 for a batch of B: inputs, and what the CPU trainer computes. With
 * grads, the check grades the loss and every gradient; otherwise every
 * parameter after Adam. The judge compares them (judge_step). The row's
 * argument: { B, grads, shift }: shift > 0 adds it to the last layer's bias,
 * so every logit is near +shift (softmax is unchanged by a shift, but expf
 * of a logit past 88.7 overflows float32 unless the row's max is taken off
 * first). */
static int prepare_step(grade_case *c, const grade_env *env, char *why, size_t len)
{
    const int B = c->arg.i[0], grads = c->arg.i[1];
    l5_cpu cpu;
    lab_rng rng;
    int rc = -1;
    step_ctx *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    c->ctx = s;
    c->ctx_free = step_ctx_free;
    c->judge = judge_step;
    l5_net_cnn(&s->net);
    const l5_net *net = &s->net;
    size_t nx = (size_t)B * 3 * 32 * 32, xshape[4] = { (size_t)B, 3, 32, 32 };
    size_t yshape[1] = { (size_t)B }, pshape[1] = { net->n_params };
    float *x = malloc(sizeof(float) * nx);
    int *y = malloc(sizeof(int) * (size_t)B);
    if (!x || !y || l5_cpu_create(&cpu, net, B, NULL, env->seed, 1e-3, why, len)) {
        snprintf(why, len, "out of memory");
        goto free_xy;
    }
    s->shift = c->arg.i[2];
    if (s->shift) { /* the last tensor is the output layer's bias */
        const l5_tensor *bias = &net->tensor[net->n_tensors - 1];
        for (size_t i = 0; i < bias->count; i++)
            cpu.params[bias->offset + i] += (float)s->shift;
    }
    lab_rng_seed(&rng, env->seed, 1000 + (uint64_t)B);
    lab_rng_fill_uniform(&rng, x, nx, -1.0f, 1.0f);
    for (int i = 0; i < B; i++)
        y[i] = (int)lab_rng_below(&rng, 10);
    if (write_task(env, TASK_STEP, why, len) ||
        grade_write_input(env, "params", LAB_DTYPE_F32, 1, pshape, cpu.params, why, len) ||
        grade_write_input(env, "x", LAB_DTYPE_F32, 4, xshape, x, why, len) ||
        grade_write_input(env, "y", LAB_DTYPE_I32, 1, yshape, y, why, len))
        goto free_cpu;
    s->loss = l5_cpu_forward(&cpu, x, y, B, NULL);
    l5_cpu_backward(&cpu, B);
    l5_cpu_adam(&cpu);
    s->grads = copy_of(cpu.grads, net->n_params);
    s->params = copy_of(cpu.params, net->n_params);
    s->grads_check = grads;
    if (!s->grads || !s->params) {
        snprintf(why, len, "out of memory");
        goto free_cpu;
    }
    grade_expect_fact_string(c, "backend", env->backend, "the backend the program ran on");
    grade_expect_fact_int(c, "batch", B, NULL);
    rc = 0;
free_cpu:
    l5_cpu_destroy(&cpu);
free_xy:
    free(x);
    free(y);
    return rc;
}

/* The memcheck run also grades the gradients: a reason says which part
 * failed (a memcheck report is the reason on its own; a clean run with
 * wrong results says memcheck found nothing first). */
static int step_memcheck(grade_case *c, const grade_env *env, char *why, size_t len)
{
    c->memcheck = 1;
    int rc = prepare_step(c, env, why, len); /* the row's { B, grads } */
    if (rc == 0)                             /* memcheck runs on the sim backend only */
        ((step_ctx *)c->ctx)->memcheck = strcmp(env->backend, "sim") == 0;
    return rc;
}

/* Task 2: the CPU trainer's losses for the same images, batches and start. */
static int train_synthetic(grade_case *c, const grade_env *env, char *why, size_t len)
{
    l5_net net;
    l5_cpu cpu;
    l5_images set;
    int data_seed = (int)(env->seed % 1000000), init_seed = data_seed + 1;
    int cfg[5] = { TRAIN_IMAGES, TRAIN_BATCH, TRAIN_STEPS, data_seed, init_seed };
    size_t cshape[1] = { 5 }, lshape[1] = { TRAIN_STEPS };
    int y[TRAIN_IMAGES], rc = -1;
    float *losses = malloc(sizeof(float) * TRAIN_STEPS);
    l5_net_cnn(&net);
    if (!losses || l5_synthetic(&set, TRAIN_IMAGES, (unsigned long long)data_seed, why, len)) {
        free(losses);
        return -1;
    }
    if (l5_cpu_create(&cpu, &net, TRAIN_BATCH, NULL, (unsigned long long)init_seed, 1e-3, why, len))
        goto free_set;
    for (int i = 0; i < TRAIN_IMAGES; i++)
        y[i] = set.label[i];
    for (int s = 0; s < TRAIN_STEPS; s++) {
        int at = (s * TRAIN_BATCH) % TRAIN_IMAGES;
        losses[s] =
            l5_cpu_step(&cpu, set.x + (size_t)at * L5_IMG_PIXELS, y + at, TRAIN_BATCH, NULL);
    }
    l5_cpu_destroy(&cpu);
    if (write_task(env, TASK_TRAIN, why, len) ||
        grade_write_input(env, "config", LAB_DTYPE_I32, 1, cshape, cfg, why, len))
        goto free_set;
    rc = grade_expect_output(c, "losses", LAB_DTYPE_F32, 1, lshape, losses, 0.05, 0.0, why, len);
    losses = NULL;
    grade_expect_fact_range(c, "last_loss", 0.0, 2.0,
                            "the loss must fall from about 2.30 to below 2.0 in 50 steps");
    grade_expect_fact_range(c, "accuracy", 0.20, 1.0,
                            "at least 20% of the training images right after 50 steps");
free_set:
    free(losses);
    l5_images_free(&set);
    return rc;
}

/* Task 3: the iris MLP, 100 epochs. */
static int iris(grade_case *c, const grade_env *env, char *why, size_t len)
{
    l5_net net;
    l5_cpu cpu;
    l5_table t;
    size_t pshape[1], xshape[2], yshape[1], lshape[1] = { 100 };
    int rc = -1;
    l5_net_mlp(&net);
    if (l5_iris_load(&t, NULL, why, len))
        return -1;
    int *y = malloc(sizeof(int) * (size_t)t.n);
    float *losses = malloc(sizeof(float) * 100);
    if (!y || !losses || l5_cpu_create(&cpu, &net, t.n, NULL, env->seed, 0.01, why, len)) {
        free(losses);
        goto free_y;
    }
    for (int i = 0; i < t.n; i++)
        y[i] = t.label[i];
    pshape[0] = net.n_params;
    xshape[0] = (size_t)t.n, xshape[1] = (size_t)t.d;
    yshape[0] = (size_t)t.n;
    if (write_task(env, TASK_IRIS, why, len) ||
        grade_write_input(env, "params", LAB_DTYPE_F32, 1, pshape, cpu.params, why, len) ||
        grade_write_input(env, "x", LAB_DTYPE_F32, 2, xshape, t.x, why, len) ||
        grade_write_input(env, "y", LAB_DTYPE_I32, 1, yshape, y, why, len)) {
        free(losses);
        goto free_cpu;
    }
    for (int e = 0; e < 100; e++)
        losses[e] = l5_cpu_step(&cpu, t.x, y, t.n, NULL);
    rc = grade_expect_output(c, "losses", LAB_DTYPE_F32, 1, lshape, losses, 1e-4, 1e-3, why, len);
    if (rc == 0)
        rc = grade_expect_output(c, "params", LAB_DTYPE_F32, 1, pshape,
                                 copy_of(cpu.params, net.n_params), 1e-3, 1e-3, why, len);
    grade_expect_fact_range(c, "accuracy", 0.95, 1.0,
                            "the iris MLP must classify at least 95% of its training rows");
free_cpu:
    l5_cpu_destroy(&cpu);
free_y:
    free(y);
    l5_table_free(&t);
    return rc;
}

/* One row per check: name, points, seconds, prepare, { its argument }. */
// clang-format off
static const grade_check checks[] = {
    { "one step (batch 16): the loss and every gradient", 20, 120, prepare_step, { { 16, 1 } } },
    { "one step, logits near +200 (batch 16): softmax without overflow", 10, 120, prepare_step,
      { { 16, 1, 200 } } },
    { "one step (batch 16): every parameter after Adam", 20, 120, prepare_step, { { 16, 0 } } },
    { "one step under memcheck (batch 2): no bad access, right gradients", 10, 120, step_memcheck,
      { { 2, 1 } } },
    { "50 steps on the synthetic set: the loss falls, >= 20% accuracy", 20, 300, train_synthetic },
    { "iris MLP, 100 epochs: losses as the CPU's, >= 95% accuracy", 20, 120, iris },
};
// clang-format on

const grade_lab grade_lab_lab05 = {
    .name = "lab05",
    .title = "Training a CNN on the device: kernels, cuBLAS, Adam; the iris MLP",
    .checks = checks,
    .n_checks = GRADE_COUNT(checks),
    .dir = "05_training",
};
