/*
 * model-check's shared pieces: the options, the table of cases and rankings
 * its parts fill, and what each part gives the others.
 *
 *   model_check.cu  the profiles, the options, main
 *   cases.cu        the timed cases: the labs' kernels, copies and cuBLAS calls
 *   corpus.cu       the cases of the corpus of published measurements
 *   report.cu       the modeled times (the sim build, run once per profile),
 *                   the rankings and the tables
 */
#ifndef GPULAB_MODEL_CHECK_H
#define GPULAB_MODEL_CHECK_H

#include <limits.h>
#include <stddef.h>

/* MC_SIM: the sim build's code (the model alone). MC_GPU_PATH_ON_SIM builds
 * the GPU's code on the simulator instead, for its test (CMakeLists.txt). */
#if defined(GPULAB_BACKEND_SIM) && GPULAB_BACKEND_SIM && !defined(MC_GPU_PATH_ON_SIM)
#define MC_SIM 1
#else
#define MC_SIM 0
#endif

#define MC_MAX_CASES 160
#define MC_MAX_PROFILES 16
#define MC_WHAT 80

/* The model's profiles (sim/runtime/model.cpp), and the names the CUDA
 * runtime gives the same boards (cudaDeviceProp.name). Only the exact board
 * of a profile matches: an RTX 3060 Ti or an A100X has other clocks or
 * bandwidth, and --gpu compares against a profile anyway. */
typedef struct mc_profile {
    const char *key;
    const char *names[3];
} mc_profile;

extern const mc_profile profiles[];
extern const int mc_profile_count;
#define MC_PROFILES mc_profile_count

/* One timed case: what the tables show, and its time in microseconds (one
 * column per profile on sim; measured and modeled on cuda). */
typedef struct mc_case {
    char lab[8];
    char what[MC_WHAT];
    double us[MC_MAX_PROFILES];
    double amount; /* --published: bytes or flops as the published figure counts them */
    char unit[8];  /* ... and the unit of its rate, "GB/s" or "TFLOP/s" ("" for none) */
} mc_case;

/* A lesson's ranking: `faster` must take less time than `slower`. */
typedef struct mc_rank {
    char lab[8];
    char faster[MC_WHAT], slower[MC_WHAT];
} mc_rank;

typedef struct mc_options {
    int quick;          /* small sizes (the tests) */
    int tsv;            /* internal: print the cases as lines for the caller to read */
    int published;      /* sim: the cases of the published comparisons (docs/model-validation.md) */
    int reps, warmup;   /* timed runs and warm-up runs of each case */
    const char *gpu;    /* a profile key, "all" (sim) or NULL (cuda: match the device) */
    const char *out;    /* Markdown file or folder, or NULL */
    const char *sim;    /* the sim program (cuda), or NULL: model-check-sim beside this one */
    const char *corpus; /* --corpus FILE: the corpus cases it lists (corpus.cu), or NULL */
    char out_path[PATH_MAX];
} mc_options;

/* The table the parts fill (model_check.cu holds it). */
extern mc_case cases[MC_MAX_CASES];
extern int ncases;
extern mc_rank ranks[16];
extern int nranks;

/* model_check.cu */
int profile_index(const char *key);
int case_index(const char *lab, const char *what);
void add_rank(const char *lab, const char *faster, const char *slower);

/* corpus.cu: the corpus cases FILE lists ("-": stdin), timed into column 0;
 * 0, or -1 after saying what was wrong. */
int corpus_cases(const mc_options *opt, const char *path);

/* cases.cu: every case, timed with events into column 0 of the table. */
void run_all(const mc_options *opt);
#if MC_SIM
void published_cases(const mc_options *opt);
#endif

/* report.cu */
int settle_out(mc_options *opt, const char *stem);
#if MC_SIM
int report_published(mc_options *opt, const int *cols, int ncols);
int report_sim(mc_options *opt, const int *cols, int ncols);
#else
int report_cuda(mc_options *opt, const char *device, int prof);
#endif

#endif
