/* Unit tests of labs/05_training/diagnose.c: layer names, and where a wrong
 * step starts, from made-up layers and gradients of the CIFAR-10 CNN. */
#include "diagnose.h"
#include "lab_test.h"

#include <stdlib.h>
#include <string.h>

static l5_net net;
static char why[800], what[96];

static void test_names(void)
{
    char name[48];
    l5_net_cnn(&net);
    l5_layer_name(&net, 0, name, sizeof(name));
    CHECK_STREQ(name, "conv.0");
    l5_layer_name(&net, 1, name, sizeof(name));
    CHECK_STREQ(name, "the ReLU after conv.0");
    l5_layer_name(&net, 2, name, sizeof(name));
    CHECK_STREQ(name, "the MaxPool after conv.0");
    l5_layer_name(&net, 11, name, sizeof(name));
    CHECK_STREQ(name, "Flatten");
    l5_layer_name(&net, 15, name, sizeof(name));
    CHECK_STREQ(name, "the ReLU after fc.2");
    CHECK_CONTAINS(l5_layer_backward_code(&net.layer[15]), "relu_backward_kernel in kernels.cu");
    CHECK_CONTAINS(l5_layer_backward_code(&net.layer[10]), "maxpool_backward_kernel");
    CHECK_CONTAINS(l5_layer_forward_code(&net.layer[12]), "bias_add_kernel");
}

static void test_grads(void)
{
    int ok[L5_MAX_TENSORS];
    l5_net_cnn(&net);
    for (int i = 0; i < net.n_tensors; i++)
        ok[i] = 1;
    CHECK_EQ_INT(l5_diagnose_grads(&net, 1, ok, why, sizeof(why)), 0);
    CHECK_STREQ(why, "");

    /* A wrong loss comes first, whatever the gradients. */
    CHECK_EQ_INT(l5_diagnose_grads(&net, 0, ok, why, sizeof(why)), 1);
    CHECK_CONTAINS(why, "the loss already differs");

    /* Everything from conv.8 down wrong (a maxpool_backward bug after it):
     * the report starts at conv.8, with the path from fc.0 back to it. */
    for (int i = 0; i <= l5_net_find(&net, "conv.8.bias"); i++)
        ok[i] = 0;
    CHECK_EQ_INT(l5_diagnose_grads(&net, 1, ok, why, sizeof(why)), 1);
    CHECK_CONTAINS(why, "the first gradients that differ are conv.8's, while fc.0's");
    CHECK_CONTAINS(why, "Flatten (a device-to-device copy in backward (device_train.cu)), then the "
                        "MaxPool after conv.8 (maxpool_backward_kernel");
    CHECK_CONTAINS(why, "then the ReLU after conv.8 (relu_backward_kernel in kernels.cu)");

    /* Only the last layer's: the gradient at the logits. */
    for (int i = 0; i < net.n_tensors; i++)
        ok[i] = 0;
    CHECK_EQ_INT(l5_diagnose_grads(&net, 1, ok, why, sizeof(why)), 1);
    CHECK_CONTAINS(why, "are fc.4's, the last layer");
    CHECK_CONTAINS(why, "softmax_xent_kernel in kernels.cu");

    /* A weight gradient wrong with its bias right: the input is to blame. */
    for (int i = 0; i < net.n_tensors; i++)
        ok[i] = 1;
    ok[l5_net_find(&net, "fc.2.weight")] = 0;
    l5_diagnose_grads(&net, 1, ok, why, sizeof(why));
    CHECK_CONTAINS(why, "fc.2.weight's, while fc.2.bias's is right");
}

/* Made-up layers for B = 2: every tensor i filled with i + 1, the same for
 * device and CPU, then one changed. */
static void layers_make(l5_step_layers *s, int B)
{
    memset(s, 0, sizeof(*s));
    s->B = B;
    for (int i = 0; i <= net.n_layers; i++) {
        size_t n = (size_t)B * (i < net.n_layers ? l5_layer_in_size(&net.layer[i])
                                                 : l5_layer_out_size(&net.layer[i - 1]));
        s->act[i] = malloc(sizeof(float) * n);
        s->dact[i] = malloc(sizeof(float) * n);
        for (size_t j = 0; j < n; j++)
            s->act[i][j] = s->dact[i][j] = (float)(i + 1);
    }
}

static void layers_free(l5_step_layers *s)
{
    for (int i = 0; i <= L5_MAX_LAYERS; i++) {
        free(s->act[i]);
        free(s->dact[i]);
    }
}

static void test_layers(void)
{
    l5_step_layers dev, cpu;
    lab_compare_report rep;
    l5_net_cnn(&net);
    layers_make(&dev, 2);
    layers_make(&cpu, 2);
    CHECK_EQ_INT(l5_diagnose_layers(&net, &dev, &cpu, why, sizeof(why), &rep, what, sizeof(what)),
                 0);

    /* Backwards: the gradient at the input of the ReLU after fc.2 (layer
     * 15) differs, and so does everything before it; the report names the
     * ReLU, not conv.0. */
    for (int i = 1; i <= 15; i++)
        dev.dact[i][3] += 1.0f;
    CHECK_EQ_INT(l5_diagnose_layers(&net, &dev, &cpu, why, sizeof(why), &rep, what, sizeof(what)),
                 1);
    CHECK_CONTAINS(why, "the first gradient that differs is at the input of the ReLU after fc.2 "
                        "(layer 16 of 17");
    CHECK_CONTAINS(why, "relu_backward_kernel in kernels.cu");
    CHECK_STREQ(what, "gradient at the input of the ReLU after fc.2");
    CHECK_EQ_INT(rep.mismatches, 1);
    CHECK_EQ_INT(rep.index[0], 3);

    /* The gradient at the logits. */
    dev.dact[net.n_layers][0] = -5.0f;
    l5_diagnose_layers(&net, &dev, &cpu, why, sizeof(why), &rep, what, sizeof(what));
    CHECK_CONTAINS(why, "softmax_xent_kernel");

    /* Forwards first: the output of the MaxPool after conv.5 (layer 7: act[8]). */
    dev.act[8][0] = 100.0f;
    l5_diagnose_layers(&net, &dev, &cpu, why, sizeof(why), &rep, what, sizeof(what));
    CHECK_CONTAINS(why, "the forward pass differs first at the output of the MaxPool after conv.5");
    CHECK_CONTAINS(why, "maxpool_forward_kernel in kernels.cu");

    /* And the batch itself. */
    dev.act[0][0] = 100.0f;
    l5_diagnose_layers(&net, &dev, &cpu, why, sizeof(why), &rep, what, sizeof(what));
    CHECK_CONTAINS(why, "batch_to_device in to_device.cu");
    layers_free(&dev);
    layers_free(&cpu);
}

int main(void)
{
    LAB_TEST_RUN(test_names);
    LAB_TEST_RUN(test_grads);
    LAB_TEST_RUN(test_layers);
    LAB_TEST_MAIN_END();
}
