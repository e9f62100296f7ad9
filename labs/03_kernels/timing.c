/*
 * Lab 03's harness (students do not edit it): part 4 of the demo, launch
 * overhead against work. vec_add and a plain CPU loop timed for N = 2^10 ..
 * 2^max, each time saying what produced it, the crossover, and the plot
 * launch_overhead.svg.
 */
#include "harness.h"
#include "kernels.h"

#include "lab/alloc.h"
#include "lab/check.h"
#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab/devio.h"
#include "lab/plot.h"
#include "lab/timer.h"

#include <stdio.h>
#include <stdlib.h>

/* What one timing sample runs. */
typedef struct timing_ctx {
    float *d_a, *d_b, *d_c;
    float *h_a, *h_b, *h_c;
    int n;
} timing_ctx;

static void kernel_once(void *p)
{
    timing_ctx *t = p;
    lab03_launch u;
    vec_add(t->d_c, t->d_a, t->d_b, t->n, 256, &u);
}

static void cpu_once(void *p)
{
    timing_ctx *t = p;
    lab03_vec_add_cpu(t->h_c, t->h_a, t->h_b, (size_t)t->n);
}

/* What produced the kernel column, in a sentence under the table's title. */
static void print_kernel_clock(const char *clock, const char *gpu, int sim)
{
    printf("   kernel: %s, one launch, data already on the device; CPU loop: CPU wall clock\n",
           clock);
    if (gpu)
        printf("   (modeled: the simulator's performance model turns the memory sectors and the\n"
               "   launch configuration it counted into the time this launch would take on an\n"
               "   %s - a model figure, not a measurement; docs/model.md. GPULAB_SIM_MODEL=a100\n"
               "   models another GPU, GPULAB_SIM_MODEL=off shows simulator CPU time)\n",
               gpu);
    else if (sim)
        printf("   (sim backend: the kernel times are simulator CPU times - this CPU running\n"
               "   every GPU thread - not GPU figures; GPULAB_SIM_MODEL=t4 models a T4)\n");
}

/* Time per element against N for both, as launch_overhead.svg in the
 * working directory; says where it went. */
static void plot_timing(const double *ns, const double *kernel_ns, const double *cpu_ns, int n,
                        const char *clock, const char *gpu, int sim)
{
    const char *path = "launch_overhead.svg";
    char kernel_label[128], title[128], note[256], where[4200];
    snprintf(kernel_label, sizeof(kernel_label), "kernel (%.100s)", clock);
    lab_plot_series series[2] = { { kernel_label, "#d62728", kernel_ns },
                                  { "CPU loop (CPU wall clock)", "#1f77b4", cpu_ns } };
    snprintf(title, sizeof(title), "vec_add: time per element, %s backend", lab_backend_name());
    if (gpu)
        snprintf(note, sizeof(note),
                 "kernel: MODELED %.60s (simulator's performance model, not measured);\n"
                 "CPU loop: this machine's CPU wall clock. Data already on the device.",
                 gpu);
    else if (sim)
        snprintf(note, sizeof(note),
                 "SIMULATOR FIGURES, not a GPU's: the kernel is this CPU running every GPU\n"
                 "thread (simulator CPU time); CPU loop: CPU wall clock");
    else
        snprintf(note, sizeof(note),
                 "kernel: CUDA events on the GPU; CPU loop: CPU wall clock.\n"
                 "Data already on the device.");
    lab_plot_spec spec = { title,
                           note,
                           "N (elements, log scale)",
                           "time per element (ns, log scale)",
                           LAB_PLOT_X_POW2,
                           1,
                           ns,
                           n,
                           series,
                           2 };
    lab_error err;
    if (lab_plot_svg(path, &spec, &err) != LAB_OK) {
        printf("   no plot: %s\n", err.msg);
        return;
    }
    lab_plot_where(where, sizeof(where), path);
    printf("   plot: %s (time per element vs N; open it in a web browser)\n", where);
}

