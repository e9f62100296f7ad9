/*
 * demo_sweep.c - section 4 of lab 05's demo (harness; demo.c runs it): the
 * batch-size sweep 32 ... 1024, each step split into host-to-device copy,
 * compute and device-to-host copy (a table and two SVGs: the shares by part,
 * images/s). Times come from CUDA events: on the sim backend the
 * performance model's clock ("modeled NVIDIA T4", docs/model.md) unless it
 * is off.
 */
#define _XOPEN_SOURCE 700 /* PATH_MAX */
#include "demo.h"
#include "demo_parts.h"

#include "device_train.h"

#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab/plot.h"
#include "lab/timer.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            left, lab_backend_name(), lab_cuda_timer_clock_name());
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
    snprintf(note, sizeof(note), "%s%s", lab_cuda_timer_clock_name(),
             lab_cuda_timer_modeled_gpu() ? ": model figures, not measurements (docs/model.md)"
             : lab_backend_is_sim()       ? ": the simulator's CPU time, not a GPU's"
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

void l5_demo_batch_sweep(const l5_net *net, const float *params, const l5_images *set, const int *y,
                         int timed, int max_batch, const char *logdir)
{
    sweep_row rows[N_SWEEP];
    int n_rows = 0;
    printf("\n4. Batch-size sweep: one step = host-to-device copy of the batch + compute "
           "(forward, backward, Adam) + device-to-host copy of losses and logits\n");
    printf("   per step, mean of %d timed step%s after one warm-up step; times from CUDA events: "
           "%s\n",
           timed, timed == 1 ? "" : "s", lab_cuda_timer_clock_name());
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
               images_per_s(&rows[n_rows - 1]), lab_cuda_timer_clock_name());
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/sweep-%s.svg", logdir, lab_backend_name());
    write_svg(path, rows, n_rows);
    printf("   plot of the shares: %s\n", path);
    snprintf(path, sizeof(path), "%s/sweep-%s-images.svg", logdir, lab_backend_name());
    if (plot_images_per_s(path, rows, n_rows) == 0)
        printf("   plot of images/s: %s\n", path);
}
