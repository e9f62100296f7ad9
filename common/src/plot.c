/* Line charts as hand-written SVG: see lab/plot.h. */
#define _POSIX_C_SOURCE 200809L /* getcwd */
#include "lab/plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The chart's frame, in SVG user units (pixels). */
#define W 760.0
#define H 500.0
#define LEFT 80.0
#define RIGHT 190.0 /* room for the legend */
#define TOP 84.0
#define BOTTOM 70.0

void lab_plot_where(char *buf, size_t len, const char *path)
{
    char cwd[4096];
    if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
        snprintf(buf, len, "%s", path);
    else
        snprintf(buf, len, "%s/%s", cwd, path);
}

void lab_plot_format_bytes(char *buf, size_t len, double bytes)
{
    const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        u++;
    }
    if (bytes == floor(bytes))
        snprintf(buf, len, "%.0f %s", bytes, units[u]);
    else
        snprintf(buf, len, "%.1f %s", bytes, units[u]);
}

/* Writes s with &, < and > escaped. */
static void put_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else
            fputc(*s, f);
    }
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for about 5 ticks up to top. */
static double nice_step(double top)
{
    double raw = top / 5.0, p = pow(10.0, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1.0 ? 1.0 : m <= 2.0 ? 2.0 : m <= 5.0 ? 5.0 : 10.0) * p;
}

/* The y axis: linear from 0 to a nice top, or log10 over whole decades. */
typedef struct y_axis {
    int log;
    double lo, hi; /* in axis units: values, or log10 of values */
    double step;   /* between grid lines, in axis units */
} y_axis;

static int y_drawn(const y_axis *a, double v)
{
    return isfinite(v) && (!a->log || v > 0.0);
}

static double y_unit(const y_axis *a, double v)
{
    return a->log ? log10(v) : v;
}

static void y_axis_fit(y_axis *a, const lab_plot_spec *s)
{
    double lo = INFINITY, hi = -INFINITY;
    a->log = s->y_log != 0;
    for (int k = 0; k < s->n_series; k++)
        for (int i = 0; i < s->n; i++) {
            double v = s->series[k].y[i];
            if (y_drawn(a, v)) {
                lo = fmin(lo, y_unit(a, v));
                hi = fmax(hi, y_unit(a, v));
            }
        }
    if (a->log) {
        a->lo = isfinite(lo) ? floor(lo) : 0.0;
        a->hi = isfinite(hi) ? ceil(hi) : 1.0;
        if (a->hi <= a->lo)
            a->hi = a->lo + 1.0;
        a->step = 1.0;
    } else {
        double top = hi > 0.0 && isfinite(hi) ? hi : 1.0;
        a->lo = 0.0;
        a->step = nice_step(top);
        a->hi = ceil(top / a->step) * a->step;
    }
}

static void x_tick_label(char *buf, size_t len, lab_plot_x_ticks kind, double x)
{
    double l = log2(x);
    if (kind == LAB_PLOT_X_BYTES)
        lab_plot_format_bytes(buf, len, x);
    else if (l == floor(l))
        snprintf(buf, len, "2^%.0f", l);
    else
        snprintf(buf, len, "%g", x);
}

/* The title and the note, one <text> per line. */
static void put_heading(FILE *f, const lab_plot_spec *s)
{
    fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", LEFT);
    put_text(f, s->title);
    fputs("</text>\n", f);
    const char *line = s->note;
    for (int k = 0; line && *line && k < 2; k++) {
        const char *end = strchr(line, '\n');
        char buf[256];
        size_t n = end ? (size_t)(end - line) : strlen(line);
        snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) ? n : sizeof(buf) - 1), line);
        fprintf(f, "<text x=\"%.0f\" y=\"%d\" fill=\"#444\">", LEFT, 44 + 16 * k);
        put_text(f, buf);
        fputs("</text>\n", f);
        line = end ? end + 1 : NULL;
    }
}

int lab_plot_svg(const char *path, const lab_plot_spec *s, lab_error *err)
{
    y_axis ya;
    char label[32];
    if (s->n < 1 || s->n_series < 1)
        return lab_error_set(err, LAB_EINVAL, "%s: nothing to plot", path);
    for (int i = 0; i < s->n; i++)
        if (!(s->x[i] > 0) || (i > 0 && !(s->x[i] > s->x[i - 1])))
            return lab_error_set(err, LAB_EINVAL, "%s: x must be positive and increasing", path);
    y_axis_fit(&ya, s);
    double lx0 = log2(s->x[0]), lx1 = log2(s->x[s->n - 1]);
    if (lx1 == lx0)
        lx1 = lx0 + 1.0;
    double pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
#define PX(b) (LEFT + (log2(b) - lx0) / (lx1 - lx0) * pw)
#define PY(u) (TOP + ph - ((u)-ya.lo) / (ya.hi - ya.lo) * ph)

    FILE *f = fopen(path, "w");
    if (!f)
        return lab_error_set(err, LAB_EIO, "%s: cannot write the plot", path);
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    put_heading(f, s);

    /* grid, ticks and axis labels; with many x points, every other one is named */
    for (double u = ya.lo; u <= ya.hi + ya.step / 2; u += ya.step)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                LEFT, PY(u), LEFT + pw, PY(u), LEFT - 6, PY(u) + 4, ya.log ? pow(10.0, u) : u);
    for (int i = 0; i < s->n; i++) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
                PX(s->x[i]), TOP, PX(s->x[i]), TOP + ph);
        if (s->n > 12 && i % 2)
            continue;
        x_tick_label(label, sizeof(label), s->x_ticks, s->x[i]);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", PX(s->x[i]),
                TOP + ph + 18, label);
    }
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"black\"/>\n",
            LEFT, TOP, pw, ph);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", LEFT + pw / 2, H - 22);
    put_text(f, s->x_label);
    fprintf(f,
            "</text>\n<text transform=\"translate(22 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">",
            TOP + ph / 2);
    put_text(f, s->y_label);
    fputs("</text>\n", f);

    /* the series and the legend */
    for (int k = 0; k < s->n_series; k++) {
        const lab_plot_series *sr = &s->series[k];
        const char *sep = "";
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", sr->color);
        for (int i = 0; i < s->n; i++)
            if (y_drawn(&ya, sr->y[i])) {
                fprintf(f, "%s%.1f,%.1f", sep, PX(s->x[i]), PY(y_unit(&ya, sr->y[i])));
                sep = " ";
            }
        fputs("\"/>\n", f);
        for (int i = 0; i < s->n; i++)
            if (y_drawn(&ya, sr->y[i]))
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", PX(s->x[i]),
                        PY(y_unit(&ya, sr->y[i])), sr->color);
        double ly = TOP + 10 + 22.0 * k;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"3\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
                LEFT + pw + 14, ly, LEFT + pw + 38, ly, sr->color, LEFT + pw + 44, ly + 4);
        put_text(f, sr->label);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
#undef PX
#undef PY
    if (fclose(f) != 0)
        return lab_error_set(err, LAB_EIO, "%s: cannot write the plot", path);
    return LAB_OK;
}
