/*
 * cpu_train.c - the CPU trainer: forward, backward and Adam for an l5_net,
 * in C11. The device trainer (device_train.cu) takes the same steps in the
 * same order, so the two can be compared tensor for tensor.
 *
 * The network is run in two parts:
 *   - the per-sample part, its leading conv, ReLU, max-pool and flatten
 *     layers: each sample goes through them on its own, so the batch is
 *     shared among threads, and a sample's data stays in the core's cache
 *     from one layer to the next;
 *   - the per-batch part, the linear layers and their ReLUs: one OpenBLAS
 *     GEMM over the batch per layer.
 *
 * A convolution of one sample is computed directly, without an im2col
 * matrix. The sample's input is zero-padded to xp (C, hp, wp), rows wp =
 * w + pad floats apart (a row's right padding is the next row's left
 * padding), and every output row is computed at that width wp (the columns
 * from ow on are thrown away): then output pixel p = oy wp + ox reads
 * xp[off[r] + p] for r = (c, ki, kj), off[r] = c hp wp + ki wp + kj, so that
 * for each r the
 * inputs of a run of consecutive pixels are consecutive floats:
 *   forward:  y (OC, P) = bias + W (OC, K) . X,     X[r][p] = xp[off[r] + p]
 *   backward: dW += dy . X^T,  db += row sums of dy,
 *             dx = the forward loop again, over dy zero-padded by k - 1
 *                  and the flipped, transposed weights (conv_plan_weights).
 * The loops (cpu_conv.c: conv_tile, wgrad_rows) keep a block of sums in
 * vector registers and read X straight from xp; their comments say how.
 *
 * Same bits for any number of threads: the batch is cut into L5_CPU_SLICES
 * fixed slices of consecutive samples; a slice sums its samples' weight
 * gradients in sample order into its own buffer, and the slices are added
 * in slice order. Which thread works on which slice changes nothing, and
 * every loop sums in an order fixed by the code and the instruction set
 * (cpu_conv.h). OpenBLAS runs single-threaded inside the trainer (these
 * threads are the parallelism).
 */
#define _POSIX_C_SOURCE 200809L
#include "net.h"

#include "cpu_conv.h"

#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void l5_gemm_cpu(int ta, int tb, int M, int N, int K, float alpha, const float *A, const float *B,
                 float beta, float *C)
{
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, M, N,
                K, alpha, A, ta ? M : K, B, tb ? K : N, beta, C, N);
}

/* ---- convolutions of one sample ------------------------------------------- */

/* Every convolution here, forward or backward, is one of cpu_conv.c's loops
 * (conv_tile, wgrad_rows; see the file's comment) from the instruction set
 * l5_conv_ops_pick chose, c->conv, which also has ReLU and max-pooling. */
#define L5_ALIGN 64 /* every buffer's length is a multiple of this */

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/*
 * A conv layer's plan, made once (l5_cpu_create), and its weights in the
 * two orders the loops read them, remade from the parameters before each
 * pass (conv_plan_weights).
 *
 * Forward, x zero-padded to xp (C, hp = h + 2 pad, wp) at plane stride hp wp;
 * row iy starts at (iy + pad) wp + pad and the pad zeros after it are also
 * the next row's left padding (enough when wp >= w + pad; wp = ow when
 * pad > k - 1 makes the output row wider):
 *   y at the padded width: yw (OC, n_out), yw[o][oy wp + ox] for ox < ow;
 *   X[r][p] = xp[off[r] + p], off[(c, ki, kj)] = c hp wp + ki wp + kj;
 *   wt[r OC + o] = W[o][r].
 * Backward to the input: dy at the padded width dyw (zeros from ox = ow on,
 * the k - 1 columns that a row of the input needs in front of the next
 * row's), each plane placed in dz after `lead` = (k-1) wp + k - 1 zeros, at
 * plane stride dz_stride. Then for q = pad wp + p (the rows of the input),
 *   dxp[c][q] = sum over (o, a, b) of W[o][c][k-1-a][k-1-b] dz[o][q + a wp + b]
 * which is conv_tile with off_dx[(o, a, b)] = o dz_stride + a wp + b and the
 * flipped, transposed weights wt_dx[(o, a, b) C + c].
 */
