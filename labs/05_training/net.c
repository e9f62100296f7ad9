/*
 * net.c - the two networks of lab 05, their initialization, Adam's scalars,
 * and parameters as .npy files. See net.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "net.h"

#include "lab/npy.h"
#include "lab/rng.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

size_t l5_layer_in_size(const l5_layer *l)
{
    return (size_t)l->c * (size_t)l->h * (size_t)l->w;
}

size_t l5_layer_out_size(const l5_layer *l)
{
    return (size_t)l->oc * (size_t)l->oh * (size_t)l->ow;
}

/* Appends a tensor to the net and returns its index. */
static int add_tensor(l5_net *net, const char *name, int ndim, const int *shape, int fan_in)
{
    l5_tensor *t = &net->tensor[net->n_tensors];
    snprintf(t->name, sizeof(t->name), "%s", name);
    t->ndim = ndim;
    t->count = 1;
    for (int d = 0; d < ndim; d++) {
        t->shape[d] = shape[d];
        t->count *= (size_t)shape[d];
    }
    t->offset = net->n_params;
    t->fan_in = fan_in;
    net->n_params += t->count;
    return net->n_tensors++;
}

/* The next layer, its input the previous layer's output. */
static l5_layer *next_layer(l5_net *net, l5_kind kind)
{
    l5_layer *l = &net->layer[net->n_layers];
    memset(l, 0, sizeof(*l));
    l->kind = kind;
    if (net->n_layers == 0) {
        l->c = net->in_c, l->h = net->in_h, l->w = net->in_w;
    } else {
        const l5_layer *p = &net->layer[net->n_layers - 1];
        l->c = p->oc, l->h = p->oh, l->w = p->ow;
    }
    l->oc = l->c, l->oh = l->h, l->ow = l->w;
    l->weight = l->bias = -1;
    net->n_layers++;
    return l;
}

static void conv(l5_net *net, const char *prefix, int oc, int k, int pad)
{
    char name[32];
    l5_layer *l = next_layer(net, L5_CONV);
    l->oc = oc, l->k = k, l->pad = pad;
    l->oh = l->h + 2 * pad - k + 1;
    l->ow = l->w + 2 * pad - k + 1;
    int fan_in = l->c * k * k;
    int wshape[4] = { oc, l->c, k, k }, bshape[1] = { oc };
    snprintf(name, sizeof(name), "%s.weight", prefix);
    l->weight = add_tensor(net, name, 4, wshape, fan_in);
    snprintf(name, sizeof(name), "%s.bias", prefix);
    l->bias = add_tensor(net, name, 1, bshape, fan_in);
    size_t cols = (size_t)fan_in * (size_t)l->oh * (size_t)l->ow;
    if (cols > net->max_cols)
        net->max_cols = cols;
}

static void linear(l5_net *net, const char *prefix, int out)
{
    char name[32];
    l5_layer *l = next_layer(net, L5_LINEAR);
    int in = l->c * l->h * l->w;
    l->c = in, l->h = l->w = 1;
    l->oc = out, l->oh = l->ow = 1;
    int wshape[2] = { out, in }, bshape[1] = { out };
    snprintf(name, sizeof(name), "%s.weight", prefix);
    l->weight = add_tensor(net, name, 2, wshape, in);
    snprintf(name, sizeof(name), "%s.bias", prefix);
    l->bias = add_tensor(net, name, 1, bshape, in);
}

static void relu(l5_net *net)
{
    next_layer(net, L5_RELU);
}

static void maxpool(l5_net *net)
{
    l5_layer *l = next_layer(net, L5_MAXPOOL);
    l->oh = l->h / 2, l->ow = l->w / 2;
}

static void flatten(l5_net *net)
{
    l5_layer *l = next_layer(net, L5_FLATTEN);
    l->oc = l->c * l->h * l->w, l->oh = l->ow = 1;
}

void l5_net_cnn(l5_net *net)
{
    memset(net, 0, sizeof(*net));
    snprintf(net->name, sizeof(net->name), "cnn");
    net->in_c = 3, net->in_h = 32, net->in_w = 32;
    /* Names as PyTorch's state_dict gives them: the CNN of torch_nets.py keeps its
     * layers in two nn.Sequential attributes, `conv` and `fc`. */
    conv(net, "conv.0", 6, 5, 0); /* 3x32x32 -> 6x28x28 */
    relu(net);
    maxpool(net);                  /* -> 6x14x14 */
    conv(net, "conv.3", 16, 5, 3); /* -> 16x16x16 */
    relu(net);
    conv(net, "conv.5", 16, 5, 0); /* -> 16x12x12 */
    relu(net);
    maxpool(net);                  /* -> 16x6x6 */
    conv(net, "conv.8", 16, 3, 0); /* -> 16x4x4 */
    relu(net);
    maxpool(net); /* -> 16x2x2 */
    flatten(net); /* -> 64 */
    linear(net, "fc.0", 120);
    relu(net);
    linear(net, "fc.2", 84);
    relu(net);
    linear(net, "fc.4", 10);
    net->n_classes = 10;
}

