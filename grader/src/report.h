/*
 * report.h — the grader's results and the forms they are written in: the
 * terminal table, JSON, JUnit XML (read by CI systems) and Gradescope's
 * results.json.
 */
#ifndef GRADE_REPORT_H
#define GRADE_REPORT_H

#include <stddef.h>
#include <stdio.h>

typedef struct grade_result {
    char lab[64];     /* "lab03" */
    char variant[16]; /* "student" or "solution" */
    char check[128];  /* check name */
    double points, max_points;
    double seconds; /* wall time of the program's run */
    int passed;
    char reason[512]; /* one line when not passed */
} grade_result;

typedef struct grade_report {
    grade_result *results;
    size_t n, cap;
    char backend[16];         /* "sim" or "cuda" */
    char backend_reason[640]; /* why: "no usable GPU — ...", "asked for with --backend sim" */
    char isolation[384];      /* what the runs were under */
    unsigned long long seed;
    double seconds; /* the whole grading */
} grade_report;

/* Appends a result (copied); returns 0 or -1 when out of memory. */
int grade_report_add(grade_report *r, const grade_result *res);
void grade_report_free(grade_report *r);
/* Score and maximum of one variant ("student", "solution"), all labs. */
void grade_report_total(const grade_report *r, const char *variant, double *score, double *max);

/* Score and maximum of one variant in one lab. */
void grade_report_lab_total(const grade_report *r, const char *variant, const char *lab,
                            double *score, double *max);
/* One line per lab, "<lab> <score> <max>", then "total <score> <max>": what
 * --batch reads back from each submission. */
int grade_report_summary(const grade_report *r, const char *variant, const char *path);

/* The table people read: first the backend and why, then one row per check,
 * totals per variant. */
void grade_report_table(FILE *f, const grade_report *r);
/* Each returns 0, or -1 with errno set when the file cannot be written. The
 * files are valid UTF-8 (JSON) and well-formed XML 1.0 whatever bytes a
 * student's program or compiler put into a reason: what is not UTF-8, or not
 * allowed in XML (control characters), becomes U+FFFD. In JUnit XML a check
 * the grader itself could not run ("grader: ...") is an error, any other
 * check not passed a failure. */
int grade_report_json(const grade_report *r, const char *path);
int grade_report_junit(const grade_report *r, const char *path);
/* Gradescope's results.json for one variant (what a submission scored). */
int grade_report_gradescope(const grade_report *r, const char *variant, const char *path);

#endif
