/*
 * demo_parts.h - lab 05's demo (harness), the sections in files of their
 * own: demo.c runs them in order (its opening comment lists them).
 */
#ifndef L5_DEMO_PARTS_H
#define L5_DEMO_PARTS_H

#include "data.h"
#include "net.h"

/* The parameters' seed every trainer of the demo starts from. */
#define L5_DEMO_INIT_SEED 1ULL

/* Section 1 (demo_step.c): one training step of B samples on the device
 * against the CPU trainer, and where a difference starts; 1 when they match. */
int l5_demo_check_one_step(const l5_net *net, const l5_images *set, const int *y);

/* Section 4 (demo_sweep.c): `timed` steps per batch size up to max_batch
 * from params, split into copies and compute; table and SVGs into logdir. */
void l5_demo_batch_sweep(const l5_net *net, const float *params, const l5_images *set, const int *y,
                         int timed, int max_batch, const char *logdir);

#endif
