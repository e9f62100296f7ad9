/*
 * labs.h — what the grader grades: each lab's checks, and the helpers a check
 * uses to declare them. See CONTRIBUTING.md, "Adding a grader check".
 *
 * A check's prepare() makes its inputs from a seed into a setup directory
 * (the program's fresh directory is filled from it) and says, in a
 * grade_case, what the run must produce:
 *
 *   - outputs: .npy files compared with expected arrays the grader computed
 *     itself (never written where the program can read them), with
 *     |got - want| <= atol + rtol * |want| and NaN never equal;
 *   - facts: members result.json must hold, with a value or a range;
 *   - optionally a judge() for what neither expresses (the case's ctx
 *     carries what it needs);
 *   - the environment of the run, and whether it runs under the simulator's
 *     memcheck (sim backend: the check twin; any report fails the check).
 *
 * A lab's checks live in its folder (labs/NN_x/grader_checks.c), named by
 * its declaration (gpulab_add_lab ... GRADER_CHECKS), and define one
 * grade_lab named grade_lab_<lab>; the build generates the list of labs from
 * the labs declared (grade_lab_list.h; the build's fixture lab is
 * grader/checks/fixture.c). A check is one row of its lab's table:
 * name, points, time limit, prepare, and the argument prepare reads.
 */
#ifndef GRADE_LABS_H
#define GRADE_LABS_H

#include <stddef.h>

#include "json.h"
#include "lab/npy.h"

#define GRADE_MAX_OUTPUTS 16
#define GRADE_MAX_FACTS 32
#define GRADE_MAX_ENV 8

/* An output the program must write, and the expected array it is compared with. */
typedef struct grade_output {
    char name[64]; /* file name without .npy */
    lab_npy_array expected;
    double atol, rtol; /* |got - want| <= atol + rtol * |want|, NaN never equal */
} grade_output;

typedef enum grade_fact_kind {
    GRADE_FACT_PRESENT, /* the member exists, whatever its value */
    GRADE_FACT_EQUALS,  /* its value is this JSON value (numbers compared as numbers) */
    GRADE_FACT_RANGE    /* its value is a number in [lo, hi] */
} grade_fact_kind;

/* A fact result.json must hold. */
typedef struct grade_fact {
    char key[64];
    grade_fact_kind kind;
    char want[256]; /* GRADE_FACT_EQUALS: the JSON text, e.g. "6", "\"cudaErrorIllegalAddress\"" */
    double lo, hi;  /* GRADE_FACT_RANGE */
    char hint[160]; /* said after the reason when it fails ("" for none) */
} grade_fact;

typedef struct grade_case grade_case;

/* A check's own argument, from its row in the lab's table (a size, a
 * version, a shape, a name): the prepare function reads it from c->arg, so
 * one prepare serves every row of its kind. */
typedef struct grade_arg {
    int i[4];      /* numbers, meaning what the prepare function says */
    const char *s; /* a string, or NULL */
} grade_arg;

/* What a check sees of the run it prepares for. */
typedef struct grade_env {
    const char *dir;         /* the setup directory: write inputs here */
    unsigned long long seed; /* the grading seed */
    const char *backend;     /* "cuda" or "sim" */
    const char *bin;         /* where the lab programs and grader tools are */
} grade_env;

/* After outputs and facts passed: the last word on a run. Returns 1 when it
 * passes, else 0 with a one-line reason in why. outdir holds what the
 * program wrote; stdout_text and stderr_text what it printed (kept part). */
typedef int (*grade_judge_fn)(const grade_case *c, const grade_json_object *result,
                              const char *outdir, const char *stdout_text, const char *stderr_text,
                              char *why, size_t why_len);

