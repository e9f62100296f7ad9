/*
 * device_train.h - the device trainer (device_train.cu), as the C harness
 * sees it. It takes the CPU trainer's steps (cpu_train.c) in the same order:
 * convolutions as im2col + one cuBLAS GEMM over the batch, linear layers as
 * cuBLAS GEMMs, the rest in your kernels (student.h).
 *
 * The model lives on the device from l5_gpu_create to l5_gpu_destroy; a step
 * copies one batch in and B losses and B x n_classes logits out. CUDA errors
 * end the program with LAB_CHECK's message.
 */
#ifndef L5_DEVICE_TRAIN_H
#define L5_DEVICE_TRAIN_H

#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct l5_gpu l5_gpu;

/* Where one step's time went, measured with CUDA events on the default
 * stream (on the sim backend the events measure CPU time). */
typedef struct l5_step_times {
    double h2d_ms;     /* the batch to the device */
    double compute_ms; /* forward, backward and Adam */
    double d2h_ms;     /* losses and logits back */
} l5_step_times;

/* The model to the device (model_to_device) and the workspace for batches of
 * up to max_batch; Adam with learning rate lr. Exits with a message if the
 * student's model_to_device left the model unallocated. */
l5_gpu *l5_gpu_create(const l5_net *net, int max_batch, const float *h_params, double lr);
void l5_gpu_destroy(l5_gpu *g); /* accepts NULL */

/* A training step: batch in, forward, backward, Adam, losses and logits out.
 * Returns the batch's mean loss; *correct (may be NULL) the samples whose
 * largest logit is the label; *times (may be NULL) the split of its time. */
float l5_gpu_step(l5_gpu *g, const float *h_x, const int *h_y, int B, int *correct,
                  l5_step_times *times);
/* The step's parts, for checking them one at a time: batch in, forward,
 * backward, losses back (returns the mean loss) ... */
float l5_gpu_forward_backward(l5_gpu *g, const float *h_x, const int *h_y, int B, int *correct);
/* ... and Adam's update with the gradients on the device. */
void l5_gpu_adam(l5_gpu *g);
/* After l5_gpu_forward_backward for B samples: every layer's input
 * (h_act[i], i = 0 .. n_layers, the last the logits) and the gradient of the
 * loss with respect to it (h_dact[i], i = 1 .. n_layers) back to the host,
 * for comparing the step layer by layer (diagnose.h). Each buffer holds B
 * times that layer's size; NULL entries are skipped. */
void l5_gpu_get_layers(l5_gpu *g, int B, float *const *h_act, float *const *h_dact);
/* Parameters and (h_grads not NULL) gradients back to the host (model_to_host). */
void l5_gpu_get(l5_gpu *g, float *h_params, float *h_grads);
/* Correct predictions over n samples, forward passes in batches of max_batch. */
int l5_gpu_evaluate(l5_gpu *g, const float *h_x, const int *h_y, int n);

#ifdef __cplusplus
}
#endif

#endif
