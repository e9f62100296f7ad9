/*
 * test_cpu.c - lab 05's CPU trainer against PyTorch (fixtures made once by
 * make_fixtures.py, no torch needed here), its determinism, and saving and
 * loading parameters, and the same bits for any number of threads.
 *
 *   test-lab05-cpu FIXTURE_DIR SCRATCH_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include "cpu_conv.h"
#include "net.h"

#include "lab/compare.h"
#include "lab/npy.h"
#include "lab/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keep in step with make_fixtures.py. */
enum { CNN_SEED = 5, CNN_BATCH = 4, CNN_DATA_SEED = 7, MLP_SEED = 3 };

static int failures, passes;
static const char *fixture_dir, *scratch_dir;

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("  FAIL %s:%d: ", __FILE__, __LINE__);                                          \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static float *load_fixture(const char *name, size_t want_count)
{
    char path[4096];
    lab_npy_array a;
    lab_error err;
    snprintf(path, sizeof(path), "%s/%s.npy", fixture_dir, name);
    if (lab_npy_read(&a, path, &err) || a.dtype != LAB_DTYPE_F32 || a.count != want_count) {
        printf("  FAIL cannot use fixture %s (%s)\n", path, err.msg);
        failures++;
        return NULL;
    }
    return a.data;
}

/* Compares per tensor, so a failure names the tensor. */
static void compare_tensors(const l5_net *net, const float *got, const float *want,
                            const char *what, double atol, double rtol)
{
    for (int i = 0; i < net->n_tensors; i++) {
        const l5_tensor *t = &net->tensor[i];
        lab_compare_report rep;
        if (!lab_allclose_f32(&rep, got + t->offset, want + t->offset, t->count, atol, rtol, 0)) {
            char label[96];
            snprintf(label, sizeof(label), "%s %s", what, t->name);
            lab_compare_print(stdout, &rep, label);
            failures++;
        }
    }
}

static void cnn_batch(float *x, int *y)
{
    lab_rng rng;
    lab_rng_seed(&rng, CNN_DATA_SEED, 0);
    lab_rng_fill_uniform(&rng, x, (size_t)CNN_BATCH * 3 * 32 * 32, -1.0f, 1.0f);
    lab_rng_seed(&rng, CNN_DATA_SEED, 1);
    for (int i = 0; i < CNN_BATCH; i++)
        y[i] = (int)lab_rng_below(&rng, 10);
}

/* One step's loss and every gradient, then two Adam steps, against torch. */
static void test_cnn_matches_pytorch(void)
{
    l5_net net;
    l5_cpu cpu;
    char why[256];
    float x[CNN_BATCH * 3 * 32 * 32];
    int y[CNN_BATCH];
    l5_net_cnn(&net);
    EXPECT(net.n_params == 30422, "CNN has %zu parameters, PyTorch's has 30422", net.n_params);
    float *loss = load_fixture("cnn_loss", 2);
    float *grads = load_fixture("cnn_grads1", net.n_params);
    float *params = load_fixture("cnn_params2", net.n_params);
    if (!loss || !grads || !params ||
        l5_cpu_create(&cpu, &net, CNN_BATCH, NULL, CNN_SEED, 1e-3, why, sizeof(why))) {
        failures++;
        goto out;
    }
    cnn_batch(x, y);
    float l1 = l5_cpu_forward(&cpu, x, y, CNN_BATCH, NULL);
    EXPECT(fabsf(l1 - loss[0]) <= 1e-5f * fabsf(loss[0]), "step 1 loss %.8g, torch %.8g", l1,
           loss[0]);
    l5_cpu_backward(&cpu, CNN_BATCH);
    compare_tensors(&net, cpu.grads, grads, "gradient", 1e-7, 1e-4);
    l5_cpu_adam(&cpu);
    float l2 = l5_cpu_step(&cpu, x, y, CNN_BATCH, NULL);
    EXPECT(fabsf(l2 - loss[1]) <= 1e-5f * fabsf(loss[1]), "step 2 loss %.8g, torch %.8g", l2,
           loss[1]);
    /* atol 1e-5 = 1% of one Adam step (lr 1e-3): where a gradient is near 0,
     * m / sqrt(v) turns its last-bit differences into visible ones. */
    compare_tensors(&net, cpu.params, params, "after 2 Adam steps", 1e-5, 1e-5);
    printf("  cnn: losses %.7f %.7f (torch %.7f %.7f)\n", l1, l2, loss[0], loss[1]);
    l5_cpu_destroy(&cpu);
out:
    free(loss);
    free(grads);
    free(params);
}

/* Reads iris.csv the simple way (the data module has its own tests). */
static int load_iris(const char *path, float *x, int *y)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int n = 0;
    if (!f)
        return -1;
    if (!fgets(line, sizeof(line), f)) {
        fclose(f);
        return -1;
    }
    while (n < 150 && fgets(line, sizeof(line), f)) {
        float t;
        if (sscanf(line, "%f,%f,%f,%f,%f", &x[4 * n], &x[4 * n + 1], &x[4 * n + 2], &x[4 * n + 3],
                   &t) == 5)
            y[n++] = (int)t;
    }
    fclose(f);
    return n;
}

