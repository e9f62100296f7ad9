/* plot.c — the bandwidth sweep as a hand-written SVG chart (see plot.h). */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The chart's frame, in SVG user units (pixels). */
#define W 760.0
#define H 500.0
#define LEFT 80.0
#define RIGHT 190.0 /* room for the legend */
#define TOP 84.0
#define BOTTOM 70.0

void plot_format_bytes(char *buf, size_t len, double bytes)
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
    for (; *s; s++) {
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

int plot_svg(const char *path, const plot_spec *s, lab_error *err)
{
    double ymax = 0.0;
    char label[32];
    if (s->n < 1 || s->n_series < 1)
        return lab_error_set(err, LAB_EINVAL, "%s: nothing to plot", path);
    for (int i = 1; i < s->n; i++)
        if (!(s->x[i] > s->x[i - 1]) || !(s->x[0] > 0))
            return lab_error_set(err, LAB_EINVAL, "%s: sizes must be positive and increasing",
                                 path);
    for (int k = 0; k < s->n_series; k++)
        for (int i = 0; i < s->n; i++)
            if (isfinite(s->series[k].y[i]) && s->series[k].y[i] > ymax)
                ymax = s->series[k].y[i];
    if (ymax <= 0.0)
        ymax = 1.0;
    double step = nice_step(ymax);
    double ytop = ceil(ymax / step) * step;
    double lx0 = log2(s->x[0]), lx1 = log2(s->x[s->n - 1]);
    if (lx1 == lx0)
        lx1 = lx0 + 1.0;
    double pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
#define PX(b) (LEFT + (log2(b) - lx0) / (lx1 - lx0) * pw)
#define PY(v) (TOP + ph - (v) / ytop * ph)

    FILE *f = fopen(path, "w");
    if (!f)
        return lab_error_set(err, LAB_EIO, "%s: cannot write the plot", path);
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", LEFT);
    put_text(f, s->title);
    fputs("</text>\n", f);
    /* the note, one <text> per line */
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

    /* grid, ticks and axis labels */
    for (double v = 0.0; v <= ytop + step / 2; v += step) {
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                LEFT, PY(v), LEFT + pw, PY(v), LEFT - 6, PY(v) + 4, v);
    }
    for (int i = 0; i < s->n; i++) {
        plot_format_bytes(label, sizeof(label), s->x[i]);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                PX(s->x[i]), TOP, PX(s->x[i]), TOP + ph, PX(s->x[i]), TOP + ph + 18, label);
    }
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"black\"/>\n",
            LEFT, TOP, pw, ph);
    fprintf(f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">transfer size (bytes, log "
            "scale)</text>\n",
            LEFT + pw / 2, H - 22);
    fprintf(f,
            "<text transform=\"translate(22 %.1f) rotate(-90)\" text-anchor=\"middle\">"
            "bandwidth (GB/s, 1 GB = 10^9 bytes)</text>\n",
            TOP + ph / 2);

    /* the series and the legend */
    for (int k = 0; k < s->n_series; k++) {
        const plot_series *sr = &s->series[k];
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", sr->color);
        for (int i = 0; i < s->n; i++)
            if (isfinite(sr->y[i]))
                fprintf(f, "%s%.1f,%.1f", i ? " " : "", PX(s->x[i]), PY(sr->y[i]));
        fputs("\"/>\n", f);
        for (int i = 0; i < s->n; i++)
            if (isfinite(sr->y[i]))
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", PX(s->x[i]),
                        PY(sr->y[i]), sr->color);
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
