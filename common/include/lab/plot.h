/**
 * @file plot.h
 * @brief Line charts as hand-written SVG (no library): a log2-scale x axis, a
 *        linear or log10 y axis, one line per series, a legend and a two-line
 *        note that says what produced the numbers.
 *
 * Used by lab 02 (copy bandwidth against transfer size) and lab 03 (time per
 * element against N); any lab that sweeps a size can use it. The chart is
 * 760 x 500 pixels, white, readable in any web browser.
 */
#ifndef LAB_PLOT_H
#define LAB_PLOT_H

#include <stddef.h>

#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief One line of the chart: y[i] at the spec's x[i]. */
typedef struct lab_plot_series {
    const char *label; /**< legend text */
    const char *color; /**< an SVG colour, "#1f77b4" */
    const double *y;   /**< n values; a non-finite one (or <= 0 on a log axis) is left out */
} lab_plot_series;

/** @brief How the x axis names its ticks. */
typedef enum lab_plot_x_ticks {
    LAB_PLOT_X_BYTES = 0, /**< binary sizes: "4 KiB", "256 MiB" */
    LAB_PLOT_X_POW2 = 1   /**< powers of two: "2^10" (other values as "%g") */
} lab_plot_x_ticks;

/** @brief What to draw. Strings are copied into the file; none is kept. */
typedef struct lab_plot_spec {
    const char *title;        /**< first line, e.g. "Host-device copy bandwidth, sim backend" */
    const char *note;         /**< up to two lines ('\n'): what produced the numbers */
    const char *x_label;      /**< x axis title, e.g. "transfer size (bytes, log scale)" */
    const char *y_label;      /**< y axis title with its unit */
    lab_plot_x_ticks x_ticks; /**< how the x ticks are written */
    int y_log;                /**< nonzero: log10 y axis (values must be > 0), else linear from 0 */
    const double *x;          /**< n positive, increasing values (drawn on a log2 scale) */
    int n;                    /**< points per series */
    const lab_plot_series *series; /**< the lines, n_series of them */
    int n_series;                  /**< how many lines */
} lab_plot_spec;

/**
 * @brief Writes the chart to path.
 * @param path     the SVG file to write (replaced if it exists).
 * @param spec     what to draw: titles, axes, the series.
 * @param[out] err why it failed, when it does (may be NULL).
 * @return LAB_OK, LAB_EINVAL (nothing to plot, x not positive and increasing)
 *         or LAB_EIO (the file cannot be written), with err set.
 */
LAB_MUST_CHECK int lab_plot_svg(const char *path, const lab_plot_spec *spec, lab_error *err);

/**
 * @brief Where a chart went, for the line that says so: path as an absolute
 *        path (a relative one joined to the working directory).
 * @param[out] buf where the text goes (always NUL-terminated when len > 0).
 * @param len      capacity of buf, NUL included.
 * @param path     the path the chart was written to.
 */
void lab_plot_where(char *buf, size_t len, const char *path);

/**
 * @brief "4 KiB", "1.5 MiB": a size in binary units, for tables and axes.
 * @param[out] buf where the text goes (always NUL-terminated when len > 0).
 * @param len      capacity of buf, NUL included.
 * @param bytes    the size to write.
 */
void lab_plot_format_bytes(char *buf, size_t len, double bytes);

#ifdef __cplusplus
}
#endif

#endif
