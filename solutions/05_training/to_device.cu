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
    // >>> SOLUTION
    size_t bytes = sizeof(float) * n;
    LAB_CHECK(cudaMalloc(&d->params, bytes));
    LAB_CHECK(cudaMalloc(&d->grads, bytes));
    LAB_CHECK(cudaMalloc(&d->m, bytes));
    LAB_CHECK(cudaMalloc(&d->v, bytes));
    LAB_CHECK(cudaMemcpy(d->params, h_params, bytes, cudaMemcpyHostToDevice));
    LAB_CHECK(cudaMemset(d->grads, 0, bytes));
    LAB_CHECK(cudaMemset(d->m, 0, bytes)); /* Adam starts from zero moments */
    LAB_CHECK(cudaMemset(d->v, 0, bytes));
    return;
    // === STUB
    // TODO 1: give the model its four device vectors: d->params with the n
    // parameters of h_params, and d->grads, d->m and d->v all zero. Hint:
    // cudaMalloc, cudaMemcpy and cudaMemset, each in LAB_CHECK(...). About 8
    // lines.
    LAB_TODO_UNUSED(h_params);
    d->params = d->grads = d->m = d->v = NULL;
    // <<< END
}

void model_to_host(float *h_params, float *h_grads, const l5_dev_model *d)
{
    // >>> SOLUTION
    LAB_CHECK(cudaMemcpy(h_params, d->params, sizeof(float) * d->n, cudaMemcpyDeviceToHost));
    if (h_grads)
        LAB_CHECK(cudaMemcpy(h_grads, d->grads, sizeof(float) * d->n, cudaMemcpyDeviceToHost));
    // === STUB
    // TODO 2: copy the d->n parameters back into h_params and, when h_grads is
    // not NULL, the gradients into h_grads. About 3 lines.
    LAB_TODO_UNUSED(h_params, h_grads, d);
    // <<< END
}

void model_free(l5_dev_model *d)
{
    // >>> SOLUTION
    LAB_CHECK(cudaFree(d->params));
    LAB_CHECK(cudaFree(d->grads));
    LAB_CHECK(cudaFree(d->m));
    LAB_CHECK(cudaFree(d->v));
    // === STUB
    // TODO 3: free the four device vectors. About 4 lines.
    // <<< END
    d->params = d->grads = d->m = d->v = NULL;
}

void batch_to_device(float *d_x, int *d_y, const float *h_x, const int *h_y, size_t x_floats, int B)
{
    // >>> SOLUTION
    LAB_CHECK(cudaMemcpy(d_x, h_x, sizeof(float) * x_floats, cudaMemcpyHostToDevice));
    LAB_CHECK(cudaMemcpy(d_y, h_y, sizeof(int) * (size_t)B, cudaMemcpyHostToDevice));
    // === STUB
    // TODO 4: copy the batch in: x_floats floats from h_x to d_x, and the B
    // labels from h_y to d_y. About 2 lines.
    LAB_TODO_UNUSED(d_x, d_y, h_x, h_y, x_floats, B);
    // <<< END
}
