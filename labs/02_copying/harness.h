/*
 * harness.h — what the files of lab 02's harness share (main.c, run.c,
 * part_moves.c, part_costs.c, part_errors.c). Students do not edit it.
 *
 * A run is the demo or one graded run: each part prints what it found,
 * checks it (lab02_expect), and in graded mode records it in result.json
 * (lab02_fact_*).
 */
#ifndef LAB02_HARNESS_H
#define LAB02_HARNESS_H

#include "lab/cuda_timer.h"
#include "lab/protocol.h"
#include "lab/rng.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LAB02_LOG_N 100      /* the logging exercise: n x n matrices */
#define LAB02_LOG_STEPS 1000 /* ... and this many products */
#define LAB02_LOG_GROWTH 1.005f
#define LAB02_PIECE 4096 /* bytes per piece in "one copy vs pieces" */

/* What the program was asked and where things go. */
typedef struct lab02_run {
    const lab_args *args; /* graded mode, or NULL in the demo */
    lab_result *facts;    /* result.json in graded mode; NULL in the demo */
    int sim;              /* running on the simulator */
    int failed;           /* a demo check failed */
    const char *gpu;      /* the GPU the performance model models, or NULL (times measured) */
} lab02_run;

/* A fact for result.json (graded mode; nothing in the demo). */
void lab02_fact_string(lab02_run *r, const char *key, const char *v);
void lab02_fact_int(lab02_run *r, const char *key, long long v);
void lab02_fact_number(lab02_run *r, const char *key, double v);
void lab02_fact_bool(lab02_run *r, const char *key, int v);

/* A check: prints "FAIL" and what to look at when !ok, and marks the run
 * failed. Returns ok. */
int lab02_expect(lab02_run *r, int ok, const char *what, const char *hint);

/* What produced the times of parts 3 and 4, in words. With the simulator's
 * performance model on, CUDA events read the modeled GPU's clock (docs/model.md). */
const char *lab02_clock_label(const lab02_run *r);

/* The clock of parts 3 and 4: CUDA events on the modeled clock when the model
 * is on, else the CPU wall clock around the synchronous calls. */
typedef struct lab02_stopwatch {
    const lab02_run *r;
    lab_cuda_timer events;
    double t0;
} lab02_stopwatch;

void lab02_stopwatch_start(lab02_stopwatch *w, const lab02_run *r);

/* Seconds since lab02_stopwatch_start on the run's clock (NAN if events
 * failed); *wall gets the CPU wall clock's seconds. */
double lab02_stopwatch_stop(lab02_stopwatch *w, double *wall);

/* x[0..n) = NaN, so a result nobody wrote shows. */
void lab02_fill_nan(float *x, size_t n);

/* How many of n floats differ bit for bit. */
size_t lab02_count_differing(const float *a, const float *b, size_t n);

/* 1. round trips: h_x through roundtrip_raw into h_raw and roundtrip_tensor into h_tensor. */
void lab02_part_roundtrip(lab02_run *r, const float *h_x, size_t n, float *h_raw, float *h_tensor);

/* 2. between devices: the peer copy of h_a into h_peer (two devices), and
 * h_a + h_b across devices, refused then fixed, into h_sum. */
void lab02_part_devices(lab02_run *r, const float *h_a, const float *h_b, size_t n, float *h_peer,
                        float *h_sum);

/* 3. what copies cost: the sweep over sizes[0..n) (sweep: n x 5 seconds, or
 * NULL), its plot at svg_path, and one copy against pieces of pieces_bytes. */
void lab02_part_bandwidth(lab02_run *r, const size_t *sizes, int n, size_t pieces_bytes,
                          const char *svg_path, double *sweep);

/* 4. logging: A = s (I - 2uu')(I - 2vv') (n x n, n <= LAB02_LOG_N), whose
 * products multiply the Frobenius norm by s. */
void lab02_make_log_matrix(float *A, int n, float s, lab_rng *rng);

/* 4. logging: `steps` products of A, the norm logged every step into h_every
 * and on the device into h_device. */
void lab02_part_logging(lab02_run *r, const float *h_A, const float *h_X0, int n, int steps,
                        float *h_every, float *h_device);

/* 5. errors, each provoked on purpose (probe: the value the host-read test
 * puts on the device). Last in a run: it resets the device. */
void lab02_part_errors(lab02_run *r, float probe);

#ifdef __cplusplus
}
#endif

#endif
