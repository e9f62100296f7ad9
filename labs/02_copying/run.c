/*
 * Lab 02's harness (students do not edit it): what every part of the run
 * shares — its facts for result.json, its checks, and the clock its times
 * come from (harness.h).
 */
#include "harness.h"

#include "lab/cuda_timer.h"
#include "lab/timer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void lab02_fact_string(lab02_run *r, const char *key, const char *v)
{
    if (r->facts)
        lab_result_set_string(r->facts, key, v);
}
void lab02_fact_int(lab02_run *r, const char *key, long long v)
{
    if (r->facts)
        lab_result_set_int(r->facts, key, v);
}
void lab02_fact_number(lab02_run *r, const char *key, double v)
{
    if (r->facts)
        lab_result_set_number(r->facts, key, v);
}
void lab02_fact_bool(lab02_run *r, const char *key, int v)
{
    if (r->facts)
        lab_result_set_bool(r->facts, key, v);
}

/* A demo check: prints "ok" or "FAIL" and what to look at. */
int lab02_expect(lab02_run *r, int ok, const char *what, const char *hint)
{
    if (!ok) {
        r->failed = 1;
        printf("  FAIL  %s%s%s\n", what, hint ? " — " : "", hint ? hint : "");
    }
    return ok;
}

/* What produced the times of parts 3 and 4. With the simulator's performance
 * model on, CUDA events read the modeled GPU's clock (docs/model.md). */
const char *lab02_clock_label(const lab02_run *r)
{
    static char modeled[160];
    if (r->gpu) {
        snprintf(modeled, sizeof(modeled),
                 "modeled %.80s by the simulator's performance model: not measured", r->gpu);
        return modeled;
    }
    return r->sim ? "CPU wall clock; simulator figures: CPU work, not a GPU's"
                  : "CPU wall clock around synchronous calls";
}

void lab02_stopwatch_start(lab02_stopwatch *w, const lab02_run *r)
{
    w->r = r;
    w->t0 = lab_wall_seconds();
    if (r->gpu && (lab_cuda_timer_create(&w->events) != cudaSuccess ||
                   lab_cuda_timer_start(&w->events, 0) != cudaSuccess))
        w->r = NULL; /* no events: the model's figure is unknown */
}

/* Seconds since lab02_stopwatch_start on the lab02_run's clock (NAN if events failed);
 * *wall gets the CPU wall clock's seconds. */
double lab02_stopwatch_stop(lab02_stopwatch *w, double *wall)
{
    float ms = 0.0f;
    double t;
    if (!w->r)
        return NAN;
    if (!w->r->gpu) {
        t = lab_wall_seconds() - w->t0;
        *wall = t;
        return t;
    }
    cudaError_t e = lab_cuda_timer_stop(&w->events, 0);
    if (e == cudaSuccess)
        e = lab_cuda_timer_elapsed_ms(&w->events, &ms);
    *wall = lab_wall_seconds() - w->t0;
    lab_cuda_timer_destroy(&w->events);
    return e == cudaSuccess ? ms / 1e3 : NAN;
}

void lab02_fill_nan(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = NAN;
}

size_t lab02_count_differing(const float *a, const float *b, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return d;
}
