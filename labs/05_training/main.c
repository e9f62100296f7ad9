/*
 * main.c - lab 05: training a CNN on the CPU and on the device (harness: you
 * do not edit it). See README.md.
 *
 *   lab05-<backend>-<variant>                 the demo (demo.c)
 *   lab05-<backend>-<variant> --in D --out D  graded mode: task.npy says which
 *
 * Graded tasks (inputs in --in, outputs in --out):
 *   1 step   params (n,) x (B,3,32,32) y (B,) int32: one CNN training step on
 *            the device; writes loss (1,), grad_<tensor> and param_<tensor>
 *            (after Adam) for every tensor of the model.
 *   2 train  config (5,) int32 = images, batch, steps, data seed, init seed:
 *            trains the CNN on the synthetic set (batches in order, wrapping
 *            around); writes losses (steps,) and the accuracy on those images.
 *   3 iris   params (151,) x (150,4) y (150,) int32: the iris MLP, 100
 *            full-batch epochs with Adam lr 0.01 on the device, loss printed
 *            every 10 epochs; writes losses (100,), params (151,), accuracy.
 */
#include "data.h"
#include "demo.h"
#include "device_train.h"
#include "net.h"

#include "lab/alloc.h"
#include "lab/device.h"
#include "lab/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads input name as a float32 array of exactly count elements. */
static float *input_floats(const lab_args *args, const char *name, size_t count, lab_npy_array *a)
{
    lab_input(a, args, name, LAB_DTYPE_F32, -1);
    if (a->count != count) {
        fprintf(stderr, "%s/%s.npy: %zu elements, expected %zu\n", args->in_dir, name, a->count,
                count);
        exit(LAB_EXIT_USAGE);
    }
    return a->data;
}

static void result_common(lab_result *r, const char *task)
{
    lab_result_set_string(r, "backend", lab_backend_name());
    lab_result_set_string(r, "task", task);
}

static int graded_step(const lab_args *args)
{
    l5_net net;
    lab_npy_array pa, xa, ya;
    l5_net_cnn(&net);
    float *params = input_floats(args, "params", net.n_params, &pa);
    lab_input(&xa, args, "x", LAB_DTYPE_F32, 4);
    lab_input(&ya, args, "y", LAB_DTYPE_I32, 1);
    int B = (int)ya.count;
    if (xa.count != (size_t)B * 3 * 32 * 32 || B < 1) {
        fprintf(stderr, "x.npy must be (B, 3, 32, 32) for the B = %d labels of y.npy\n", B);
        return LAB_EXIT_USAGE;
    }
    float *grads = lab_xmalloc(sizeof(float) * net.n_params);
    float *after = lab_xmalloc(sizeof(float) * net.n_params);
    l5_gpu *g = l5_gpu_create(&net, B, params, 1e-3);
    int correct = 0;
    float loss = l5_gpu_forward_backward(g, xa.data, ya.data, B, &correct);
    l5_gpu_get(g, after, grads);
    l5_gpu_adam(g);
    l5_gpu_get(g, after, NULL);
    l5_gpu_destroy(g);

    size_t one = 1, shape[4];
    lab_output(args, "loss", LAB_DTYPE_F32, 1, &one, &loss);
    for (int i = 0; i < net.n_tensors; i++) {
        const l5_tensor *t = &net.tensor[i];
        char name[64];
        for (int d = 0; d < t->ndim; d++)
            shape[d] = (size_t)t->shape[d];
        snprintf(name, sizeof(name), "grad_%s", t->name);
        lab_output(args, name, LAB_DTYPE_F32, t->ndim, shape, grads + t->offset);
        snprintf(name, sizeof(name), "param_%s", t->name);
        lab_output(args, name, LAB_DTYPE_F32, t->ndim, shape, after + t->offset);
    }
    lab_result *r = lab_result_create();
    result_common(r, "step");
    lab_result_set_int(r, "batch", B);
    lab_result_set_number(r, "loss", loss);
    lab_result_save(args, r);
    lab_result_destroy(r);
    free(grads);
    free(after);
    lab_npy_free(&pa);
    lab_npy_free(&xa);
    lab_npy_free(&ya);
    return LAB_EXIT_PASS;
}