typedef struct l5_conv_plan {
    int wp, hp, K, K_dx;
    size_t n_out, n_in;          /* oh wp and h wp rounded up to L5_CONV_N */
    size_t xp_floats, dz_stride; /* xp's length; one plane of dz */
    int *off, *off_dx;           /* K and K_dx = OC k k offsets */
    float *wt, *wt_dx;           /* (K, OC) and (K_dx, C) */
} l5_conv_plan;

static size_t conv_plan_make(l5_conv_plan *p, const l5_layer *l, int *failed)
{
    const int k = l->k;
    p->wp = l->w + l->pad > l->ow ? l->w + l->pad : l->ow;
    p->hp = l->h + 2 * l->pad;
    p->K = l->c * k * k;
    p->K_dx = l->oc * k * k;
    p->n_out = round_up((size_t)l->oh * p->wp, L5_CONV_N);
    p->n_in = round_up((size_t)l->h * p->wp, L5_CONV_N);
    size_t plane = (size_t)p->hp * p->wp, lead = (size_t)(k - 1) * p->wp + (k - 1);
    size_t reach = (size_t)(l->c - 1) * plane + lead + p->n_out; /* the last row of X's end */
    p->xp_floats = round_up(reach > l->c * plane ? reach : l->c * plane, L5_ALIGN);
    size_t q0 = (size_t)l->pad * p->wp, need = q0 + p->n_in + lead;
    size_t fill = lead + (size_t)l->oh * p->wp;
    p->dz_stride = round_up(need > fill ? need : fill, L5_ALIGN);
    p->off = malloc(sizeof(int) * (size_t)p->K);
    p->off_dx = malloc(sizeof(int) * (size_t)p->K_dx);
    p->wt = malloc(sizeof(float) * (size_t)p->K * l->oc);
    p->wt_dx = malloc(sizeof(float) * (size_t)p->K_dx * l->c);
    if (!p->off || !p->off_dx || !p->wt || !p->wt_dx) {
        *failed = 1;
        return 0;
    }
    for (int c = 0; c < l->c; c++)
        for (int a = 0; a < k; a++)
            for (int b = 0; b < k; b++)
                p->off[(c * k + a) * k + b] = (int)(c * plane + (size_t)a * p->wp + b);
    for (int o = 0; o < l->oc; o++)
        for (int a = 0; a < k; a++)
            for (int b = 0; b < k; b++)
                p->off_dx[(o * k + a) * k + b] = (int)(o * p->dz_stride + (size_t)a * p->wp + b);
    /* per-thread scratch: xp, yw (or dyw), dz, dxw */
    return p->xp_floats + (size_t)l->oc * p->n_out + (size_t)l->oc * p->dz_stride +
           (size_t)l->c * p->n_in;
}

static void conv_plan_free(l5_conv_plan *p)
{
    free(p->off);
    free(p->off_dx);
    free(p->wt);
    free(p->wt_dx);
}

/* wt and wt_dx from W (OC, C, k, k). */
static void conv_plan_weights(l5_conv_plan *p, const l5_layer *l, const float *W)
{
    const int k = l->k, kk = k * k;
    for (int o = 0; o < l->oc; o++)
        for (int r = 0; r < p->K; r++)
            p->wt[(size_t)r * l->oc + o] = W[(size_t)o * p->K + r];
    for (int o = 0; o < l->oc; o++)
        for (int c = 0; c < l->c; c++)
            for (int a = 0; a < k; a++)
                for (int b = 0; b < k; b++)
                    p->wt_dx[((size_t)o * kk + a * k + b) * l->c + c] =
                        W[((size_t)o * l->c + c) * kk + (k - 1 - a) * k + (k - 1 - b)];
}

