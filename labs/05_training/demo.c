/*
 * demo.c - lab 05's demo (harness): what `lab05-<backend>-<variant>` prints
 * with no --in/--out. In order:
 *   1. one training step on the device against the CPU trainer, tensor by
 *      tensor, and when they differ, layer by layer to say where it starts
 *      (diagnose.h); it stops with FAIL then: fix that first;
 *   2. the iris MLP warm-up, CPU and device, loss every 10 epochs;
 *   3. one epoch on the CPU and one on the device: wall time, images/s, a
 *      progress bar, loss and accuracy per step to TensorBoard and CSV;
 *   4. the batch-size sweep 32 ... 1024: each step split into host-to-device
 *      copy, compute and device-to-host copy (table, and two SVGs: the
 *      shares by part, images/s);
 * Device times come from CUDA events: on the sim backend the performance
 * model's clock ("modeled NVIDIA T4", docs/model.md) unless it is off.
 *   5. the device model saved as .npy per tensor, loaded back and evaluated.
 * Every file of sections 3 to 5 goes into a new folder for the run,
 * <logdir>/<date>_<time>_<host>, whose absolute path is printed.
 */
#define _XOPEN_SOURCE 700 /* realpath, gethostname, localtime_r */
#include "demo.h"

#include "data.h"
#include "device_train.h"
#include "diagnose.h"
#include "net.h"
#include "tfevents.h"

#include "lab/compare.h"
#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab/plot.h"
#include "lab/progress.h"
#include "lab/timer.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The default epoch on the simulator: a subset, so that the demo takes
 * seconds (--full-epoch or --images N for more). */
#define SIM_IMAGES 1024
/* The sweep's largest batch: 1024, or 256 on the simulator (--sweep-max). */
#define SIM_SWEEP_MAX 256
#define DATA_SEED 2024ULL
#define INIT_SEED 1ULL

size_t l5_demo_flags(lab_flag *f, l5_demo_options *o)
{
    memset(o, 0, sizeof(*o));
    size_t n = 0;
    f[n++] = (lab_flag){ "--data", "DIR",
                         "CIFAR-10 binary batches (default: $GPULAB_CIFAR10, "
                         "else the synthetic set)",
                         NULL, &o->data };
    f[n++] =
        (lab_flag){ "--images", "N", "training images in the epoch (default: all; 1024 on sim)",
                    NULL, &o->images };
    f[n++] = (lab_flag){ "--full-epoch", NULL, "train on every image (also on sim)", &o->full_epoch,
                         NULL };
    f[n++] =
        (lab_flag){ "--batch", "N", "batch size of the epochs (default 256)", NULL, &o->batch };
    f[n++] = (lab_flag){ "--sweep-steps", "N",
                         "timed steps per batch size in the sweep (default 5; 1 on sim)", NULL,
                         &o->sweep_steps };
    f[n++] =
        (lab_flag){ "--sweep-max", "N", "largest batch of the sweep (default 1024; 256 on sim)",
                    NULL, &o->sweep_max };
    f[n++] = (lab_flag){ "--no-sweep", NULL, "skip the batch-size sweep", &o->no_sweep, NULL };
    f[n++] = (lab_flag){ "--logdir", "DIR",
                         "where runs go (default runs): each run in a new folder "
                         "DIR/<date>_<time>_<host>",
                         NULL, &o->logdir };
    f[n++] =
        (lab_flag){ "--load", "DIR", "only evaluate the parameters saved in DIR on the test set",
                    NULL, &o->load };
    return n;
}

void *l5_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(LAB_EXIT_FAIL);
    }
    return p;
}

static int parse_count(const char *flag, const char *text, int fallback)
{
    if (!text)
        return fallback;
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || v < 1 || v > 10000000) {
        fprintf(stderr, "%s %s: expected a whole number >= 1\n", flag, text);
        exit(LAB_EXIT_USAGE);
    }
    return (int)v;
}

static int is_sim(void)
{
    return strcmp(lab_backend_name(), "sim") == 0;
}

/* What the device's CUDA events read: "CUDA events" on a GPU; on the sim
 * backend "modeled NVIDIA T4" (the performance model, docs/model.md) or
 * "simulator CPU time" (GPULAB_SIM_MODEL=off). */
