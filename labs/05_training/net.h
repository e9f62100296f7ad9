/*
 * net.h - lab 05's networks and their CPU trainer (C11 + OpenBLAS).
 *
 * A network is a list of layers over one flat vector of parameters: every
 * weight and bias tensor is a slice of it (l5_tensor.offset), so gradients,
 * Adam's two moments and the device copies are flat vectors of the same
 * length, and one Adam launch updates the whole model.
 *
 * Two networks are defined:
 *   - a small CIFAR-10 CNN (l5_net_cnn):
 *       Conv2d(3,6,5) ReLU MaxPool(2) . Conv2d(6,16,5,pad 3) ReLU .
 *       Conv2d(16,16,5) ReLU MaxPool(2) . Conv2d(16,16,3) ReLU MaxPool(2) .
 *       Flatten . Linear(64,120) ReLU . Linear(120,84) ReLU . Linear(84,10)
 *   - the iris MLP (l5_net_mlp): Linear(4,8) ReLU Linear(8,9) ReLU Linear(9,3).
 *
 * Layouts: activations are NCHW row-major (sample, channel, row, column);
 * conv weights (out, in, k, k), linear weights (out, in), as PyTorch stores
 * them, so a state_dict saved with numpy loads here tensor for tensor.
 *
 * The CPU trainer (l5_cpu) runs a training step as PyTorch's
 * `loss = CrossEntropyLoss()(model(x), y); loss.backward(); opt.step()` with
 * Adam: convolutions computed directly, one sample at a time on several
 * threads, the linear layers' GEMMs through OpenBLAS (l5_gemm_cpu);
 * cpu_train.c explains how, and why the result does not depend on the
 * number of threads.
 */
#ifndef L5_NET_H
#define L5_NET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define L5_MAX_LAYERS 20
#define L5_MAX_TENSORS 16

typedef enum l5_kind { L5_CONV, L5_RELU, L5_MAXPOOL, L5_FLATTEN, L5_LINEAR } l5_kind;

/* One layer; shapes are per sample. A linear layer's input is (c, 1, 1). */
typedef struct l5_layer {
    l5_kind kind;
    int c, h, w;      /* input: channels, height, width */
    int oc, oh, ow;   /* output */
    int k, pad;       /* conv: square kernel side and zero padding (stride 1) */
    int weight, bias; /* conv, linear: indices into l5_net.tensor; -1 otherwise */
} l5_layer;

/* One parameter tensor, a slice of the flat parameter vector. */
typedef struct l5_tensor {
    char name[32]; /* PyTorch's state_dict name, e.g. "conv.0.weight" */
    int ndim;
    int shape[4];
    size_t offset, count; /* in floats */
    int fan_in;           /* in_channels * k * k, or in_features */
} l5_tensor;

typedef struct l5_net {
    char name[16];
    int n_layers;
    l5_layer layer[L5_MAX_LAYERS];
    int n_tensors;
    l5_tensor tensor[L5_MAX_TENSORS];
    size_t n_params;      /* length of the flat parameter vector */
    int in_c, in_h, in_w; /* one input sample */
    int n_classes;        /* the last layer's outputs */
    size_t max_cols;      /* largest im2col matrix of one sample: c*k*k*oh*ow floats */
} l5_net;

void l5_net_cnn(l5_net *net);
void l5_net_mlp(l5_net *net);
/* Floats in one sample's input / output of a layer. */
size_t l5_layer_in_size(const l5_layer *l);
size_t l5_layer_out_size(const l5_layer *l);
/* Index of the tensor called name, or -1. */
int l5_net_find(const l5_net *net, const char *name);

/*
 * PyTorch's default initialization of Conv2d and Linear (kaiming_uniform_
 * with a = sqrt(5)): weights and biases uniform in [-1/sqrt(fan_in),
 * 1/sqrt(fan_in)). Tensor i draws from lab_rng stream i of seed, so the
 * values are the same on every machine (and in Python: tests/make_fixtures.py).
 */
void l5_net_init(const l5_net *net, float *params, unsigned long long seed);

/* ---- Adam, as torch.optim.Adam computes it ------------------------------- */

typedef struct l5_adam {
    double lr, beta1, beta2, eps; /* defaults 1e-3, 0.9, 0.999, 1e-8 */
    long long t;                  /* steps taken so far */
} l5_adam;

/* What one step needs, computed on the host in double and rounded to float,
 * as PyTorch computes its Python-float scalars before the tensor arithmetic:
 *   m = beta1 m + (1 - beta1) g
 *   v = beta2 v + (1 - beta2) g g
 *   p = p - step_size m / (sqrt(v) / bc2_sqrt + eps)
 * with step_size = lr / (1 - beta1^t), bc2_sqrt = sqrt(1 - beta2^t): eps is
 * added after dividing by the bias correction. */
typedef struct l5_adam_scalars {
    float beta1, one_minus_beta1, beta2, one_minus_beta2, step_size, bc2_sqrt, eps;
} l5_adam_scalars;

void l5_adam_init(l5_adam *a, double lr);
/* Advances a->t and returns the scalars of that step. */
l5_adam_scalars l5_adam_next(l5_adam *a);
void l5_adam_update_cpu(float *p, const float *g, float *m, float *v, size_t n,
                        const l5_adam_scalars *s);

/* ---- GEMM ---------------------------------------------------------------- */

