/*
 * grade.h — gpulab-grade's options and its modes: grading the programs in a
 * bin directory (main.c), a folder of submissions (batch.c) and the
 * Gradescope bundle (package.c).
 */
#ifndef GRADE_GRADE_H
#define GRADE_GRADE_H

#include "report.h"

#define GRADE_DEFAULT_SEED 20261123ull

typedef struct options {
    int student, solution;
    char backend[16]; /* auto, cuda, sim */
    unsigned long long seed;
    char bin[4096];  /* where the lab programs are */
    char self[4096]; /* this program */
    const char *lab;
    const char *json, *junit, *gradescope, *summary;
    double time_limit; /* overrides every check's, when > 0 */
    int quiet;
    int jobs;
    const char *submission, *batch, *package;
    const char *source;    /* the kit's sources */
    const char *build_dir; /* --submission */
    const char *out;       /* --batch */
} options;

struct grade_lab;
/* Whether to grade lab: the one named by --lab, else every lab but internal ones. */
int grade_wanted(const options *o, const struct grade_lab *lab);
/* Submissions graded at a time by default: half the cores, at least one. */
int grade_default_jobs(void);
/* Grades every submission folder in o->batch; returns the exit status. */
int grade_batch(const options *o);
/* Writes the Gradescope autograder bundle into o->package; returns the exit status. */
int grade_package_gradescope(const options *o);

#endif
