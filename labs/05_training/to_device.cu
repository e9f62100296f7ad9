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
#include "lab/todo.h"

#include <stdio.h>

void model_to_device(l5_dev_model *d, const float *h_params, size_t n)
{
    d->n = n;
    // TODO 1: give the model its four device vectors: d->params with the n
    // parameters of h_params, and d->grads, d->m and d->v all zero. Hint:
    // cudaMalloc, cudaMemcpy and cudaMemset, each in LAB_CHECK(...). About 8
    // lines.
    LAB_TODO_UNUSED(h_params);
    d->params = d->grads = d->m = d->v = NULL;
}

void model_to_host(float *h_params, float *h_grads, const l5_dev_model *d)
{
    // TODO 2: copy the d->n parameters back into h_params and, when h_grads is
    // not NULL, the gradients into h_grads. About 3 lines.
    LAB_TODO_UNUSED(h_params, h_grads, d);
}

void model_free(l5_dev_model *d)
{
    // TODO 3: free the four device vectors. About 4 lines.
    d->params = d->grads = d->m = d->v = NULL;
}

void batch_to_device(float *d_x, int *d_y, const float *h_x, const int *h_y, size_t x_floats, int B)
{
    // TODO 4: copy the batch in: x_floats floats from h_x to d_x, and the B
    // labels from h_y to d_y. About 2 lines.
    LAB_TODO_UNUSED(d_x, d_y, h_x, h_y, x_floats, B);
}
