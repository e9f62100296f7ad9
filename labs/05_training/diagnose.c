/*
 * diagnose.c - where a wrong training step starts: see diagnose.h.
 */
#include "diagnose.h"

#include <stdio.h>
#include <string.h>

/* The layer with parameters at or before i, or -1. */
static int param_layer_before(const l5_net *net, int i)
{
    for (; i >= 0; i--)
        if (net->layer[i].weight >= 0)
            return i;
    return -1;
}

/* "conv.3" from the tensor "conv.3.weight". */
static void prefix_of(const l5_net *net, int layer, char *buf, size_t len)
{
    const char *name = net->tensor[net->layer[layer].weight].name;
    const char *dot = strrchr(name, '.');
    int n = dot ? (int)(dot - name) : (int)strlen(name);
    snprintf(buf, len, "%.*s", n, name);
}

void l5_layer_name(const l5_net *net, int i, char *buf, size_t len)
{
    const l5_layer *l = &net->layer[i];
    char before[32] = "the input";
    if (l->weight >= 0) {
        prefix_of(net, i, buf, len);
        return;
    }
    int p = param_layer_before(net, i - 1);
    if (p >= 0)
        prefix_of(net, p, before, sizeof(before));
    switch (l->kind) {
    case L5_RELU:
        snprintf(buf, len, "the ReLU after %s", before);
        break;
    case L5_MAXPOOL:
        snprintf(buf, len, "the MaxPool after %s", before);
        break;
    default:
        snprintf(buf, len, "Flatten");
        break;
    }
}

const char *l5_layer_forward_code(const l5_layer *l)
{
    switch (l->kind) {
    case L5_CONV:
        return "im2col_kernel and a cuBLAS strided batched GEMM (device_train.cu), then "
               "bias_add_kernel in kernels.cu, with the weights model_to_device (to_device.cu) "
               "put on the device";
    case L5_LINEAR:
        return "a cuBLAS GEMM (device_train.cu), then bias_add_kernel in kernels.cu, with the "
               "weights model_to_device (to_device.cu) put on the device";
    case L5_RELU:
        return "relu_forward_kernel in kernels.cu";
    case L5_MAXPOOL:
        return "maxpool_forward_kernel in kernels.cu";
    case L5_FLATTEN:
        break;
    }
    return "a device-to-device copy in forward (device_train.cu)";
}

const char *l5_layer_backward_code(const l5_layer *l)
{
    switch (l->kind) {
    case L5_CONV:
        return "a cuBLAS GEMM and col2im_kernel in conv_backward (device_train.cu)";
    case L5_LINEAR:
        return "a cuBLAS GEMM in linear_backward (device_train.cu)";
    case L5_RELU:
        return "relu_backward_kernel in kernels.cu";
    case L5_MAXPOOL:
        return "maxpool_backward_kernel in kernels.cu, which sends each gradient to the argmax "
               "maxpool_forward_kernel recorded";
    case L5_FLATTEN:
        break;
    }
    return "a device-to-device copy in backward (device_train.cu)";
}

/* Floats in act[i] (and dact[i]) for B samples. */
static size_t act_size(const l5_net *net, int i, int B)
{
    size_t per = i < net->n_layers ? l5_layer_in_size(&net->layer[i])
                                   : l5_layer_out_size(&net->layer[net->n_layers - 1]);
    return per * (size_t)B;
}

static int differs(const float *got, const float *want, size_t n, lab_compare_report *rep)
{
    return !lab_allclose_f32(rep, got, want, n, L5_TOL_GRAD_ATOL, L5_TOL_GRAD_RTOL, 0);
}