/* 100 full-batch epochs of the iris MLP with Adam lr 0.01, against torch. */
static void test_mlp_matches_pytorch(const char *iris_csv)
{
    l5_net net;
    l5_cpu cpu;
    char why[256];
    float x[600], got[100];
    int y[150], correct = 0;
    l5_net_mlp(&net);
    float *losses = load_fixture("mlp_losses", 100);
    float *params = load_fixture("mlp_params", net.n_params);
    int n = load_iris(iris_csv, x, y);
    EXPECT(n == 150, "%s: read %d rows, expected 150", iris_csv, n);
    if (!losses || !params || n != 150 ||
        l5_cpu_create(&cpu, &net, 150, NULL, MLP_SEED, 0.01, why, sizeof(why))) {
        failures++;
        goto out;
    }
    for (int e = 0; e < 100; e++)
        got[e] = l5_cpu_step(&cpu, x, y, 150, NULL);
    lab_compare_report rep;
    if (!lab_allclose_f32(&rep, got, losses, 100, 1e-5, 1e-4, 0)) {
        lab_compare_print(stdout, &rep, "iris losses per epoch");
        failures++;
    }
    compare_tensors(&net, cpu.params, params, "iris after 100 epochs", 1e-4, 1e-3);
    l5_cpu_forward(&cpu, x, y, 150, &correct);
    EXPECT(correct >= 143, "iris training accuracy %d/150, expected >= 95%%", correct);
    printf("  mlp: loss %.5f -> %.5f (torch %.5f -> %.5f), accuracy %d/150\n", got[0], got[99],
           losses[0], losses[99], correct);
    l5_cpu_destroy(&cpu);
out:
    free(losses);
    free(params);
}

/* Two runs from the same seed: bit-identical losses and parameters. */
static void test_deterministic(void)
{
    l5_net net;
    l5_cpu a, b;
    char why[256];
    enum { B = 16, STEPS = 4 };
    float *x = malloc(sizeof(float) * B * 3 * 32 * 32);
    int y[B];
    lab_rng rng;
    l5_net_cnn(&net);
    lab_rng_seed(&rng, 11, 0);
    lab_rng_fill_uniform(&rng, x, (size_t)B * 3 * 32 * 32, -1.0f, 1.0f);
    for (int i = 0; i < B; i++)
        y[i] = (int)lab_rng_below(&rng, 10);
    if (l5_cpu_create(&a, &net, B, NULL, 1, 1e-3, why, sizeof(why)) ||
        l5_cpu_create(&b, &net, B, NULL, 1, 1e-3, why, sizeof(why))) {
        failures++;
        free(x);
        return;
    }
    for (int s = 0; s < STEPS; s++) {
        float la = l5_cpu_step(&a, x, y, B, NULL), lb = l5_cpu_step(&b, x, y, B, NULL);
        EXPECT(memcmp(&la, &lb, sizeof(la)) == 0, "step %d: losses %.9g and %.9g differ", s, la,
               lb);
    }
    EXPECT(memcmp(a.params, b.params, sizeof(float) * net.n_params) == 0,
           "parameters differ after %d steps of two identical runs", STEPS);
    l5_cpu_destroy(&a);
    l5_cpu_destroy(&b);
    free(x);
}

/* The same steps on 1, 2, 3 and 16 threads (GPULAB_LAB05_THREADS): the same
 * bits in every loss, gradient and parameter. 37 samples do not divide
 * evenly among the threads or the 16 slices. */
static void test_threads_same_bits(void)
{
    l5_net net;
    l5_cpu ref, c;
    char why[256];
    enum { B = 37, STEPS = 3 };
    const char *counts[] = { "2", "3", "16" };
    float *x = malloc(sizeof(float) * B * 3 * 32 * 32), ref_loss[STEPS];
    int y[B];
    lab_rng rng;
    l5_net_cnn(&net);
    lab_rng_seed(&rng, 12, 0);
    lab_rng_fill_uniform(&rng, x, (size_t)B * 3 * 32 * 32, -1.0f, 1.0f);
    for (int i = 0; i < B; i++)
        y[i] = (int)lab_rng_below(&rng, 10);
    setenv("GPULAB_LAB05_THREADS", "1", 1);
    if (l5_cpu_create(&ref, &net, B, NULL, 2, 1e-3, why, sizeof(why))) {
        failures++;
        free(x);
        return;
    }
    EXPECT(ref.threads == 1, "GPULAB_LAB05_THREADS=1 gave %d threads", ref.threads);
    for (int s = 0; s < STEPS; s++)
        ref_loss[s] = l5_cpu_step(&ref, x, y, B, NULL);
    for (size_t t = 0; t < sizeof(counts) / sizeof(counts[0]); t++) {
        setenv("GPULAB_LAB05_THREADS", counts[t], 1);
        if (l5_cpu_create(&c, &net, B, NULL, 2, 1e-3, why, sizeof(why))) {
            failures++;
            break;
        }
        EXPECT(c.threads == atoi(counts[t]), "GPULAB_LAB05_THREADS=%s gave %d threads", counts[t],
               c.threads);
        for (int s = 0; s < STEPS; s++) {
            float l = l5_cpu_step(&c, x, y, B, NULL);
            EXPECT(memcmp(&l, &ref_loss[s], sizeof(l)) == 0,
                   "%s threads, step %d: loss %.9g, on 1 thread %.9g", counts[t], s, l,
                   ref_loss[s]);
        }
        EXPECT(memcmp(c.grads, ref.grads, sizeof(float) * net.n_params) == 0,
               "%s threads: gradients differ from 1 thread's", counts[t]);
        EXPECT(memcmp(c.params, ref.params, sizeof(float) * net.n_params) == 0,
               "%s threads: parameters differ from 1 thread's", counts[t]);
        l5_cpu_destroy(&c);
    }
    unsetenv("GPULAB_LAB05_THREADS");
    l5_cpu_destroy(&ref);
    free(x);
}