int lab03_demo_timing(int max_log2)
{
    const int sim = lab_backend_is_sim();
    int failures = 0;
    const size_t max_n = (size_t)1 << max_log2;
    const char *clock = lab_cuda_timer_clock_name(), *gpu = lab_cuda_timer_modeled_gpu();
    timing_ctx t;
    int first_win = -1, rows = 0;
    double xs[32], kernel_ns[32], cpu_ns[32];
    double start = lab_wall_seconds();

    printf("\n4. Launch overhead vs work: vec_add (256 threads per block) against a CPU loop\n");
    print_kernel_clock(clock, gpu, sim);
    printf("   bytes moved per element: 12 (read a[i], b[i], write c[i])\n\n");
    printf("   %9s %16s %16s %12s %12s   %s\n", "N", "kernel [us]", "CPU loop [us]", "kernel GB/s",
           "kernel/CPU", "faster");

    t.h_a = lab_xmalloc(sizeof(float) * max_n);
    t.h_b = lab_xmalloc(sizeof(float) * max_n);
    t.h_c = lab_xmalloc(sizeof(float) * max_n);
    for (size_t i = 0; i < max_n; i++) {
        t.h_a[i] = (float)(i % 1000) * 0.5f;
        t.h_b[i] = 1.0f;
    }
    t.d_a = lab_to_device(t.h_a, sizeof(float) * max_n);
    t.d_b = lab_to_device(t.h_b, sizeof(float) * max_n);
    t.d_c = lab_device_output(sizeof(float) * max_n);

    for (int k = 10; k <= max_log2; k++, rows++) {
        lab_time_stats ks, cs;
        lab_error err;
        t.n = 1 << k;
        /* Enough repetitions for a stable median, fewer for the big sizes. */
        int reps = k <= 16 ? 20 : k <= 20 ? 10 : 3;
        LAB_CHECK_STATUS(lab_cuda_time_repeat(&ks, kernel_once, &t, 1, reps, 0, &err), &err);
        LAB_CHECK_STATUS(lab_time_repeat(&cs, cpu_once, &t, 1, reps, &err), &err);
        double kus = ks.median * 1e6, cus = cs.median * 1e6;
        /* kernel GB/s = 12 bytes per element / kernel time */
        printf("   %9d %16.1f %16.1f %12.2f %12.2f   %s\n", t.n, kus, cus,
               12.0 * t.n / ks.median / 1e9, kus / cus, kus < cus ? "kernel" : "CPU");
        xs[rows] = t.n;
        kernel_ns[rows] = kus * 1e3 / t.n;
        cpu_ns[rows] = cus * 1e3 / t.n;
        if (kus < cus && first_win < 0)
            first_win = k;
        else if (kus >= cus)
            first_win = -1;
    }
    /* The largest size, checked against the CPU loop (what was timed must be right). */
    lab_from_device(t.h_c, t.d_c, sizeof(float) * (size_t)t.n);
    for (int i = 0; i < t.n; i++) {
        if (t.h_c[i] != t.h_a[i] + t.h_b[i]) {
            printf("   the timed kernel is WRONG at c[%d]: %g, want %g\n", i, t.h_c[i],
                   t.h_a[i] + t.h_b[i]);
            failures++;
            break;
        }
    }
    printf("\n   ");
    if (first_win >= 0)
        printf("Crossover: the kernel (%s) beats the CPU loop (CPU wall clock)\n"
               "   from N = 2^%d = %d on.",
               clock, first_win, 1 << first_win);
    else
        printf("No crossover: the kernel (%s) never beats the CPU loop (CPU wall clock)\n"
               "   up to N = 2^%d.",
               clock, max_log2);
    if (gpu)
        printf("\n   Below it the launch latency the model charges outweighs the work; as N\n"
               "   grows the kernel nears the %s's memory bandwidth (the GB/s column).\n",
               gpu);
    else if (sim)
        printf("\n   That is a simulator figure (%s against CPU wall clock),\n"
               "   not a GPU one: GPULAB_SIM_MODEL=t4 models a T4; the cuda build on a GPU\n"
               "   measures the real crossover.\n",
               clock);
    else
        printf(" Below that, launch overhead outweighs the work.\n");
    plot_timing(xs, kernel_ns, cpu_ns, rows, clock, gpu, sim);
    printf("   (table measured in %.1f s of CPU wall clock%s)\n", lab_wall_seconds() - start,
           max_log2 < 24   ? "; without --quick it goes on to N = 2^24"
           : max_log2 < 26 ? "; --full goes on to N = 2^26"
                           : "");
    lab_device_free(t.d_a);
    lab_device_free(t.d_b);
    lab_device_free(t.d_c);
    free(t.h_a);
    free(t.h_b);
    free(t.h_c);
    return failures;
}
