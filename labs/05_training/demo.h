/*
 * demo.h - lab 05's demo mode (demo.c): the options and the entry point.
 */
#ifndef L5_DEMO_H
#define L5_DEMO_H

#include "lab/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

#define L5_DEMO_MAX_FLAGS 12

typedef struct l5_demo_options {
    const char *data;        /* --data DIR: CIFAR-10 binary batches */
    const char *images;      /* --images N: training images per epoch */
    const char *batch;       /* --batch N */
    const char *sweep_steps; /* --sweep-steps N */
    const char *sweep_max;   /* --sweep-max N */
    const char *logdir;      /* --logdir DIR */
    const char *load;        /* --load DIR: evaluate saved parameters */
    int full_epoch;          /* --full-epoch */
    int no_sweep;            /* --no-sweep */
} l5_demo_options;

/* Fills flags (at most L5_DEMO_MAX_FLAGS) pointing into opt; returns how many. */
size_t l5_demo_flags(lab_flag *flags, l5_demo_options *opt);
/* Runs the demo; returns the exit status. */
int l5_demo(const l5_demo_options *opt);

#ifdef __cplusplus
}
#endif

#endif