static int graded_train(const lab_args *args)
{
    l5_net net;
    l5_images set;
    lab_npy_array ca;
    char why[512];
    lab_input(&ca, args, "config", LAB_DTYPE_I32, 1);
    const int *cfg = ca.data;
    if (ca.count != 5 || cfg[0] < 1 || cfg[1] < 1 || cfg[2] < 1) {
        fprintf(stderr, "config.npy: expected 5 int32 (images, batch, steps, data seed, init "
                        "seed), each images/batch/steps >= 1\n");
        return LAB_EXIT_USAGE;
    }
    int n = cfg[0], batch = cfg[1], steps = cfg[2];
    if (l5_synthetic(&set, n, (unsigned long long)cfg[3], why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return LAB_EXIT_FAIL;
    }
    l5_net_cnn(&net);
    int *labels = lab_xmalloc(sizeof(int) * (size_t)n);
    float *params = lab_xmalloc(sizeof(float) * net.n_params);
    float *losses = lab_xmalloc(sizeof(float) * (size_t)steps);
    for (int i = 0; i < n; i++)
        labels[i] = set.label[i];
    l5_net_init(&net, params, (unsigned long long)cfg[4]);
    l5_gpu *g = l5_gpu_create(&net, batch, params, 1e-3);
    for (int s = 0; s < steps; s++) {
        int at = (int)(((long long)s * batch) % n), B = n - at < batch ? n - at : batch;
        losses[s] = l5_gpu_step(g, set.x + (size_t)at * L5_IMG_PIXELS, labels + at, B, NULL, NULL);
    }
    int correct = l5_gpu_evaluate(g, set.x, labels, n);
    l5_gpu_destroy(g);

    size_t shape[1] = { (size_t)steps };
    lab_output(args, "losses", LAB_DTYPE_F32, 1, shape, losses);
    lab_result *r = lab_result_create();
    result_common(r, "train");
    lab_result_set_number(r, "first_loss", losses[0]);
    lab_result_set_number(r, "last_loss", losses[steps - 1]);
    lab_result_set_number(r, "accuracy", (double)correct / n);
    lab_result_save(args, r);
    lab_result_destroy(r);
    printf("trained %d steps of batch %d on %d synthetic images: loss %.4f -> %.4f, accuracy "
           "%.1f%%\n",
           steps, batch, n, losses[0], losses[steps - 1], 100.0 * correct / n);
    free(labels);
    free(params);
    free(losses);
    l5_images_free(&set);
    lab_npy_free(&ca);
    return LAB_EXIT_PASS;
}

static int graded_iris(const lab_args *args)
{
    l5_net net;
    lab_npy_array pa, xa, ya;
    enum { EPOCHS = 100 };
    float losses[EPOCHS];
    l5_net_mlp(&net);
    float *params = input_floats(args, "params", net.n_params, &pa);
    lab_input(&xa, args, "x", LAB_DTYPE_F32, 2);
    lab_input(&ya, args, "y", LAB_DTYPE_I32, 1);
    int n = (int)ya.count, correct = 0;
    if (xa.count != (size_t)n * 4 || n < 1) {
        fprintf(stderr, "x.npy must be (n, 4) for the n = %d labels of y.npy\n", n);
        return LAB_EXIT_USAGE;
    }
    l5_gpu *g = l5_gpu_create(&net, n, params, 0.01);
    for (int e = 0; e < EPOCHS; e++) {
        losses[e] = l5_gpu_step(g, xa.data, ya.data, n, NULL, NULL);
        if (e % 10 == 0)
            printf("epoch %3d  loss %.6f\n", e, losses[e]);
    }
    correct = l5_gpu_evaluate(g, xa.data, ya.data, n);
    l5_gpu_get(g, params, NULL);
    l5_gpu_destroy(g);

    size_t shape[1] = { EPOCHS }, pshape[1] = { net.n_params };
    lab_output(args, "losses", LAB_DTYPE_F32, 1, shape, losses);
    lab_output(args, "params", LAB_DTYPE_F32, 1, pshape, params);
    lab_result *r = lab_result_create();
    result_common(r, "iris");
    lab_result_set_number(r, "accuracy", (double)correct / n);
    lab_result_save(args, r);
    lab_result_destroy(r);
    lab_npy_free(&pa);
    lab_npy_free(&xa);
    lab_npy_free(&ya);
    return LAB_EXIT_PASS;
}

static int graded(const lab_args *args)
{
    lab_npy_array ta;
    lab_input(&ta, args, "task", LAB_DTYPE_I32, 0);
    int task = *(const int *)ta.data;
    lab_npy_free(&ta);
    switch (task) {
    case 1:
        return graded_step(args);
    case 2:
        return graded_train(args);
    case 3:
        return graded_iris(args);
    }
    fprintf(stderr, "%s/task.npy: task %d; expected 1 (step), 2 (train) or 3 (iris)\n",
            args->in_dir, task);
    return LAB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    lab_args args;
    l5_demo_options opt;
    lab_flag flags[L5_DEMO_MAX_FLAGS];
    size_t n_flags = l5_demo_flags(flags, &opt);
    lab_args_parse_flags(&args, argc, argv,
                         "lab 05: a CNN trained on the CPU and on the device; the iris MLP", flags,
                         n_flags);
    if (lab_skip_without_gpu(GPULAB_LAB_NAME))
        return LAB_EXIT_SKIP;
    if (args.graded)
        return graded(&args);
    return l5_demo(&opt);
}
