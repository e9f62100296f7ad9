/*
 * demo_step.c - section 1 of lab 05's demo (harness; demo.c runs it): one
 * training step on the device against the CPU trainer, tensor by tensor,
 * and when they differ, layer by layer to say where it starts (diagnose.h).
 */
#include "demo.h"
#include "demo_parts.h"

#include "device_train.h"
#include "diagnose.h"

#include "lab/alloc.h"
#include "lab/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_part(const l5_tensor *t, const float *got, const float *want, double atol,
                        double rtol, double *max_err, lab_compare_report *rep)
{
    int ok = lab_allclose_f32(rep, got + t->offset, want + t->offset, t->count, atol, rtol, 0);
    *max_err = rep->max_abs_err; /* NaN when a NaN differs: never an error of 0 */
    return ok;
}

/* Room for every layer's input and its gradient, B samples, on the host. */
static void layers_alloc(l5_step_layers *s, const l5_net *net, int B)
{
    memset(s, 0, sizeof(*s));
    s->B = B;
    for (int i = 0; i <= net->n_layers; i++) {
        size_t n = (size_t)B * (i < net->n_layers ? l5_layer_in_size(&net->layer[i])
                                                  : l5_layer_out_size(&net->layer[i - 1]));
        s->act[i] = lab_xmalloc(sizeof(float) * n);
        s->dact[i] = lab_xmalloc(sizeof(float) * n);
    }
}

static void layers_free(l5_step_layers *s)
{
    for (int i = 0; i <= L5_MAX_LAYERS; i++) {
        free(s->act[i]);
        free(s->dact[i]);
    }
}

/* Says where a step that differs from the CPU's starts: the first layer
 * whose output (forward) or input gradient (from the loss backwards)
 * differs, with the code that computes it and its comparison; else, from
 * the parameters' gradients and values. */
static void explain_step(const l5_net *net, const l5_step_layers *dev, const l5_step_layers *cpu,
                         int loss_ok, const int *grad_ok, const int *param_ok, const float *grads,
                         const float *cpu_grads)
{
    char why[700], what[96];
    lab_compare_report rep;
    if (l5_diagnose_layers(net, dev, cpu, why, sizeof(why), &rep, what, sizeof(what))) {
        char label[120];
        snprintf(label, sizeof(label), "   %s", what);
        printf("   Where it starts: %s.\n", why);
        lab_compare_print(stdout, &rep, label);
        return;
    }
    if (l5_diagnose_grads(net, loss_ok, grad_ok, why, sizeof(why))) {
        printf("   Every layer's output and input gradient matches the CPU's, but %s.\n", why);
        for (int i = net->n_tensors - 1; i >= 0; i--)
            if (!grad_ok[i]) {
                const l5_tensor *t = &net->tensor[i];
                char label[96];
                snprintf(label, sizeof(label), "   gradient of %s", t->name);
                lab_allclose_f32(&rep, grads + t->offset, cpu_grads + t->offset, t->count,
                                 L5_TOL_GRAD_ATOL, L5_TOL_GRAD_RTOL, 0);
                lab_compare_print(stdout, &rep, label);
                break;
            }
        printf("   The layers are right, so look at how the gradients come back: model_to_host "
               "in to_device.cu.\n");
        return;
    }
    for (int i = 0; i < net->n_tensors; i++)
        if (!param_ok[i]) {
            printf("   The loss and every gradient match the CPU's, but the parameters after "
                   "Adam differ from %s on: adam_kernel in kernels.cu (or model_to_host in "
                   "to_device.cu copying them back).\n",
                   net->tensor[i].name);
            return;
        }
}

int l5_demo_check_one_step(const l5_net *net, const l5_images *set, const int *y)
{
    enum { B = 8 };
    char why[256];
    l5_cpu cpu;
    l5_step_layers dev_layers, cpu_layers;
    size_t n = net->n_params;
    float *grads = lab_xmalloc(sizeof(float) * n), *params = lab_xmalloc(sizeof(float) * n);
    int grad_ok[L5_MAX_TENSORS], param_ok[L5_MAX_TENSORS];
    int ok = 1;
    printf("1. One training step, device against CPU (batch %d, same parameters)\n", B);
    if (l5_cpu_create(&cpu, net, B, NULL, L5_DEMO_INIT_SEED, 1e-3, why, sizeof(why)) ||
        l5_cpu_keep_layer_grads(&cpu)) {
        fprintf(stderr, "%s\n", why);
        exit(LAB_EXIT_FAIL);
    }
    layers_alloc(&dev_layers, net, B);
    l5_gpu *g = l5_gpu_create(net, B, cpu.params, 1e-3);
    float cpu_loss = l5_cpu_forward(&cpu, set->x, y, B, NULL);
    l5_cpu_backward(&cpu, B);
    l5_cpu_adam(&cpu);
    float dev_loss = l5_gpu_forward_backward(g, set->x, y, B, NULL);
    l5_gpu_get(g, params, grads);
    l5_gpu_get_layers(g, B, dev_layers.act, dev_layers.dact);
    l5_gpu_adam(g);
    l5_gpu_get(g, params, NULL);
    l5_gpu_destroy(g);

    int loss_ok = fabs(dev_loss - cpu_loss) <= L5_TOL_LOSS_ATOL + L5_TOL_LOSS_RTOL * fabs(cpu_loss);
    printf("   loss: CPU %.6f, device %.6f  %s\n", cpu_loss, dev_loss,
           loss_ok ? "ok" : "DIFFERENT");
    ok &= loss_ok;
    printf("   %-16s %10s %16s %18s\n", "tensor", "elements", "max |grad diff|",
           "max |param diff|");
    for (int i = 0; i < net->n_tensors; i++) {
        const l5_tensor *t = &net->tensor[i];
        lab_compare_report rep;
        double eg, ep;
        grad_ok[i] =
            compare_part(t, grads, cpu.grads, L5_TOL_GRAD_ATOL, L5_TOL_GRAD_RTOL, &eg, &rep);
        param_ok[i] =
            compare_part(t, params, cpu.params, L5_TOL_PARAM_ATOL, L5_TOL_PARAM_RTOL, &ep, &rep);
        printf("   %-16s %10zu %16.3g %18.3g  %s\n", t->name, t->count, eg, ep,
               grad_ok[i] && param_ok[i] ? "ok" : "DIFFERENT");
        ok &= grad_ok[i] && param_ok[i];
    }
    printf("   tolerances: loss %g + %g|cpu|, gradients %g + %g|cpu|, parameters %g + %g|cpu|\n",
           L5_TOL_LOSS_ATOL, L5_TOL_LOSS_RTOL, L5_TOL_GRAD_ATOL, L5_TOL_GRAD_RTOL,
           L5_TOL_PARAM_ATOL, L5_TOL_PARAM_RTOL);
    if (!ok) {
        printf("   The device step differs from the CPU's. A wrong gradient makes every gradient "
               "before it wrong too,\n   so the first DIFFERENT row is rarely the cause: the "
               "layers, compared one by one,\n   show where it starts.\n");
        memcpy(cpu_layers.act, cpu.act, sizeof(cpu_layers.act));
        memcpy(cpu_layers.dact, cpu.dact, sizeof(cpu_layers.dact));
        cpu_layers.B = B;
        explain_step(net, &dev_layers, &cpu_layers, loss_ok, grad_ok, param_ok, grads, cpu.grads);
    }
    layers_free(&dev_layers);
    l5_cpu_destroy(&cpu);
    free(grads);
    free(params);
    return ok;
}
