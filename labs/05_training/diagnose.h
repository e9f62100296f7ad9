/*
 * diagnose.h - lab 05: where a wrong training step starts (part of lab05_core,
 * so that the demo and the grader say the same thing).
 *
 * A bug in one kernel of the backward pass makes every gradient before it
 * wrong, down to conv.0, the first row of the demo's table: the place to
 * look is the first difference from the loss backwards, not the first row.
 *
 *   - The demo has every layer of one step, on the device and on the CPU:
 *     l5_diagnose_layers compares the forward pass from the input on, then
 *     the gradients from the loss backwards, and names the first layer whose
 *     output (forward) or input gradient (backward) differs, with the kernel
 *     that computes it.
 *   - The grader has only what a graded run writes, the loss and the
 *     parameters' gradients: l5_diagnose_grads names the first layer with
 *     parameters, from the loss backwards, whose gradients differ, and the
 *     kernels the gradient passed through on its way there from the layer
 *     after it, whose gradients are right.
 */
#ifndef L5_DIAGNOSE_H
#define L5_DIAGNOSE_H

#include "net.h"

#include "lab/compare.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Layer i as the messages name it: "conv.3" or "fc.0" for a layer with
 * parameters (its tensors' prefix), "the ReLU after fc.2", "the MaxPool
 * after conv.0", "Flatten". */
void l5_layer_name(const l5_net *net, int i, char *buf, size_t len);

/* The code that computes a layer's output on the device (forward), and the
 * gradient at its input (backward), e.g. "relu_backward_kernel in kernels.cu". */
const char *l5_layer_forward_code(const l5_layer *l);
const char *l5_layer_backward_code(const l5_layer *l);

/* One training step's layers for B samples: act[i] is the input of layer i
 * (act[n_layers] the logits), dact[i] the gradient of the batch's mean loss
 * with respect to act[i], for i = 1 .. n_layers (dact[0] is not used). */
typedef struct l5_step_layers {
    int B;
    float *act[L5_MAX_LAYERS + 1];
    float *dact[L5_MAX_LAYERS + 1];
} l5_step_layers;

/* Compares the device's step with the CPU's (tolerances: the gradients'
 * of net.h), forwards from the input, then backwards from the loss, and
 * writes where the first difference is and which code computes it. Returns
 * 1 with that sentence in why and the comparison of that tensor in *rep (may
 * be NULL), or 0 (why "") when every layer matches. */
int l5_diagnose_layers(const l5_net *net, const l5_step_layers *dev, const l5_step_layers *cpu,
                       char *why, size_t len, lab_compare_report *rep, char *what, size_t what_len);

/* From the loss and the parameters' gradients alone: loss_ok, and
 * grad_ok[t] for each tensor t of net. Writes the first layer from the loss
 * backwards whose gradients differ and where its gradient came through;
 * returns 1, or 0 (why "") when the loss and every gradient are right. */
int l5_diagnose_grads(const l5_net *net, int loss_ok, const int *grad_ok, char *why, size_t len);

#ifdef __cplusplus
}
#endif

#endif
