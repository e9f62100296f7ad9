/*
 * to_device.cu - lab 05, part 1: moving the model and each batch to the device.
 *
 * The model goes over once, at the start: parameters, gradients and Adam's
 * two moments are allocated on the device and stay there for the whole run,
 * so that a training step never copies a weight. What crosses the bus every
 * step is the batch (images and labels) going in, and the per-sample losses
 * and logits coming back (the harness copies those).
 */
#include "student.h"

#include "lab/check.h"

#include <stdio.h>

void model_to_device(l5_dev_model *d, const float *h_params, size_t n)
{
    d->n = n;
    // TODO: allocate d->params, d->grads, d->m and d->v (cudaMalloc,
    // sizeof(float) * n bytes each), copy h_params into d->params
    // (cudaMemcpy, host to device), and set d->grads, d->m and d->v to zero
    // (cudaMemset). Wrap each call in LAB_CHECK(...).
    (void)h_params;
    d->params = d->grads = d->m = d->v = NULL;
}

void model_to_host(float *h_params, float *h_grads, const l5_dev_model *d)
{
    // TODO: copy d->n floats from d->params into h_params and, when h_grads
    // is not NULL, from d->grads into h_grads (cudaMemcpy, device to host).
    (void)h_params;
    (void)h_grads;
    (void)d;
}

void model_free(l5_dev_model *d)
{
    // TODO: cudaFree the four vectors.
    d->params = d->grads = d->m = d->v = NULL;
}

void batch_to_device(float *d_x, int *d_y, const float *h_x, const int *h_y, size_t x_floats, int B)
{
    // TODO: copy the batch: x_floats floats from h_x to d_x and B ints from
    // h_y to d_y (cudaMemcpy, host to device).
    (void)d_x;
    (void)d_y;
    (void)h_x;
    (void)h_y;
    (void)x_floats;
    (void)B;
}
