/*
 * sim_report.h — what the simulator itself said about a graded run, read from
 * the run's stderr: its check-mode banner and error summary, and the counts
 * GPULAB_SIM_STATS=1 prints after each kernel (launches, threads, global
 * loads and stores, requests and 32-byte sectors).
 *
 * Checks use these instead of what the program reports about itself in
 * result.json. When the run was given a report key (GPULAB_SIM_REPORT_KEY),
 * only lines that carry it count: the simulator reads the key before any of
 * the program's code runs and removes it from the environment, so a program
 * cannot print a line the grader takes for the simulator's (docs/grading.md,
 * "What a check trusts").
 */
#ifndef GRADE_SIM_REPORT_H
#define GRADE_SIM_REPORT_H

#include <stddef.h>

#define GRADE_SIM_MAX_LAUNCHES 64

/* One kernel launch as the simulator counted it. */
typedef struct grade_sim_launch {
    char kernel[128];
    char file[256]; /* where it was launched */
    int line;
    unsigned long long threads, loads, stores;
    unsigned long long load_requests, load_sectors, store_requests, store_sectors;
} grade_sim_launch;

typedef struct grade_sim_report {
    int check_mode; /* the banner "gpulab-sim check mode: ..." was printed */
    char tools[96]; /* what the banner named: " memcheck racecheck" */
    int summary;    /* "ERROR SUMMARY: n errors" was printed */
    long errors;    /* its n */
    int n_launches; /* launches counted (may exceed GRADE_SIM_MAX_LAUNCHES) */
    grade_sim_launch launch[GRADE_SIM_MAX_LAUNCHES]; /* the first ones */
    grade_sim_launch total;                          /* sums over every launch */
} grade_sim_report;

/* Reads err (a run's stderr) into r. key: the run's report key, or NULL when
 * it had none (then every simulator-looking line counts). */
void grade_sim_report_parse(grade_sim_report *r, const char *err, const char *key);

/* Sums, over the launches of the kernel named name (every launch when NULL),
 * into out; returns how many there were. */
int grade_sim_report_kernel(const grade_sim_report *r, const char *name, grade_sim_launch *out);

/* Names paths into a submission's build copy from the lab folder, in place:
 * "/tmp/x/gpulab-submission/04_matvec/matvec.cu:146" -> "04_matvec/matvec.cu:146". */
void grade_sim_short_paths(char *s);

/* A fresh random report key for a run (hex), into buf. Returns 0, or -1. */
int grade_sim_report_key(char *buf, size_t len);

#endif