int l5_diagnose_layers(const l5_net *net, const l5_step_layers *dev, const l5_step_layers *cpu,
                       char *why, size_t len, lab_compare_report *rep, char *what, size_t what_len)
{
    const int L = net->n_layers, B = dev->B;
    lab_compare_report local;
    char name[48];
    if (!rep)
        rep = &local;
    why[0] = '\0';
    if (what && what_len)
        what[0] = '\0';
    /* Forwards: the batch, then each layer's output. */
    for (int i = 0; i <= L; i++) {
        if (!differs(dev->act[i], cpu->act[i], act_size(net, i, B), rep))
            continue;
        if (i == 0) {
            snprintf(why, len,
                     "the batch on the device differs from the CPU's input before any layer ran: "
                     "batch_to_device in to_device.cu copies it");
            if (what)
                snprintf(what, what_len, "the batch on the device");
            return 1;
        }
        l5_layer_name(net, i - 1, name, sizeof(name));
        snprintf(why, len,
                 "the forward pass differs first at the output of %s (layer %d of %d; every "
                 "layer before it matches): it is computed by %s",
                 name, i, L, l5_layer_forward_code(&net->layer[i - 1]));
        if (what)
            snprintf(what, what_len, "output of %s", name);
        return 1;
    }
    /* Backwards: the gradient at the logits, then at each layer's input. */
    if (differs(dev->dact[L], cpu->dact[L], act_size(net, L, B), rep)) {
        snprintf(why, len,
                 "the forward pass and the loss match, but the gradient at the logits differs: "
                 "softmax_xent_kernel in kernels.cu computes it, (softmax - onehot) / B");
        if (what)
            snprintf(what, what_len, "gradient at the logits");
        return 1;
    }
    for (int i = L - 1; i >= 1; i--) {
        if (!differs(dev->dact[i], cpu->dact[i], act_size(net, i, B), rep))
            continue;
        l5_layer_name(net, i, name, sizeof(name));
        snprintf(why, len,
                 "from the loss backwards, the first gradient that differs is at the input of %s "
                 "(layer %d of %d; the gradient at its output matches): it is computed by %s",
                 name, i + 1, L, l5_layer_backward_code(&net->layer[i]));
        if (what)
            snprintf(what, what_len, "gradient at the input of %s", name);
        return 1;
    }
    return 0;
}

/* Appends "the ReLU after fc.2 (relu_backward_kernel in kernels.cu)" for
 * each layer in (from, to), from the loss backwards. */
static size_t list_between(const l5_net *net, int from, int to, char *buf, size_t len)
{
    size_t n = 0;
    char name[48];
    for (int i = to - 1; i > from && n < len; i--) {
        l5_layer_name(net, i, name, sizeof(name));
        n += (size_t)snprintf(buf + n, len - n, "%s%s (%s)", n ? ", then " : "", name,
                              l5_layer_backward_code(&net->layer[i]));
    }
    return n;
}

int l5_diagnose_grads(const l5_net *net, int loss_ok, const int *grad_ok, char *why, size_t len)
{
    char name[48], next[48], path[600];
    why[0] = '\0';
    if (!loss_ok) {
        snprintf(why, len,
                 "the loss already differs, so the forward pass is wrong before any gradient: "
                 "relu_forward_kernel, maxpool_forward_kernel, bias_add_kernel or the loss in "
                 "softmax_xent_kernel (kernels.cu), or the model or batch on the device "
                 "(to_device.cu); the demo compares every layer and names the first that differs");
        return 1;
    }
    /* From the loss backwards: the first layer whose parameters' gradients differ. */
    int after = -1; /* the layer with parameters after it, whose gradients are right */
    for (int i = net->n_layers - 1; i >= 0; i--) {
        const l5_layer *l = &net->layer[i];
        if (l->weight < 0)
            continue;
        int w_ok = grad_ok[l->weight], b_ok = grad_ok[l->bias];
        if (w_ok && b_ok) {
            after = i;
            continue;
        }
        l5_layer_name(net, i, name, sizeof(name));
        if (w_ok != b_ok && b_ok) {
            snprintf(why, len,
                     "from the loss backwards, the first gradient that differs is %s.weight's, "
                     "while %s.bias's is right: the gradient reaching %s is right, so its input "
                     "from the forward pass is not (%s)",
                     name, name, name,
                     i > 0 ? l5_layer_forward_code(&net->layer[i - 1])
                           : "the batch: batch_to_device in to_device.cu");
            return 1;
        }
        if (after < 0) {
            snprintf(why, len,
                     "from the loss backwards, the first gradients that differ are %s's, the last "
                     "layer: the gradient at its output is the loss's gradient at the logits, "
                     "computed by softmax_xent_kernel in kernels.cu ((softmax - onehot) / B)",
                     name);
            return 1;
        }
        l5_layer_name(net, after, next, sizeof(next));
        if (!list_between(net, i, after, path, sizeof(path)))
            snprintf(path, sizeof(path), "nothing but %s",
                     l5_layer_backward_code(&net->layer[after]));
        snprintf(why, len,
                 "from the loss backwards, the first gradients that differ are %s's, while %s's "
                 "(the next layer with parameters) are right: on its way from %s back to %s the "
                 "gradient passes through %s",
                 name, next, next, name, path);
        return 1;
    }
    return 0;
}
