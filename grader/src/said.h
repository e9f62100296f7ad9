/*
 * What a run said, turned into a reason (said.c): the program's own words
 * marked as its output, the simulator's memcheck report and its last line
 * about the program, and whether memcheck was seen to run.
 */
#ifndef GPULAB_GRADE_SAID_H
#define GPULAB_GRADE_SAID_H

#include <stddef.h>

/* line as the program's words: program said: "..." (quotes, backslashes and control bytes
 * escaped), or "it printed nothing to stderr". */
void grade_program_said(char *buf, size_t len, const char *line);

/* The last non-empty line of s that is not one of the check mode's "=========" lines. */
void grade_last_line(char *buf, size_t len, const char *s);

/* The simulator's memcheck report in err as one line, its report key (key) left out; 1 when
 * there is one. */
int grade_memcheck_report(char *buf, size_t len, const char *err, const char *key);

/* The first sentence of the last "gpulab-sim: " line in err, printable ASCII only; 1 when
 * there is one. */
int grade_sim_said(char *buf, size_t len, const char *err);

/* 1 when memcheck's banner and error summary (with the run's key) are in err; else 0 with why. */
int grade_memcheck_ran(char *why, size_t len, const char *err, const char *key);

#endif
