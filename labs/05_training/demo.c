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
 * Section 1 is in demo_step.c, section 4 in demo_sweep.c (demo_parts.h).
 */
#define _XOPEN_SOURCE 700 /* realpath, gethostname, localtime_r */
#include "demo.h"
#include "demo_parts.h"

#include "data.h"
#include "device_train.h"
#include "diagnose.h"
#include "net.h"
#include "tfevents.h"

#include "lab/alloc.h"
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
    int *y = lab_xmalloc(sizeof(int) * (size_t)(set->n ? set->n : 1));
    for (int i = 0; i < set->n; i++)
        y[i] = set->label[i];
    return y;
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
    int *y = lab_xmalloc(sizeof(int) * (size_t)t.n);
    for (int i = 0; i < t.n; i++)
        y[i] = t.label[i];
    if (l5_cpu_create(&cpu, &net, t.n, NULL, L5_DEMO_INIT_SEED, 0.01, why, sizeof(why))) {
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

/* The whole process's CPU time (CLOCK_PROCESS_CPUTIME_ID): unlike the wall
 * clock, it does not grow when other programs share the cores. */
static double process_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct epoch_result {
    double seconds;                    /* CPU wall clock around the whole epoch */
    double cpu_seconds;                /* the process's CPU time over it, every thread */
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
    double t0 = lab_wall_seconds(), c0 = process_cpu_seconds();
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
    r.cpu_seconds = process_cpu_seconds() - c0;
    lab_progress_destroy(p);
    r.first_loss = (float)(first / tenth);
    r.last_loss = (float)(last / tenth);
    return r;
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

    int step_ok = l5_demo_check_one_step(&net, &train, y);
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
    if (l5_cpu_create(&cpu, &net, batch, NULL, L5_DEMO_INIT_SEED, 1e-3, why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return LAB_EXIT_FAIL;
    }
    l5_gpu *g = l5_gpu_create(&net, batch, cpu.params, 1e-3);
    float *params0 = lab_xmalloc(sizeof(float) * net.n_params);
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
    if (sim && !is_modeled() && rc.cpu_seconds > 0 && rg.cpu_seconds > 0)
        printf("   process CPU time (every thread; steady when other programs share the cores): "
               "CPU trainer %.3f s, %.0f images per CPU-second; device on the simulator %.3f s, "
               "%.0f per CPU-second: %.3f of the CPU trainer's\n",
               rc.cpu_seconds, epoch.n / rc.cpu_seconds, rg.cpu_seconds, epoch.n / rg.cpu_seconds,
               rc.cpu_seconds / rg.cpu_seconds);
    printf("   (first/last loss: mean over the first/last tenth of the steps)\n");
    printf("   logs: TensorBoard events and steps.csv in %s/ and %s/\n"
           "   (all runs side by side: tensorboard --logdir %s)\n",
           lc.dir, lg.dir, logdir_abs);
    /* With a single step there is no "later" loss to compare. */
    int learned = (epoch.n + batch - 1) / batch < 2 ||
                  (rg.last_loss < rg.first_loss && rc.last_loss < rc.first_loss);

    if (!opt->no_sweep)
        l5_demo_batch_sweep(&net, params0, &train, y, timed, sweep_max, run_abs);

    printf("\n5. Save and load: the device model's parameters as .npy per tensor\n");
    float *trained = lab_xmalloc(sizeof(float) * net.n_params);
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