static const char *device_clock(void)
{
    return lab_cuda_timer_clock_name();
}

/* Whether the events read the simulator's performance model's clock. */
static int is_modeled(void)
{
    return lab_cuda_timer_modeled_gpu() != NULL;
}

static int *labels_as_int(const l5_images *set)
{
    int *y = l5_xmalloc(sizeof(int) * (size_t)(set->n ? set->n : 1));
    for (int i = 0; i < set->n; i++)
        y[i] = set->label[i];
    return y;
}

/* ---- 1. one step, device against CPU ---------------------------------------- */

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
        s->act[i] = l5_xmalloc(sizeof(float) * n);
        s->dact[i] = l5_xmalloc(sizeof(float) * n);
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

static int check_one_step(const l5_net *net, const l5_images *set, const int *y)
{
    enum { B = 8 };
    char why[256];
    l5_cpu cpu;
    l5_step_layers dev_layers, cpu_layers;
    size_t n = net->n_params;
    float *grads = l5_xmalloc(sizeof(float) * n), *params = l5_xmalloc(sizeof(float) * n);
    int grad_ok[L5_MAX_TENSORS], param_ok[L5_MAX_TENSORS];
    int ok = 1;
    printf("1. One training step, device against CPU (batch %d, same parameters)\n", B);
    if (l5_cpu_create(&cpu, net, B, NULL, INIT_SEED, 1e-3, why, sizeof(why)) ||
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

/* ---- 2. the iris MLP ----------------------------------------------------------- */

static int iris_warmup(void)
{
    l5_net net;
    l5_table t;
    l5_cpu cpu;
    char why[512];
    int ok = 1;
    enum { EPOCHS = 100 };
    printf("\n2. Warm-up: the iris MLP 4-8-9-3, ReLU, Adam lr 0.01, %d full-batch epochs\n",
           EPOCHS);
    if (l5_iris_load(&t, NULL, why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return 0;
    }
    l5_net_mlp(&net);
    int *y = l5_xmalloc(sizeof(int) * (size_t)t.n);
    for (int i = 0; i < t.n; i++)
        y[i] = t.label[i];
    if (l5_cpu_create(&cpu, &net, t.n, NULL, INIT_SEED, 0.01, why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        exit(LAB_EXIT_FAIL);
    }
    l5_gpu *g = l5_gpu_create(&net, t.n, cpu.params, 0.01);
    printf("   %5s %12s %12s\n", "epoch", "CPU loss", "device loss");
    for (int e = 0; e < EPOCHS; e++) {
        float lc = l5_cpu_step(&cpu, t.x, y, t.n, NULL);
        float lg = l5_gpu_step(g, t.x, y, t.n, NULL, NULL);
        if (e % 10 == 0 || e == EPOCHS - 1)
            printf("   %5d %12.6f %12.6f\n", e, lc, lg);
    }
    int cc = l5_cpu_evaluate(&cpu, t.x, y, t.n), gc = l5_gpu_evaluate(g, t.x, y, t.n);
    printf("   training accuracy: CPU %.1f%%, device %.1f%% (target >= 95%%)\n", 100.0 * cc / t.n,
           100.0 * gc / t.n);
    ok = gc * 100 >= 95 * t.n;
    l5_gpu_destroy(g);
    l5_cpu_destroy(&cpu);
    l5_table_free(&t);
    free(y);
    return ok;
}

/* ---- this run's folder ------------------------------------------------------------ */

/* mkdir -p; 0, or -1 with why. */
static int make_dirs(const char *dir, char *why, size_t why_len)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s", dir);
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(why, why_len, "cannot create the folder %.300s: %s", path, strerror(errno));
            return -1;
        }
        *p = c;
        if (!c)
            return 0;
    }
}

/*
 * A new folder for this run's files, logdir/<date>_<time>_<host> (as
 * PyTorch's SummaryWriter names its runs), so that runs never mix: each
 * has its own TensorBoard events, steps.csv, sweep plot and saved model,
 * and `tensorboard --logdir logdir` shows them side by side. A second run in
 * the same second gets _2, _3, ... Writes the folder's path into dir (as
 * given) and its absolute path into abs; 0, or -1 with why.
 */
static int make_run_dir(const char *logdir, char *dir, size_t len, char *abs, size_t abs_len,
                        char *why, size_t why_len)
{
    char host[64] = "host", stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    if (gethostname(host, sizeof(host)) != 0)
        snprintf(host, sizeof(host), "host");
    host[sizeof(host) - 1] = '\0';
    for (char *h = host; *h; h++) /* a file name, whatever the host is called */
        if (!isalnum((unsigned char)*h) && *h != '-' && *h != '.')
            *h = '_';
    localtime_r(&now, &tm);
    strftime(stamp, sizeof(stamp), "%Y-%m-%d_%H-%M-%S", &tm);
    if (make_dirs(logdir, why, why_len))
        return -1;
    for (int k = 1; k < 1000; k++) {
        if (k == 1)
            snprintf(dir, len, "%s/%s_%s", logdir, stamp, host);
        else
            snprintf(dir, len, "%s/%s_%s_%d", logdir, stamp, host, k);
        if (mkdir(dir, 0777) == 0) {
            if (!realpath(dir, abs))
                snprintf(abs, abs_len, "%s", dir);
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    snprintf(why, why_len, "cannot create a folder for this run in %s: %s", logdir,
             strerror(errno));
    return -1;
}

/* ---- 3. an epoch ------------------------------------------------------------------ */

/* A run's logs: TensorBoard events and a CSV in logdir/name. */
typedef struct run_log {
    l5_tfevents *tb;
    FILE *csv;
    char dir[PATH_MAX + 64];
} run_log;

static void log_open(run_log *log, const char *logdir, const char *name)
{
    char why[512], path[PATH_MAX + 128];
    memset(log, 0, sizeof(*log));
    snprintf(log->dir, sizeof(log->dir), "%s/%s", logdir, name);
    log->tb = l5_tfevents_open(log->dir, why, sizeof(why));
    if (!log->tb)
        fprintf(stderr, "warning: no TensorBoard log: %s\n", why);
    snprintf(path, sizeof(path), "%s/steps.csv", log->dir);
    log->csv = fopen(path, "w");
    if (log->csv)
        fprintf(log->csv, "step,loss,accuracy\n");
    else
        fprintf(stderr, "warning: cannot write %s: %s\n", path, strerror(errno));
}

static void log_step(run_log *log, long long step, float loss, float accuracy)
{
    if (log->tb) {
        l5_tfevents_scalar(log->tb, "Train/Loss", loss, step);
        l5_tfevents_scalar(log->tb, "Train/Accuracy", accuracy, step);
    }
    if (log->csv)
        fprintf(log->csv, "%lld,%.6f,%.4f\n", step, loss, accuracy);
}

static void log_close(run_log *log)
{
    l5_tfevents_close(log->tb);
    if (log->csv)
        fclose(log->csv);
}

typedef struct epoch_result {
    double seconds;                    /* CPU wall clock around the whole epoch */
    float first_loss, last_loss;       /* mean of the first / last tenth of the steps */
    double h2d_ms, compute_ms, d2h_ms; /* device: sums of the steps' event times */
} epoch_result;

/* One epoch in order over the set, on the CPU (g NULL) or the device. */
static epoch_result run_epoch(l5_cpu *cpu, l5_gpu *g, const l5_images *set, const int *y, int batch,
                              run_log *log, const char *label)
{
    epoch_result r;
    int steps = (set->n + batch - 1) / batch, tenth = steps / 10 ? steps / 10 : 1;
    double first = 0, last = 0;
    memset(&r, 0, sizeof(r));
    lab_progress *p = lab_progress_create(stderr, label, (uint64_t)steps, LAB_PROGRESS_AUTO);
    double t0 = lab_wall_seconds();
    for (int s = 0; s < steps; s++) {
        int at = s * batch, B = set->n - at < batch ? set->n - at : batch, correct = 0;
        const float *x = set->x + (size_t)at * L5_IMG_PIXELS;
        float loss;
        if (g) {
            l5_step_times t;
            loss = l5_gpu_step(g, x, y + at, B, &correct, &t);
            r.h2d_ms += t.h2d_ms, r.compute_ms += t.compute_ms, r.d2h_ms += t.d2h_ms;
        } else {
            loss = l5_cpu_step(cpu, x, y + at, B, &correct);
        }
        log_step(log, s, loss, (float)correct / B);
        if (s < tenth)
            first += loss;
        if (s >= steps - tenth)
            last += loss;
        lab_progress_update(p, (uint64_t)s + 1);
    }
    r.seconds = lab_wall_seconds() - t0;
    lab_progress_destroy(p);
    r.first_loss = (float)(first / tenth);
    r.last_loss = (float)(last / tenth);
    return r;
}

/* ---- 4. the batch-size sweep -------------------------------------------------------- */

enum { N_SWEEP = 6 };
static const int sweep_batches[N_SWEEP] = { 32, 64, 128, 256, 512, 1024 };

typedef struct sweep_row {
    int batch;
    double h2d_ms, compute_ms, d2h_ms; /* per step, mean of the timed steps */
} sweep_row;

static void write_svg(const char *path, const sweep_row *rows, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warning: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    const int W = 640, H = 360, left = 70, top = 50, plot_h = 240, bar = 50, gap = 40;
    const char *colour[3] = { "#d62728", "#1f77b4", "#ff7f0e" };
    const char *part[3] = { "host to device", "compute", "device to host" };
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n",
            W, H);
    fprintf(f,
            "<text x=\"%d\" y=\"20\" font-size=\"14\">Share of a training step's time by "
            "batch size (%s backend, %s)</text>\n",
            left, lab_backend_name(), device_clock());
    for (int pct = 0; pct <= 100; pct += 25) {
        int yy = top + plot_h - plot_h * pct / 100;
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", left, yy,
                left + n * (bar + gap), yy);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d%%</text>\n", left - 6, yy + 4,
                pct);
    }
    for (int i = 0; i < n; i++) {
        double v[3] = { rows[i].h2d_ms, rows[i].compute_ms, rows[i].d2h_ms };
        double total = v[0] + v[1] + v[2], y0 = top + plot_h;
        int x = left + gap / 2 + i * (bar + gap);
        for (int k = 0; k < 3 && total > 0; k++) {
            double h = plot_h * v[k] / total;
            fprintf(f,
                    "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\">"
                    "<title>%s: %.3f ms</title></rect>\n",
                    x, y0 - h, bar, h, colour[k], part[k], v[k]);
            y0 -= h;
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x + bar / 2,
                top + plot_h + 16, rows[i].batch);
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%.2f ms</text>\n",
                x + bar / 2, top + plot_h + 30, total);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\">batch size (and time of one step)</text>\n", left,
            top + plot_h + 50);
    for (int k = 0; k < 3; k++)
        fprintf(f,
                "<rect x=\"%d\" y=\"32\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" "
                "y=\"41\">%s</text>\n",
                left + 150 * k, colour[k], left + 150 * k + 14, part[k]);
    fprintf(f, "</svg>\n");
    fclose(f);
}