void l5_net_mlp(l5_net *net)
{
    memset(net, 0, sizeof(*net));
    snprintf(net->name, sizeof(net->name), "mlp");
    net->in_c = 4, net->in_h = 1, net->in_w = 1;
    linear(net, "fc1", 8);
    relu(net);
    linear(net, "fc2", 9);
    relu(net);
    linear(net, "out", 3);
    net->n_classes = 3;
}

int l5_net_find(const l5_net *net, const char *name)
{
    for (int i = 0; i < net->n_tensors; i++)
        if (strcmp(net->tensor[i].name, name) == 0)
            return i;
    return -1;
}

void l5_net_init(const l5_net *net, float *params, unsigned long long seed)
{
    for (int i = 0; i < net->n_tensors; i++) {
        const l5_tensor *t = &net->tensor[i];
        float bound = (float)(1.0 / sqrt((double)t->fan_in));
        lab_rng rng;
        lab_rng_seed(&rng, seed, (uint64_t)i);
        lab_rng_fill_uniform(&rng, params + t->offset, t->count, -bound, bound);
    }
}

/* ---- Adam ---------------------------------------------------------------- */

void l5_adam_init(l5_adam *a, double lr)
{
    a->lr = lr;
    a->beta1 = 0.9;
    a->beta2 = 0.999;
    a->eps = 1e-8;
    a->t = 0;
}

l5_adam_scalars l5_adam_next(l5_adam *a)
{
    l5_adam_scalars s;
    a->t++;
    /* beta^t by repeated multiplication: the same bits on every machine. */
    double b1t = 1.0, b2t = 1.0;
    for (long long i = 0; i < a->t; i++) {
        b1t *= a->beta1;
        b2t *= a->beta2;
    }
    s.beta1 = (float)a->beta1;
    s.one_minus_beta1 = (float)(1.0 - a->beta1);
    s.beta2 = (float)a->beta2;
    s.one_minus_beta2 = (float)(1.0 - a->beta2);
    s.step_size = (float)(a->lr / (1.0 - b1t));
    s.bc2_sqrt = (float)sqrt(1.0 - b2t);
    s.eps = (float)a->eps;
    return s;
}

void l5_adam_update_cpu(float *p, const float *g, float *m, float *v, size_t n,
                        const l5_adam_scalars *s)
{
    for (size_t i = 0; i < n; i++) {
        m[i] = s->beta1 * m[i] + s->one_minus_beta1 * g[i];
        v[i] = s->beta2 * v[i] + s->one_minus_beta2 * g[i] * g[i];
        float denom = sqrtf(v[i]) / s->bc2_sqrt + s->eps;
        p[i] = p[i] - s->step_size * m[i] / denom;
    }
}

/* ---- losses --------------------------------------------------------------- */

float l5_mean_loss(const float *losses, int B)
{
    double sum = 0.0;
    for (int i = 0; i < B; i++)
        sum += losses[i];
    return (float)(sum / B);
}

int l5_count_correct(const float *logits, const int *y, int B, int C)
{
    int correct = 0;
    for (int b = 0; b < B; b++) {
        const float *row = logits + (size_t)b * C;
        int best = 0;
        for (int j = 1; j < C; j++)
            if (row[j] > row[best])
                best = j;
        correct += best == y[b];
    }
    return correct;
}

/* ---- .npy per tensor ------------------------------------------------------ */

static int make_dirs(const char *dir, char *why, size_t why_len)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s", dir);
    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST) {
                snprintf(why, why_len, "cannot create directory %s: %s", path, strerror(errno));
                return -1;
            }
            *p = c;
            if (!c)
                break;
        }
    }
    return 0;
}

int l5_params_save(const l5_net *net, const float *params, const char *dir, char *why,
                   size_t why_len)
{
    if (make_dirs(dir, why, why_len))
        return -1;
    for (int i = 0; i < net->n_tensors; i++) {
        const l5_tensor *t = &net->tensor[i];
        char path[4096];
        size_t shape[4];
        lab_error err;
        for (int d = 0; d < t->ndim; d++)
            shape[d] = (size_t)t->shape[d];
        snprintf(path, sizeof(path), "%s/%s.npy", dir, t->name);
        if (lab_npy_write(path, LAB_DTYPE_F32, t->ndim, shape, params + t->offset, &err)) {
            snprintf(why, why_len, "%s", err.msg);
            return -1;
        }
    }
    return 0;
}

int l5_params_load(const l5_net *net, float *params, const char *dir, char *why, size_t why_len)
{
    for (int i = 0; i < net->n_tensors; i++) {
        const l5_tensor *t = &net->tensor[i];
        char path[4096];
        lab_npy_array a;
        lab_error err;
        snprintf(path, sizeof(path), "%s/%s.npy", dir, t->name);
        if (lab_npy_read(&a, path, &err)) {
            snprintf(why, why_len, "%s", err.msg);
            return -1;
        }
        int ok = a.dtype == LAB_DTYPE_F32 && a.ndim == t->ndim;
        for (int d = 0; ok && d < t->ndim; d++)
            ok = a.shape[d] == (size_t)t->shape[d];
        if (!ok) {
            snprintf(why, why_len, "%s: expected float32 of %d dimensions (%s's shape)", path,
                     t->ndim, t->name);
            lab_npy_free(&a);
            return -1;
        }
        memcpy(params + t->offset, a.data, sizeof(float) * t->count);
        lab_npy_free(&a);
    }
    return 0;
}
