/*
 * plot.h — lab 02: the bandwidth sweep as an SVG line chart, written by hand
 * (no library): a log-scale size axis, a linear GB/s axis, one line per
 * series, a legend, and a title that names the backend.
 */
#ifndef LAB02_PLOT_H
#define LAB02_PLOT_H

#include <stddef.h>

#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One line of the chart: y[i] at x[i] of the plot. */
typedef struct plot_series {
    const char *label;
    const char *color; /* an SVG colour, "#1f77b4" */
    const double *y;   /* GB/s (1e9 bytes per second) */
} plot_series;

typedef struct plot_spec {
    const char *title; /* first line, e.g. "Host-device copy bandwidth, cuda backend" */
    const char *note;  /* second line: what measured it, and on sim that it is simulated */
    const double *x;   /* transfer sizes in bytes, increasing */
    int n;             /* points per series */
    const plot_series *series;
    int n_series;
} plot_spec;

/* Writes the chart to path. Returns LAB_OK, or LAB_EINVAL / LAB_EIO with err. */
int plot_svg(const char *path, const plot_spec *spec, lab_error *err);

/* "4 KiB", "256 MiB": a size in binary units, for tables and axes. */
void plot_format_bytes(char *buf, size_t len, double bytes);

#ifdef __cplusplus
}
#endif

#endif
