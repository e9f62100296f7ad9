/*
 * grade.h — gpulab-grade's options and its modes: grading the programs in a
 * bin directory (main.c), a folder of submissions (batch.c) and the
 * Gradescope bundle (package.c).
 */
#ifndef GRADE_GRADE_H
#define GRADE_GRADE_H

#include "report.h"

#include <stdio.h>

#define GRADE_DEFAULT_SEED 20261123ull

/* A submission's build (docs/grading.md, "Limits"): CPU seconds per process, MiB of address
 * space per process (the machine's memory shared by the --jobs compilers, within these
 * bounds), seconds of wall time for its configure and for its build. */
#define GRADE_BUILD_CPU_DEFAULT 300
#define GRADE_BUILD_MEMORY_MIN_MIB 2048
#define GRADE_BUILD_MEMORY_MAX_MIB 4096
#define GRADE_BUILD_TIME_DEFAULT 1800

typedef struct options {
    int student, solution;
    char backend[16]; /* auto, cuda, sim */
    unsigned long long seed;
    char bin[4096];      /* where the lab programs are */
    char self[4096];     /* this program */
    char self_dir[4096]; /* where it is: gpulab-gpu-query is beside it */
    const char *lab;
    const char *check; /* --check: only the checks whose name contains it */
    const char *json, *junit, *gradescope, *summary;
    double time_limit; /* overrides every check's, when > 0 */
    /* A submission's build: CPU seconds and MiB of memory per process, seconds in all (0: the
     * defaults of grade_build_defaults). */
    double build_cpu, build_memory_mib, build_time;
    int share; /* graded runs that share the machine's memory (--share; --batch: its slots) */
    int quiet;
    int jobs;
    const char *submission, *batch, *package;
    const char *source;    /* the kit's sources */
    int has_solutions;     /* whether source has solutions/ (a student's kit has not) */
    const char *build_dir; /* --submission; --batch: its slots' parent */
    const char *out;       /* --batch */
    /* What a graded program must not see (the runner covers each as root): the kit's sources,
     * its build tree, the folders the reports go to and the submissions. NULL-terminated. */
    char hide_store[8][4096];
    const char *hide[9];
} options;

/* Parses the command line into o (defaults first; --help prints the usage
 * and exits 0). Returns 0, or -1 after a message naming what is wrong. */
int grade_parse_options(options *o, int argc, char **argv);
/* The usage text, worded for a kit with or without reference solutions. */
void grade_usage(FILE *f, int has_solutions);
/* Whether the kit in source has reference solutions: an instructor's kit has
 * solutions/, a student's (from make handout) has none. */
int grade_kit_has_solutions(const char *source);
/* The backend to grade on and why, into r->backend and r->backend_reason:
 * as asked, or under auto cuda only when the kit's own device query
 * (gpulab-gpu-query beside gpulab-grade) finds a usable GPU, else sim. */
void grade_choose_backend(grade_report *r, const options *o);

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