/* xp from one sample's x (C, H, W): zeros around and after the planes. */
static void pad_input(const l5_cpu *cpu, float *xp, const float *x, const l5_layer *l,
                      const l5_conv_plan *p)
{
    memset(xp, 0, sizeof(float) * p->xp_floats);
    for (int c = 0; c < l->c; c++)
        cpu->conv->copy_rows(xp + ((size_t)c * p->hp + l->pad) * p->wp + l->pad, p->wp,
                             x + (size_t)c * l->h * l->w, l->w, l->h, l->w);
}

static void conv_forward(const l5_cpu *c, int li, const float *x, float *y, float *scratch)
{
    const l5_layer *l = &c->net->layer[li];
    const l5_conv_plan *p = &c->plan[li];
    const float *bias = c->params + c->net->tensor[l->bias].offset;
    float *xp = scratch, *yw = xp + p->xp_floats;
    pad_input(c, xp, x, l, p);
    c->conv->conv_tile(yw, p->n_out, l->oc, p->wt, xp, p->off, p->K, p->n_out, bias);
    for (int o = 0; o < l->oc; o++) /* y = the first ow columns of yw's rows */
        c->conv->copy_rows(y + (size_t)o * l->oh * l->ow, l->ow, yw + (size_t)o * p->n_out, p->wp,
                           l->oh, l->ow);
}

/* Adds the sample's dW and db to grads (a slice's buffer); dx may be NULL. */
static void conv_backward(const l5_cpu *c, int li, const float *x, const float *dy, float *dx,
                          float *grads, float *scratch)
{
    const l5_layer *l = &c->net->layer[li];
    const l5_conv_plan *p = &c->plan[li];
    const l5_tensor *tw = &c->net->tensor[l->weight], *tb = &c->net->tensor[l->bias];
    const int k = l->k;
    const size_t lead = (size_t)(k - 1) * p->wp + (k - 1);
    float *xp = scratch, *dyw = xp + p->xp_floats, *dz = dyw + (size_t)l->oc * p->n_out;
    float *dxw = dz + (size_t)l->oc * p->dz_stride;
    pad_input(c, xp, x, l, p);
    memset(dyw, 0, sizeof(float) * (size_t)l->oc * p->n_out);
    for (int o = 0; o < l->oc; o++) /* dyw: dy at the padded width, zeros after ow */
        c->conv->copy_rows(dyw + (size_t)o * p->n_out, p->wp, dy + (size_t)o * l->oh * l->ow, l->ow,
                           l->oh, l->ow);
    c->conv->row_sums(grads + tb->offset, l->oc, dyw, p->n_out);
    c->conv->wgrad_rows(grads + tw->offset, l->oc, p->K, dyw, p->n_out, xp, p->off, p->n_out);
    if (!dx)
        return;
    memset(dz, 0, sizeof(float) * (size_t)l->oc * p->dz_stride);
    for (int o = 0; o < l->oc; o++)
        memcpy(dz + (size_t)o * p->dz_stride + lead, dyw + (size_t)o * p->n_out,
               sizeof(float) * (size_t)l->oh * p->wp);
    c->conv->conv_tile(dxw, p->n_in, l->c, p->wt_dx, dz + (size_t)l->pad * p->wp, p->off_dx,
                       p->K_dx, p->n_in, NULL);
    for (int ch = 0; ch < l->c; ch++) /* dx: the inside of the padding */
        c->conv->copy_rows(dx + (size_t)ch * l->h * l->w, l->w, dxw + (size_t)ch * p->n_in + l->pad,
                           p->wp, l->h, l->w);
}

/* ---- the other layers of one sample --------------------------------------- */

static void maxpool_backward(float *dx, const float *dy, const int *argmax, const l5_layer *l)
{
    size_t n_out = l5_layer_out_size(l);
    memset(dx, 0, sizeof(float) * l5_layer_in_size(l));
    for (size_t o = 0; o < n_out; o++)
        dx[argmax[o]] = dy[o]; /* windows do not overlap: one output per input */
}

