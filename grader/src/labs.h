/*
 * labs.h — what the grader grades: each lab's checks. A check makes its
 * inputs from a seed (into a setup directory the program's fresh directory
 * is filled from), keeps the expected outputs in the grader's memory (never
 * where the program can read them), and says how close an output must be.
 */
#ifndef GRADE_LABS_H
#define GRADE_LABS_H

#include <stddef.h>

#include "lab/npy.h"

#define GRADE_MAX_OUTPUTS 8

/* An output the program must write, and the expected array it is compared with. */
typedef struct grade_output {
    char name[64]; /* file name without .npy */
    lab_npy_array expected;
    double atol, rtol; /* |got - want| <= atol + rtol * |want|, NaN never equal */
} grade_output;

/* One check, made ready: inputs written, expected outputs computed. */
typedef struct grade_case {
    grade_output outputs[GRADE_MAX_OUTPUTS];
    int n_outputs;
    char result_key[64]; /* a fact result.json must hold ("" for none) */
} grade_case;

typedef struct grade_check {
    const char *name;
    double points;
    double time_limit; /* seconds of wall time */
    /* Writes the inputs into dir and fills c; returns 0, or -1 with why. */
    int (*prepare)(grade_case *c, const char *dir, unsigned long long seed, char *why,
                   size_t why_len);
} grade_check;

typedef struct grade_lab {
    const char *name; /* program name prefix: <name>-<backend>-<variant> */
    const char *title;
    const grade_check *checks;
    int n_checks;
} grade_lab;

/* The labs this grader knows, and their number. */
const grade_lab *grade_labs(int *count);
void grade_case_free(grade_case *c);

#endif