/* One check, made ready: inputs written, expected outputs computed. */
struct grade_case {
    grade_output outputs[GRADE_MAX_OUTPUTS];
    int n_outputs;
    grade_fact facts[GRADE_MAX_FACTS];
    int n_facts;
    char env[GRADE_MAX_ENV][256]; /* "NAME=value" for the run */
    int n_env;
    int memcheck;         /* sim: 1 runs under GPULAB_SIM_CHECK=memcheck, 2 under =all (racecheck,
                           * synccheck, initcheck too); a report fails the check */
    char check_hint[200]; /* said after such a report: where its cause likely is ("" none) */
    int attempts;         /* runs before it fails (0 or 1: one); for checks that judge timings */
    int expect_status;    /* the exit status that counts as a completed run (default 0) */
    grade_judge_fn judge;
    grade_arg arg; /* the check's row's argument (grade_check.arg), set before prepare */
    void *ctx;     /* for judge; freed with ctx_free (or free when NULL) */
    void (*ctx_free)(void *ctx);
    int failed; /* set by the helpers below when they could not record */
    /* sim: the run's report key (sim_report.h), set by the grader before judge() runs; ""
     * when the run had none. A judge reads the simulator's lines with it. */
    char sim_key[40];
};

typedef struct grade_check {
    const char *name;
    double points;
    double time_limit; /* seconds of wall time */
    /* Writes the inputs into env->dir and fills c; returns 0, or -1 with why
     * (a grader fault: the check then scores 0 saying so). c->arg holds arg. */
    int (*prepare)(grade_case *c, const grade_env *env, char *why, size_t why_len);
    grade_arg arg; /* what this row asks of prepare: { { n, threads } }, { .s = "2" } */
} grade_check;

typedef struct grade_lab {
    const char *name;  /* program name prefix: <name>-<backend>-<variant> */
    const char *title; /* one line for the report */
    const grade_check *checks;
    int n_checks;
    const char *dir; /* its folder in labs/ ("03_kernels"), for build messages */
} grade_lab;

#define GRADE_COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))

/* The labs this grader knows, and their number. */
const grade_lab *grade_labs(int *count);
/* Whether lab (from grade_labs) is the build's own test lab: graded only when
 * named with --lab, and defined only in builds with tests (BUILD_TESTING). */
int grade_lab_internal(const grade_lab *lab);
void grade_case_free(grade_case *c);

/* ---- helpers for prepare() ---------------------------------------------- */

/* Writes env->dir/<name>.npy. Returns 0, or -1 with why. */
int grade_write_input(const grade_env *env, const char *name, lab_dtype dtype, int ndim,
                      const size_t *shape, const void *data, char *why, size_t why_len);
/* Declares an output the program must write: <name>.npy with this dtype and
 * shape, compared with want (malloc'd; the case owns it from here, even on
 * error). Returns 0, or -1 with why. */
int grade_expect_output(grade_case *c, const char *name, lab_dtype dtype, int ndim,
                        const size_t *shape, void *want, double atol, double rtol, char *why,
                        size_t why_len);
/* result.json must have key. */
void grade_expect_fact(grade_case *c, const char *key, const char *hint);
/* result.json's key must be this JSON value (numbers compare as numbers). */
void grade_expect_fact_json(grade_case *c, const char *key, const char *json, const char *hint);
void grade_expect_fact_int(grade_case *c, const char *key, long long want, const char *hint);
void grade_expect_fact_string(grade_case *c, const char *key, const char *want, const char *hint);
void grade_expect_fact_bool(grade_case *c, const char *key, int want, const char *hint);
/* result.json's key must be a number in [lo, hi]. */
void grade_expect_fact_range(grade_case *c, const char *key, double lo, double hi,
                             const char *hint);
/* Adds NAME=value to the run's environment. */
void grade_case_setenv(grade_case *c, const char *name, const char *value);

/* ---- what the grader does with a case (main.c, and tests) ---------------- */

/* Whether the output file at path matches o; 1, or 0 with why. */
int grade_judge_output(const char *path, const grade_output *o, char *why, size_t why_len);
/* Whether result.json's object holds c's facts; 1, or 0 with why. */
int grade_judge_facts(const grade_case *c, const grade_json_object *result, char *why,
                      size_t why_len);

#endif