/* C (M, N) = alpha op(A) op(B) + beta C, every matrix row-major and packed
 * (op(A) is (M, K): A is (M, K), or (K, M) when ta). OpenBLAS cblas_sgemm. */
void l5_gemm_cpu(int ta, int tb, int M, int N, int K, float alpha, const float *A, const float *B,
                 float beta, float *C);

/* ---- how close the device must come to the CPU --------------------------- */

/* One training step on the device against the CPU trainer, for the same
 * parameters and batch (demo and grader use these):
 *   loss:       |d - c| <= 1e-5 + 1e-4 |c|
 *   gradients:  |d - c| <= 1e-5 + 1e-3 |c|   (sums over thousands of terms
 *                                             in another order)
 *   parameters after Adam: |d - c| <= 1e-5 + 1e-4 |c|   (1e-5 is 1% of one
 *                                             step of Adam with lr 1e-3) */
#define L5_TOL_LOSS_ATOL 1e-5
#define L5_TOL_LOSS_RTOL 1e-4
#define L5_TOL_GRAD_ATOL 1e-5
#define L5_TOL_GRAD_RTOL 1e-3
#define L5_TOL_PARAM_ATOL 1e-5
#define L5_TOL_PARAM_RTOL 1e-4

/* ---- the CPU trainer ------------------------------------------------------ */

/* The batch's weight gradients of the per-sample layers are summed from this
 * many fixed slices of samples, in slice order; also the most threads. */
#define L5_CPU_SLICES 16

typedef struct l5_cpu {
    const l5_net *net;
    int max_batch;
    int threads;  /* worker threads: GPULAB_LAB05_THREADS, or one per online CPU */
    int n_sample; /* layers [0, n_sample) (conv, ReLU, max-pool, flatten) run per sample */
    size_t n_sample_params; /* their parameters: the first n_sample_params of the flat vector */
    float *params, *grads, *m, *v;  /* n_params each */
    float *act[L5_MAX_LAYERS + 1];  /* act[i]: input of layer i, act[n_layers]: logits */
    float *dact[L5_MAX_LAYERS + 1]; /* gradients of act, for i >= n_sample only (all i >= 1
                                       after l5_cpu_keep_layer_grads) */
    int *argmax[L5_MAX_LAYERS]; /* maxpool: index of each output's maximum in its sample's input */
    float *slice_grads;         /* L5_CPU_SLICES x n_sample_params */
    struct l5_conv_plan *plan;  /* per layer: how cpu_train.c runs a conv layer */
    const struct l5_conv_ops *conv; /* the vector loops for this CPU (cpu_conv.h) */
    float *scratch;                 /* per thread: two layer gradients, then a conv's work space */
    size_t sample_floats;           /* one of those gradients: the largest per-sample layer input */
    size_t scratch_floats;          /* per thread */
    float *losses;                  /* per sample */
    l5_adam adam;
} l5_cpu;

/* Allocates the trainer for batches of up to max_batch and copies params (or
 * initializes them from seed when params is NULL). Adam with learning rate
 * lr and PyTorch's other defaults. Returns 0, or -1 with why. */
int l5_cpu_create(l5_cpu *c, const l5_net *net, int max_batch, const float *params,
                  unsigned long long seed, double lr, char *why, size_t why_len);
void l5_cpu_destroy(l5_cpu *c); /* accepts a zeroed struct */

/* Forward pass and loss: returns the batch's mean cross-entropy; writes the
 * per-sample losses to c->losses, the gradient of the mean loss with respect
 * to the logits to c->dact[n_layers], and the number of samples whose
 * largest logit is the label to *correct (may be NULL). x is (B, in_c, in_h,
 * in_w), y holds B labels in [0, n_classes). */
float l5_cpu_forward(l5_cpu *c, const float *x, const int *y, int B, int *correct);
/* Backward pass after l5_cpu_forward: c->grads (overwritten, as after
 * zero_grad). */
void l5_cpu_backward(l5_cpu *c, int B);
/* Keeps the gradient at every layer's input in c->dact[i], i >= 1, from the
 * next l5_cpu_backward on (the per-sample layers' otherwise live in scratch
 * only): for comparing a step layer by layer (diagnose.h). Returns 0, or -1
 * when memory runs out. */
int l5_cpu_keep_layer_grads(l5_cpu *c);
/* One Adam step over all parameters with c->grads. */
void l5_cpu_adam(l5_cpu *c);
/* forward + backward + adam; returns the loss. */
float l5_cpu_step(l5_cpu *c, const float *x, const int *y, int B, int *correct);
/* Number of correct predictions over n samples, in batches of max_batch. */
int l5_cpu_evaluate(l5_cpu *c, const float *x, const int *y, int n);

/* The mean of B per-sample losses, summed in double in index order (CPU and
 * device losses are reduced by this same function). */
float l5_mean_loss(const float *losses, int B);
/* Samples of a (B, C) logits matrix whose largest entry (first on ties) is the label. */
int l5_count_correct(const float *logits, const int *y, int B, int C);

/* ---- parameters as .npy files ------------------------------------------- */

/* Writes DIR/<tensor name>.npy for every tensor (creating DIR). */
int l5_params_save(const l5_net *net, const float *params, const char *dir, char *why,
                   size_t why_len);
/* Reads them back; every file must exist with the tensor's exact shape. */
int l5_params_load(const l5_net *net, float *params, const char *dir, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
