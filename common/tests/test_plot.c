/* Unit tests of lab/plot.h. */
#define _POSIX_C_SOURCE 200809L /* getcwd */
#include "lab/error.h"
#include "lab/plot.h"
#include "lab_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char text[1 << 16];

static const char *read_back(const char *path)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    return text;
}

static void test_format_bytes(void)
{
    char buf[32];
    lab_plot_format_bytes(buf, sizeof(buf), 4096.0);
    CHECK_STREQ(buf, "4 KiB");
    lab_plot_format_bytes(buf, sizeof(buf), 1.5 * 1024 * 1024);
    CHECK_STREQ(buf, "1.5 MiB");
    lab_plot_format_bytes(buf, sizeof(buf), 100.0);
    CHECK_STREQ(buf, "100 B");
}

static void test_where(void)
{
    char buf[4200], cwd[4096];
    lab_plot_where(buf, sizeof(buf), "/tmp/x.svg");
    CHECK_STREQ(buf, "/tmp/x.svg");
    CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
    lab_plot_where(buf, sizeof(buf), "plot.svg");
    CHECK(buf[0] == '/');
    CHECK(strncmp(buf, cwd, strlen(cwd)) == 0);
    CHECK_STREQ(buf + strlen(cwd), "/plot.svg");
}

static void test_linear_bytes_chart(void)
{
    const double x[] = { 4096.0, 65536.0, 1048576.0 }, y[] = { 1.0, 5.0, 11.5 };
    lab_plot_series s = { "pinned <fast>", "#1f77b4", y };
    lab_plot_spec spec = { "Copy bandwidth, sim backend",
                           "line one & more\nline two",
                           "transfer size (bytes, log scale)",
                           "bandwidth (GB/s)",
                           LAB_PLOT_X_BYTES,
                           0,
                           x,
                           3,
                           &s,
                           1 };
    lab_error err;
    CHECK_EQ_INT(lab_plot_svg("plot-linear.svg", &spec, &err), LAB_OK);
    const char *t = read_back("plot-linear.svg");
    CHECK_CONTAINS(t, "<svg");
    CHECK_CONTAINS(t, "</svg>");
    CHECK_CONTAINS(t, "<polyline");
    CHECK_CONTAINS(t, "4 KiB");
    CHECK_CONTAINS(t, "1 MiB");
    CHECK_CONTAINS(t, "line one &amp; more</text>");
    CHECK_CONTAINS(t, ">line two</text>");
    CHECK_CONTAINS(t, "pinned &lt;fast&gt;");
    CHECK_CONTAINS(t, "bandwidth (GB/s)");
    CHECK_CONTAINS(t, ">15</text>"); /* the linear axis: steps of 5 up to 15 for 11.5 */
}

static void test_log_pow2_chart(void)
{
    const double x[] = { 1024.0, 2048.0, 4096.0 }, y[] = { 0.05, NAN, 3.0 };
    lab_plot_series s = { "kernel", "#d62728", y };
    lab_plot_spec spec = { "t", NULL, "N", "ns per element", LAB_PLOT_X_POW2, 1, x, 3, &s, 1 };
    lab_error err;
    CHECK_EQ_INT(lab_plot_svg("plot-log.svg", &spec, &err), LAB_OK);
    const char *t = read_back("plot-log.svg");
    CHECK_CONTAINS(t, ">2^10</text>");
    CHECK_CONTAINS(t, ">2^12</text>");
    CHECK_CONTAINS(t, ">0.01</text>"); /* whole decades, 0.01 .. 10 */
    CHECK_CONTAINS(t, ">10</text>");
    const char *pts = strstr(t, "points=\"");
    CHECK(pts != NULL);
    if (pts) { /* the NaN is left out: two points, one space between them */
        int spaces = 0;
        for (pts += 8; *pts && *pts != '"'; pts++)
            spaces += *pts == ' ';
        CHECK_EQ_INT(spaces, 1);
    }
}

static void test_errors(void)
{
    const double x[] = { 8.0, 4.0 }, y[] = { 1.0, 2.0 };
    lab_plot_series s = { "a", "#000", y };
    lab_plot_spec spec = { "t", NULL, "x", "y", LAB_PLOT_X_BYTES, 0, x, 2, &s, 1 };
    lab_error err;
    CHECK_EQ_INT(lab_plot_svg("plot-bad.svg", &spec, &err), LAB_EINVAL);
    spec.n = 1;
    CHECK_EQ_INT(lab_plot_svg("no-such-dir/plot.svg", &spec, &err), LAB_EIO);
    CHECK_CONTAINS(err.msg, "no-such-dir/plot.svg");
    spec.n_series = 0;
    CHECK_EQ_INT(lab_plot_svg("plot-bad.svg", &spec, &err), LAB_EINVAL);
}

int main(void)
{
    LAB_TEST_RUN(test_format_bytes);
    LAB_TEST_RUN(test_where);
    LAB_TEST_RUN(test_linear_bytes_chart);
    LAB_TEST_RUN(test_log_pow2_chart);
    LAB_TEST_RUN(test_errors);
    LAB_TEST_MAIN_END();
}