/* The per-sample layers' forward pass for sample b. */
static void sample_forward(const l5_cpu *c, int b, float *scratch)
{
    for (int i = 0; i < c->n_sample; i++) {
        const l5_layer *l = &c->net->layer[i];
        size_t in = l5_layer_in_size(l), out = l5_layer_out_size(l);
        const float *x = c->act[i] + b * in;
        float *y = c->act[i + 1] + b * out;
        switch (l->kind) {
        case L5_CONV:
            conv_forward(c, i, x, y, scratch + 2 * c->sample_floats);
            break;
        case L5_RELU:
            c->conv->relu_forward(y, x, out);
            break;
        case L5_MAXPOOL:
            c->conv->maxpool_forward(c->argmax[i] + b * out, y, x, l->c, l->h, l->w, l->oh, l->ow);
            break;
        case L5_FLATTEN:
            memcpy(y, x, sizeof(float) * out);
            break;
        case L5_LINEAR: /* not in the per-sample part */
            break;
        }
    }
}

/* The per-sample layers' backward pass for sample b, from its row of
 * dact[n_sample]; weight gradients are added to grads (a slice's buffer).
 * The layer gradients go back and forth between two scratch buffers. */
static void sample_backward(const l5_cpu *c, int b, float *grads, float *scratch)
{
    const l5_net *net = c->net;
    float *buf[2] = { scratch, scratch + c->sample_floats }, *conv = buf[1] + c->sample_floats;
    float *dy = c->dact[c->n_sample] + b * l5_layer_out_size(&net->layer[c->n_sample - 1]);
    for (int i = c->n_sample - 1; i >= 0; i--) {
        const l5_layer *l = &net->layer[i];
        size_t in = l5_layer_in_size(l), out = l5_layer_out_size(l);
        /* Into the batch's dact[i] when it is kept (l5_cpu_keep_layer_grads). */
        float *dx = i == 0         ? NULL
                    : c->dact[i]   ? c->dact[i] + b * in
                    : dy == buf[0] ? buf[1]
                                   : buf[0];
        switch (l->kind) {
        case L5_CONV:
            conv_backward(c, i, c->act[i] + b * in, dy, dx, grads, conv);
            break;
        case L5_RELU:
            if (dx)
                c->conv->relu_backward(dx, dy, c->act[i + 1] + b * out, out);
            break;
        case L5_MAXPOOL:
            if (dx)
                maxpool_backward(dx, dy, c->argmax[i] + b * out, l);
            break;
        case L5_FLATTEN:
        case L5_LINEAR:
            if (dx && c->dact[i])
                memcpy(dx, dy, sizeof(float) * out);
            else
                dx = dy; /* the same numbers */
            break;
        }
        dy = dx;
    }
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct l5_job {
    l5_cpu *c;
    int B, t, backward;
} l5_job;

static void *run_job(void *arg)
{
    const l5_job *j = arg;
    l5_cpu *c = j->c;
    float *scratch = c->scratch + (size_t)j->t * c->scratch_floats;
    if (!j->backward) { /* samples [B t / T, B (t+1) / T) */
        for (int b = j->B * j->t / c->threads; b < j->B * (j->t + 1) / c->threads; b++)
            sample_forward(c, b, scratch);
        return NULL;
    }
    /* slices [S t / T, S (t+1) / T); slice s: samples [B s / S, B (s+1) / S) */
    for (int s = L5_CPU_SLICES * j->t / c->threads; s < L5_CPU_SLICES * (j->t + 1) / c->threads;
         s++) {
        float *grads = c->slice_grads + (size_t)s * c->n_sample_params;
        memset(grads, 0, sizeof(float) * c->n_sample_params);
        for (int b = j->B * s / L5_CPU_SLICES; b < j->B * (s + 1) / L5_CPU_SLICES; b++)
            sample_backward(c, b, grads, scratch);
    }
    return NULL;
}

/* The per-sample part of the forward or backward pass on c->threads
 * threads, the calling thread one of them. */
static void run_parallel(l5_cpu *c, int B, int backward)
{
    l5_job job[L5_CPU_SLICES];
    pthread_t thread[L5_CPU_SLICES];
    int started[L5_CPU_SLICES] = { 0 };
    for (int t = 0; t < c->threads; t++) {
        job[t] = (l5_job){ c, B, t, backward };
        if (t > 0)
            started[t] = pthread_create(&thread[t], NULL, run_job, &job[t]) == 0;
    }
    run_job(&job[0]);
    for (int t = 1; t < c->threads; t++) {
        if (started[t])
            pthread_join(thread[t], NULL);
        else
            run_job(&job[t]); /* no thread: do its share here */
    }
}

/* OpenBLAS single-threaded while the trainer works; returns the count to restore. */
static int blas_serial(void)
{
    int n = openblas_get_num_threads();
    if (n != 1)
        openblas_set_num_threads(1);
    return n;
}

static void blas_restore(int n)
{
    if (n != 1)
        openblas_set_num_threads(n);
}

/* ---- layers of the batch ---------------------------------------------------- */

static void linear_forward(l5_cpu *c, const l5_layer *l, const float *x, float *y, int B)
{
    const float *W = c->params + c->net->tensor[l->weight].offset;
    const float *bias = c->params + c->net->tensor[l->bias].offset;
    /* y (B, OUT) = bias + x (B, IN) . W^T, W is (OUT, IN) */
    for (int b = 0; b < B; b++)
        memcpy(y + (size_t)b * l->oc, bias, sizeof(float) * (size_t)l->oc);
    l5_gemm_cpu(0, 1, B, l->oc, l->c, 1.0f, x, W, 1.0f, y);
}

static void linear_backward(l5_cpu *c, const l5_layer *l, const float *x, const float *dy,
                            float *dx, int B)
{
    const l5_tensor *tw = &c->net->tensor[l->weight], *tb = &c->net->tensor[l->bias];
    const float *W = c->params + tw->offset;
    float *db = c->grads + tb->offset;
    /* dW (OUT, IN) = dy^T . x;  db = column sums of dy;  dx (B, IN) = dy . W */
    l5_gemm_cpu(1, 0, l->oc, l->c, B, 1.0f, dy, x, 0.0f, c->grads + tw->offset);
    memset(db, 0, sizeof(float) * (size_t)l->oc);
    for (int b = 0; b < B; b++)
        for (int o = 0; o < l->oc; o++)
            db[o] += dy[(size_t)b * l->oc + o];
    if (dx)
        l5_gemm_cpu(0, 0, B, l->c, l->oc, 1.0f, dy, W, 0.0f, dx);
}

/* Per-sample loss log(sum exp(z - max)) - (z[y] - max) and the gradient of
 * the batch mean, (softmax(z) - onehot(y)) / B. */
static void softmax_xent(float *dlogits, float *losses, const float *logits, const int *y, int B,
                         int C)
{
    for (int b = 0; b < B; b++) {
        const float *z = logits + (size_t)b * C;
        float *dz = dlogits + (size_t)b * C;
        float mx = z[0], sum = 0.0f;
        for (int j = 1; j < C; j++)
            mx = fmaxf(mx, z[j]);
        for (int j = 0; j < C; j++)
            sum += expf(z[j] - mx);
        losses[b] = logf(sum) - (z[y[b]] - mx);
        for (int j = 0; j < C; j++)
            dz[j] = (expf(z[j] - mx) / sum - (j == y[b] ? 1.0f : 0.0f)) / (float)B;
    }
}

/* ---- the trainer ------------------------------------------------------------- */

void l5_cpu_destroy(l5_cpu *c)
{
    free(c->params);
    free(c->grads);
    free(c->m);
    free(c->v);
    for (int i = 0; i <= L5_MAX_LAYERS; i++) {
        free(c->act[i]);
        free(c->dact[i]);
        if (i < L5_MAX_LAYERS)
            free(c->argmax[i]);
    }
    if (c->plan)
        for (int i = 0; i < L5_MAX_LAYERS; i++)
            conv_plan_free(&c->plan[i]);
    free(c->plan);
    free(c->slice_grads);
    free(c->scratch);
    free(c->losses);
    memset(c, 0, sizeof(*c));
}

static void *alloc_floats(size_t n, int *failed)
{
    void *p = calloc(n ? n : 1, sizeof(float));
    if (!p)
        *failed = 1;
    return p;
}

/* GPULAB_LAB05_THREADS, or one per online CPU; 1 .. L5_CPU_SLICES. */
static int thread_count(void)
{
    const char *env = getenv("GPULAB_LAB05_THREADS");
    long n = env && *env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > L5_CPU_SLICES ? L5_CPU_SLICES : (int)n;
}

int l5_cpu_create(l5_cpu *c, const l5_net *net, int max_batch, const float *params,
                  unsigned long long seed, double lr, char *why, size_t why_len)
{
    int failed = 0;
    size_t B = (size_t)max_batch, max_sample = 0, max_conv = 0;
    memset(c, 0, sizeof(*c));
    c->net = net;
    c->max_batch = max_batch;
    c->threads = thread_count();
    c->conv = l5_conv_ops_pick(why, why_len);
    if (!c->conv)
        return -1;
    c->plan = calloc(L5_MAX_LAYERS, sizeof(l5_conv_plan));
    if (!c->plan)
        failed = 1;
    while (!failed && c->n_sample < net->n_layers && net->layer[c->n_sample].kind != L5_LINEAR) {
        const l5_layer *l = &net->layer[c->n_sample];
        if (l->weight >= 0)
            c->n_sample_params = net->tensor[l->bias].offset + net->tensor[l->bias].count;
        if (l5_layer_in_size(l) > max_sample)
            max_sample = l5_layer_in_size(l);
        if (l->kind == L5_CONV) {
            size_t need = conv_plan_make(&c->plan[c->n_sample], l, &failed);
            max_conv = need > max_conv ? need : max_conv;
        }
        c->n_sample++;
    }
    c->params = alloc_floats(net->n_params, &failed);
    c->grads = alloc_floats(net->n_params, &failed);
    c->m = alloc_floats(net->n_params, &failed);
    c->v = alloc_floats(net->n_params, &failed);
    c->act[0] = alloc_floats(B * l5_layer_in_size(&net->layer[0]), &failed);
    for (int i = 0; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        c->act[i + 1] = alloc_floats(B * l5_layer_out_size(l), &failed);
        if (i + 1 >= c->n_sample)
            c->dact[i + 1] = alloc_floats(B * l5_layer_out_size(l), &failed);
        if (l->kind == L5_MAXPOOL)
            c->argmax[i] = alloc_floats(B * l5_layer_out_size(l), &failed);
    }
    c->sample_floats = round_up(max_sample, L5_ALIGN);
    c->scratch_floats = 2 * c->sample_floats + max_conv;
    /* 64-byte lines: each thread's buffers start on a line of their own */
    c->scratch = aligned_alloc(64, sizeof(float) * (size_t)c->threads * c->scratch_floats);
    if (c->scratch)
        memset(c->scratch, 0, sizeof(float) * (size_t)c->threads * c->scratch_floats);
    else
        failed = 1;
    c->slice_grads = alloc_floats(L5_CPU_SLICES * c->n_sample_params, &failed);
    c->losses = alloc_floats(B, &failed);
    if (failed) {
        snprintf(why, why_len, "out of memory for the CPU trainer (batch %d)", max_batch);
        l5_cpu_destroy(c);
        return -1;
    }
    if (params)
        memcpy(c->params, params, sizeof(float) * net->n_params);
    else
        l5_net_init(net, c->params, seed);
    l5_adam_init(&c->adam, lr);
    return 0;
}

/* The conv layers' weights in the orders their loops read (before a pass). */
static void plan_weights(l5_cpu *c)
{
    for (int i = 0; i < c->n_sample; i++) {
        const l5_layer *l = &c->net->layer[i];
        if (l->kind == L5_CONV)
            conv_plan_weights(&c->plan[i], l, c->params + c->net->tensor[l->weight].offset);
    }
}

/* The forward pass up to the logits, c->act[n_layers]. */
static void forward_logits(l5_cpu *c, const float *x, int B)
{
    const l5_net *net = c->net;
    int blas_threads = blas_serial();
    memcpy(c->act[0], x, sizeof(float) * (size_t)B * l5_layer_in_size(&net->layer[0]));
    plan_weights(c);
    if (c->n_sample > 0)
        run_parallel(c, B, 0);
    for (int i = c->n_sample; i < net->n_layers; i++) {
        const l5_layer *l = &net->layer[i];
        if (l->kind == L5_LINEAR)
            linear_forward(c, l, c->act[i], c->act[i + 1], B);
        else
            c->conv->relu_forward(c->act[i + 1], c->act[i], (size_t)B * l5_layer_out_size(l));
    }
    blas_restore(blas_threads);
}

float l5_cpu_forward(l5_cpu *c, const float *x, const int *y, int B, int *correct)
{
    const l5_net *net = c->net;
    forward_logits(c, x, B);
    softmax_xent(c->dact[net->n_layers], c->losses, c->act[net->n_layers], y, B, net->n_classes);
    if (correct)
        *correct = l5_count_correct(c->act[net->n_layers], y, B, net->n_classes);
    return l5_mean_loss(c->losses, B);
}

void l5_cpu_backward(l5_cpu *c, int B)
{
    const l5_net *net = c->net;
    int blas_threads = blas_serial();
    for (int i = net->n_layers - 1; i >= c->n_sample; i--) {
        const l5_layer *l = &net->layer[i];
        float *dx = i > 0 ? c->dact[i] : NULL; /* no gradient for the input */
        if (l->kind == L5_LINEAR)
            linear_backward(c, l, c->act[i], c->dact[i + 1], dx, B);
        else if (dx)
            c->conv->relu_backward(dx, c->dact[i + 1], c->act[i + 1],
                                   (size_t)B * l5_layer_out_size(l));
    }
    if (c->n_sample > 0) {
        run_parallel(c, B, 1);
        /* grads = slice 0 + slice 1 + ..., in that order */
        memcpy(c->grads, c->slice_grads, sizeof(float) * c->n_sample_params);
        for (int s = 1; s < L5_CPU_SLICES; s++)
            for (size_t j = 0; j < c->n_sample_params; j++)
                c->grads[j] += c->slice_grads[s * c->n_sample_params + j];
    }
    blas_restore(blas_threads);
}

int l5_cpu_keep_layer_grads(l5_cpu *c)
{
    int failed = 0;
    for (int i = 1; i < c->n_sample; i++)
        if (!c->dact[i])
            c->dact[i] =
                alloc_floats((size_t)c->max_batch * l5_layer_in_size(&c->net->layer[i]), &failed);
    return failed ? -1 : 0;
}

void l5_cpu_adam(l5_cpu *c)
{
    l5_adam_scalars s = l5_adam_next(&c->adam);
    l5_adam_update_cpu(c->params, c->grads, c->m, c->v, c->net->n_params, &s);
}

float l5_cpu_step(l5_cpu *c, const float *x, const int *y, int B, int *correct)
{
    float loss = l5_cpu_forward(c, x, y, B, correct);
    l5_cpu_backward(c, B);
    l5_cpu_adam(c);
    return loss;
}

int l5_cpu_evaluate(l5_cpu *c, const float *x, const int *y, int n)
{
    const l5_net *net = c->net;
    size_t in = l5_layer_in_size(&net->layer[0]);
    int correct = 0;
    for (int at = 0; at < n; at += c->max_batch) {
        int B = n - at < c->max_batch ? n - at : c->max_batch;
        forward_logits(c, x + (size_t)at * in, B);
        correct += l5_count_correct(c->act[net->n_layers], y + at, B, net->n_classes);
    }
    return correct;
}
