/*
 * bench_cpu.c - lab 05's CPU trainer, timed: one epoch over CIFAR-shaped
 * images, batch 256, Adam: for each batch, forward, cross-entropy loss,
 * backward, one Adam step.
 *
 *   bench-lab05-cpu [--images N] [--batch B] [--data DIR] [--write FILE]
 *
 * Prints `c_trainer images_per_s=... seconds=... threads=... cpu_pct=... cpu_images_per_s=...
 * peak_rss_mb=...` (one line a script can read). The trainer's threads come from
 * GPULAB_LAB05_THREADS (default: one per online CPU); the losses are printed in full, as they do
 * not depend on the thread count. The time is the CPU wall clock (lab_wall_seconds) around the
 * epoch's training steps only (data loading excluded, as for PyTorch in bench_torch.py); cpu_pct
 * is the process's CPU time over the same steps (CLOCK_PROCESS_CPUTIME_ID, every thread) as a
 * share of that wall time, 100 per core kept busy, and cpu_images_per_s the images per second
 * of that CPU time. Peak memory is the process's peak resident set (getrusage ru_maxrss), the
 * data set included (data_mb says how much of it the images are). --write FILE also saves the
 * images as a CIFAR-10 binary batch for bench_torch.py, so both train on the same bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include "data.h"
#include "net.h"

#include "lab/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_seconds(void) /* the whole process's CPU time, every thread */
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int images = 10000, batch = 256;
    const char *data = NULL, *write = NULL;
    char desc[256], why[512];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--images") && i + 1 < argc)
            images = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--batch") && i + 1 < argc)
            batch = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--data") && i + 1 < argc)
            data = argv[++i];
        else if (!strcmp(argv[i], "--write") && i + 1 < argc)
            write = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--images N] [--batch B] [--data DIR] [--write FILE]\n",
                    argv[0]);
            return 2;
        }
    }
    l5_images set;
    if (l5_images_open(&set, data, 1, images, 2024, desc, sizeof(desc), why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return 1;
    }
    if (write && l5_cifar_write(write, &set, why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return 1;
    }
    int *y = malloc(sizeof(int) * (size_t)set.n);
    for (int i = 0; i < set.n; i++)
        y[i] = set.label[i];
    l5_net net;
    l5_cpu cpu;
    l5_net_cnn(&net);
    if (l5_cpu_create(&cpu, &net, batch, NULL, 1, 1e-3, why, sizeof(why))) {
        fprintf(stderr, "%s\n", why);
        return 1;
    }
    float first = 0, last = 0;
    double c0 = cpu_seconds(), t0 = lab_wall_seconds();
    for (int at = 0; at < set.n; at += batch) {
        int B = set.n - at < batch ? set.n - at : batch;
        last = l5_cpu_step(&cpu, set.x + (size_t)at * L5_IMG_PIXELS, y + at, B, NULL);
        if (at == 0)
            first = last;
    }
    double secs = lab_wall_seconds() - t0, used = cpu_seconds() - c0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("# %d images of %s, batch %d; loss %.9g -> %.9g\n", set.n, desc, batch, first, last);
    printf("c_trainer images_per_s=%.1f seconds=%.3f threads=%d cpu_pct=%.0f cpu_images_per_s=%.1f "
           "peak_rss_mb=%.1f data_mb=%.1f\n",
           set.n / secs, secs, cpu.threads, 100.0 * used / secs, set.n / used,
           ru.ru_maxrss / 1024.0, (double)set.n * L5_IMG_PIXELS * sizeof(float) / 1048576.0);
    l5_cpu_destroy(&cpu);
    l5_images_free(&set);
    free(y);
    return 0;
}