/* Saving every tensor as .npy and loading it back gives the same bits. */
static void test_save_load(void)
{
    l5_net net;
    char why[256], dir[4096];
    l5_net_cnn(&net);
    float *p = malloc(sizeof(float) * net.n_params), *q = calloc(net.n_params, sizeof(float));
    l5_net_init(&net, p, 9);
    snprintf(dir, sizeof(dir), "%s/params", scratch_dir);
    EXPECT(l5_params_save(&net, p, dir, why, sizeof(why)) == 0, "save: %s", why);
    EXPECT(l5_params_load(&net, q, dir, why, sizeof(why)) == 0, "load: %s", why);
    EXPECT(memcmp(p, q, sizeof(float) * net.n_params) == 0, "loaded parameters differ");
    /* A tensor of the wrong shape is refused, naming the file. */
    char path[4200];
    size_t shape[1] = { 3 };
    lab_error err;
    snprintf(path, sizeof(path), "%s/fc.4.bias.npy", dir);
    EXPECT(lab_npy_write(path, LAB_DTYPE_F32, 1, shape, p, &err) == LAB_OK, "write: %s", err.msg);
    EXPECT(l5_params_load(&net, q, dir, why, sizeof(why)) != 0 && strstr(why, "fc.4.bias"),
           "a (3,) fc.4.bias was accepted (%s)", why);
    free(p);
    free(q);
}

/* Max-pooling against a scan of each window in row-major order that
 * replaces on > only, on inputs of 0s and 1s (ties everywhere), even and odd
 * widths, with the vector loops this run uses. */
static void test_maxpool_ties(const l5_conv_ops *set)
{
    enum { C = 3, H = 6, WMAX = 9 };
    float x[C * H * WMAX], y[C * H * WMAX];
    int argmax[C * H * WMAX];
    lab_rng rng;
    lab_rng_seed(&rng, 5, 0);
    for (int W = 2; W <= WMAX; W++) {
        int OH = H / 2, OW = W / 2, bad = 0;
        for (int i = 0; i < C * H * W; i++)
            x[i] = (float)lab_rng_below(&rng, 2);
        set->maxpool_forward(argmax, y, x, C, H, W, OH, OW);
        for (int c = 0; c < C; c++)
            for (int oy = 0; oy < OH; oy++)
                for (int ox = 0; ox < OW; ox++) {
                    int o = (c * OH + oy) * OW + ox, best = (c * H + 2 * oy) * W + 2 * ox;
                    for (int a = 0; a < 2; a++)
                        for (int b = 0; b < 2; b++) {
                            int i = (c * H + 2 * oy + a) * W + 2 * ox + b;
                            best = x[i] > x[best] ? i : best;
                        }
                    bad += argmax[o] != best || y[o] != x[best];
                }
        EXPECT(bad == 0, "width %d: %d of %d outputs differ from the row-major scan", W, bad,
               C * OH * OW);
    }
}

#define RUN(call)                                                                                  \
    do {                                                                                           \
        int before = failures;                                                                     \
        call;                                                                                      \
        if (failures == before)                                                                    \
            passes++;                                                                              \
        printf("%s %s\n", failures == before ? "ok  " : "FAIL", #call);                            \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s FIXTURE_DIR IRIS_CSV SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    fixture_dir = argv[1];
    scratch_dir = argv[3];
    char why[256] = "";
    const l5_conv_ops *set = l5_conv_ops_pick(why, sizeof(why));
    if (!set) { /* GPULAB_LAB05_ISA names a set this CPU lacks: nothing to test here */
        printf("skipped: %s\n", why);
        return 77;
    }
    printf("vector loops: %s\n", set->name);
    RUN(test_cnn_matches_pytorch());
    RUN(test_mlp_matches_pytorch(argv[2]));
    RUN(test_deterministic());
    RUN(test_threads_same_bits());
    RUN(test_save_load());
    RUN(test_maxpool_ties(set));
    int tests = 6;
    printf("%d passed, %d failed\n", passes, tests - passes);
    return passes == tests ? 0 : 1;
}