/* The share of a step's time spent copying (H2D + D2H), percent. */
static double transfer_share(const sweep_row *r)
{
    double total = r->h2d_ms + r->compute_ms + r->d2h_ms;
    return total > 0 ? 100.0 * (r->h2d_ms + r->d2h_ms) / total : 0.0;
}

/* Images per second of a step: batch / step time. */
static double images_per_s(const sweep_row *r)
{
    double total = r->h2d_ms + r->compute_ms + r->d2h_ms;
    return total > 0 ? r->batch / (total / 1000.0) : 0.0;
}

/* images/s against the batch size, a line chart (lab/plot.h); 0 or -1. */
static int plot_images_per_s(const char *path, const sweep_row *rows, int n)
{
    double x[N_SWEEP], y[N_SWEEP];
    char title[160], note[256];
    lab_error err;
    for (int i = 0; i < n; i++) {
        x[i] = rows[i].batch;
        y[i] = images_per_s(&rows[i]);
    }
    lab_plot_series series = { "training step (H2D + compute + D2H)", "#1f77b4", y };
    snprintf(title, sizeof(title), "Training throughput by batch size, %s backend",
             lab_backend_name());
    snprintf(note, sizeof(note), "%s%s", device_clock(),
             is_modeled() ? ": model figures, not measurements (docs/model.md)"
             : is_sim()   ? ": the simulator's CPU time, not a GPU's"
                          : ": the device's time per step");
    lab_plot_spec spec = {
        title,   note, "batch size (log scale)", "images per second", LAB_PLOT_X_POW2, 0, x, n,
        &series, 1
    };
    if (lab_plot_svg(path, &spec, &err) != LAB_OK) {
        fprintf(stderr, "warning: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static void batch_sweep(const l5_net *net, const float *params, const l5_images *set, const int *y,
                        int timed, int max_batch, const char *logdir)
{
    sweep_row rows[N_SWEEP];
    int n_rows = 0;
    printf("\n4. Batch-size sweep: one step = host-to-device copy of the batch + compute "
           "(forward, backward, Adam) + device-to-host copy of losses and logits\n");
    printf("   per step, mean of %d timed step%s after one warm-up step; times from CUDA events: "
           "%s\n",
           timed, timed == 1 ? "" : "s", device_clock());
    printf("   %6s %10s %12s %10s %12s %10s %12s\n", "batch", "H2D ms", "compute ms", "D2H ms",
           "step ms", "transfer", "images/s");
    for (int i = 0; i < N_SWEEP; i++) {
        int B = sweep_batches[i];
        if (B > max_batch || B > set->n)
            break;
        l5_gpu *g = l5_gpu_create(net, B, params, 1e-3);
        sweep_row r = { B, 0, 0, 0 };
        for (int s = 0; s <= timed; s++) {
            l5_step_times t;
            int at = (s * B) % (set->n - B + 1);
            l5_gpu_step(g, set->x + (size_t)at * L5_IMG_PIXELS, y + at, B, NULL, &t);
            if (s == 0)
                continue; /* warm-up: first launches, cuBLAS's first call */
            r.h2d_ms += t.h2d_ms / timed, r.compute_ms += t.compute_ms / timed;
            r.d2h_ms += t.d2h_ms / timed;
        }
        l5_gpu_destroy(g);
        double total = r.h2d_ms + r.compute_ms + r.d2h_ms;
        printf("   %6d %10.3f %12.3f %10.3f %12.3f %9.1f%% %12.0f\n", B, r.h2d_ms, r.compute_ms,
               r.d2h_ms, total, transfer_share(&r), images_per_s(&r));
        rows[n_rows++] = r;
    }
    if (n_rows > 1)
        printf("   as the batch grows from %d to %d: transfer share %.1f%% -> %.1f%%, images/s "
               "%.0f -> %.0f (%s)\n",
               rows[0].batch, rows[n_rows - 1].batch, transfer_share(&rows[0]),
               transfer_share(&rows[n_rows - 1]), images_per_s(&rows[0]),
               images_per_s(&rows[n_rows - 1]), device_clock());
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/sweep-%s.svg", logdir, lab_backend_name());
    write_svg(path, rows, n_rows);
    printf("   plot of the shares: %s\n", path);
    snprintf(path, sizeof(path), "%s/sweep-%s-images.svg", logdir, lab_backend_name());
    if (plot_images_per_s(path, rows, n_rows) == 0)
        printf("   plot of images/s: %s\n", path);
}

/* ---- 5. save, load, evaluate ---------------------------------------------------------- */

static int evaluate_saved(const l5_net *net, const char *dir, const l5_images *test, const int *ty,
                          double *accuracy)
{
    char why[512];
    l5_cpu cpu;
    if (l5_cpu_create(&cpu, net, 256, NULL, 0, 1e-3, why, sizeof(why)) ||
        l5_params_load(net, cpu.params, dir, why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return 0;
    }
    *accuracy = (double)l5_cpu_evaluate(&cpu, test->x, ty, test->n) / test->n;
    l5_cpu_destroy(&cpu);
    return 1;
}

static int only_evaluate(const l5_demo_options *opt, const l5_net *net)
{
    l5_images test;
    char desc[256], why[512];
    double acc;
    if (l5_images_open(&test, opt->data, 0, 0, DATA_SEED, desc, sizeof(desc), why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return LAB_EXIT_USAGE;
    }
    int *ty = labels_as_int(&test);
    int ok = evaluate_saved(net, opt->load, &test, ty, &acc);
    if (ok)
        printf("parameters from %s: test accuracy %.2f%% on %d images (%s)\nPASS\n", opt->load,
               100 * acc, test.n, desc);
    l5_images_free(&test);
    free(ty);
    return ok ? LAB_EXIT_PASS : LAB_EXIT_USAGE;
}

/* ---- the demo ---------------------------------------------------------------------------- */

int l5_demo(const l5_demo_options *opt)
{
    l5_net net;
    l5_images train, test;
    l5_cpu cpu;
    char desc[256], tdesc[256], why[512], run_abs[PATH_MAX], logdir_abs[PATH_MAX];
    const char *logdir = opt->logdir ? opt->logdir : "runs";
    int sim = is_sim();
    int images = opt->full_epoch ? 0 : parse_count("--images", opt->images, sim ? SIM_IMAGES : 0);
    int batch = parse_count("--batch", opt->batch, 256);
    int timed = parse_count("--sweep-steps", opt->sweep_steps, sim ? 1 : 5);
    int sweep_max = parse_count("--sweep-max", opt->sweep_max, sim ? SIM_SWEEP_MAX : 1024);
    l5_net_cnn(&net);
    if (opt->load)
        return only_evaluate(opt, &net);

    printf("lab 05: training the CIFAR-10 CNN (%zu parameters) on the CPU and on the device "
           "(%s backend)\n\n",
           net.n_params, lab_backend_name());
    /* Enough images for the epoch and the sweep's largest batch. */
    int load = images && images < sweep_max ? sweep_max : images;
    if (l5_images_open(&train, opt->data, 1, load, DATA_SEED, desc, sizeof(desc), why,
                       sizeof(why)) ||
        l5_images_open(&test, opt->data, 0, sim ? 500 : 0, DATA_SEED, tdesc, sizeof(tdesc), why,
                       sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return LAB_EXIT_USAGE;
    }
    int *y = labels_as_int(&train), *ty = labels_as_int(&test);
    if (train.n < 8) {
        fprintf(stderr, "need at least 8 training images, have %d\n", train.n);
        return LAB_EXIT_USAGE;
    }

    int step_ok = check_one_step(&net, &train, y);
    if (!step_ok) {
        printf("FAIL (%s backend, %s): the device's training step does not match the CPU's\n",
               lab_backend_name(), GPULAB_VARIANT);
        return LAB_EXIT_FAIL;
    }
    int iris_ok = iris_warmup();

    l5_images epoch = train; /* the first `images` of them */
    if (images && images < epoch.n)
        epoch.n = images;

    printf("\n3. One epoch on the CPU and one on the device: %d images of %s, batch %d, Adam lr "
           "1e-3%s\n",
           epoch.n, desc, batch,
           (sim && !opt->full_epoch && !opt->images)
               ? " (a subset on the simulator: --full-epoch for all of them)"
               : "");
    if (l5_cpu_create(&cpu, &net, batch, NULL, INIT_SEED, 1e-3, why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return LAB_EXIT_FAIL;
    }
    l5_gpu *g = l5_gpu_create(&net, batch, cpu.params, 1e-3);
    float *params0 = l5_xmalloc(sizeof(float) * net.n_params);
    memcpy(params0, cpu.params, sizeof(float) * net.n_params);
    char run_dev[64], run_dir[PATH_MAX];
    snprintf(run_dev, sizeof(run_dev), "device-%s", lab_backend_name());
    if (make_run_dir(logdir, run_dir, sizeof(run_dir), run_abs, sizeof(run_abs), why,
                     sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return LAB_EXIT_FAIL;
    }
    if (!realpath(logdir, logdir_abs))
        snprintf(logdir_abs, sizeof(logdir_abs), "%s", logdir);
    printf("   this run's files (logs, plot, saved model) go to a new folder:\n   %s/\n", run_abs);
    run_log lc, lg;
    log_open(&lc, run_abs, "cpu");
    log_open(&lg, run_abs, run_dev);
    epoch_result rc = run_epoch(&cpu, NULL, &epoch, y, batch, &lc, "CPU epoch");
    epoch_result rg = run_epoch(NULL, g, &epoch, y, batch, &lg, "device epoch");
    log_close(&lc);
    log_close(&lg);
    /* The device's own time for the epoch: the sum of its steps' event
     * times (H2D + compute + D2H), without the host's time between steps. */
    double dev_s = (rg.h2d_ms + rg.compute_ms + rg.d2h_ms) / 1e3;
    printf("   %-8s %12s %12s %12s %12s   %s\n", "", "time s", "images/s", "first loss",
           "last loss", "timed by");
    printf("   %-8s %12.3f %12.0f %12.4f %12.4f   CPU wall clock (C + OpenBLAS)\n", "CPU",
           rc.seconds, epoch.n / rc.seconds, rc.first_loss, rc.last_loss);
    printf("   %-8s %12.3f %12.0f %12.4f %12.4f   CPU wall clock around the device steps%s\n",
           "device", rg.seconds, epoch.n / rg.seconds, rg.first_loss, rg.last_loss,
           sim ? " (the simulator's CPU time)" : "");
    printf("   %-8s %12.4f %12.0f %12s %12s   %s: the steps' device time\n", "device", dev_s,
           dev_s > 0 ? epoch.n / dev_s : 0.0, "", "", device_clock());
    printf("   device time by part (%s): H2D %.2f ms, compute %.2f ms, D2H %.2f ms\n",
           device_clock(), rg.h2d_ms, rg.compute_ms, rg.d2h_ms);
    if (is_modeled() && dev_s > 0)
        printf("   %s: the device epoch takes %.4f s, %.1fx %s than the CPU trainer's %.3f s "
               "(CPU wall clock).\n   Model figures, not measurements (docs/model.md); "
               "GPULAB_SIM_MODEL=off for the simulator's CPU time.\n",
               device_clock(), dev_s, dev_s < rc.seconds ? rc.seconds / dev_s : dev_s / rc.seconds,
               dev_s < rc.seconds ? "faster" : "slower", rc.seconds);
    printf("   (first/last loss: mean over the first/last tenth of the steps)\n");
    printf("   logs: TensorBoard events and steps.csv in %s/ and %s/\n"
           "   (all runs side by side: tensorboard --logdir %s)\n",
           lc.dir, lg.dir, logdir_abs);
    /* With a single step there is no "later" loss to compare. */
    int learned = (epoch.n + batch - 1) / batch < 2 ||
                  (rg.last_loss < rg.first_loss && rc.last_loss < rc.first_loss);

    if (!opt->no_sweep)
        batch_sweep(&net, params0, &train, y, timed, sweep_max, run_abs);

    printf("\n5. Save and load: the device model's parameters as .npy per tensor\n");
    float *trained = l5_xmalloc(sizeof(float) * net.n_params);
    char pdir[sizeof(((run_log *)0)->dir) + 16];
    double acc_loaded = 0;
    l5_gpu_get(g, trained, NULL);
    snprintf(pdir, sizeof(pdir), "%s/params", lg.dir);
    int saved = l5_params_save(&net, trained, pdir, why, sizeof(why)) == 0;
    if (!saved)
        fprintf(stderr, "%s\n", why);
    int dev_correct = l5_gpu_evaluate(g, test.x, ty, test.n);
    int loaded = saved && evaluate_saved(&net, pdir, &test, ty, &acc_loaded);
    double acc_dev = (double)dev_correct / test.n;
    int same = loaded && fabs(acc_loaded - acc_dev) <= 2.0 / test.n;
    printf("   saved to %s/ (%d files); test accuracy on %d images of %s: device %.2f%%, CPU "
           "with the loaded parameters %.2f%%%s\n",
           pdir, net.n_tensors, test.n, tdesc, 100 * acc_dev, 100 * acc_loaded,
           same ? "" : "  DIFFERENT");
    printf("   evaluate them later: %s --load %s\n", "lab05-<backend>-<variant>", pdir);

    l5_gpu_destroy(g);
    l5_cpu_destroy(&cpu);
    l5_images_free(&train);
    l5_images_free(&test);
    free(y);
    free(ty);
    free(params0);
    free(trained);
    int ok = step_ok && iris_ok && learned && same;
    if (!learned)
        printf("the loss did not go down over the epoch\n");
    printf("\n%s (%s backend, %s)\n", ok ? "PASS" : "FAIL", lab_backend_name(), GPULAB_VARIANT);
    return ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}
