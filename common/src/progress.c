/* Progress display for long work: see lab/progress.h for the three styles and their rules. */
#define _POSIX_C_SOURCE 200809L /* fileno, isatty */

#include "lab/progress.h"

#include "lab/alloc.h"
#include "lab/timer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LAB_PROGRESS_REDRAW_S 0.1 /* TTY: at most ~10 redraws a second */
#define LAB_PROGRESS_LINE_S 2.0   /* LINES: at least this long between lines */
#define LAB_PROGRESS_BAR 20       /* TTY: bar width in characters */

struct lab_progress {
    FILE *out;
    char *label;
    uint64_t total; /* 0: unknown */
    uint64_t done;
    int mode; /* resolved: TTY, LINES or QUIET */
    int finished;
    double (*now)(void);
    double start;        /* clock at the start */
    double last_print;   /* clock at the last redraw or line */
    double last_elapsed; /* LINES, unknown total: elapsed time at the last line */
    unsigned last_step;  /* LINES, known total: tens of percent at the last line */
    int drawn_complete;  /* TTY: the done == total state has been drawn */
};

static int lab_progress_resolve_mode(FILE *out, int mode)
{
    if (!out)
        return LAB_PROGRESS_QUIET;
    if (mode == LAB_PROGRESS_TTY || mode == LAB_PROGRESS_LINES || mode == LAB_PROGRESS_QUIET)
        return mode;
    const char *env = getenv("GPULAB_PROGRESS");
    if (env && strcmp(env, "0") == 0)
        return LAB_PROGRESS_QUIET;
    const char *term = getenv("TERM");
    int dumb = term && strcmp(term, "dumb") == 0;
    return isatty(fileno(out)) && !dumb ? LAB_PROGRESS_TTY : LAB_PROGRESS_LINES;
}

/* ---------------------------------------------------------------------------
 * What is shown
 */

static double lab_progress_elapsed(const lab_progress *p, double now)
{
    return now - p->start;
}

/* Whole percent, rounded down, never above 100 (so 100% means really done). */
static unsigned lab_progress_percent(const lab_progress *p)
{
    if (p->done >= p->total)
        return 100;
    return (unsigned)(100.0 * (double)p->done / (double)p->total);
}

static double lab_progress_eta(const lab_progress *p, double elapsed)
{
    if (p->done == 0 || p->done >= p->total)
        return 0.0;
    return elapsed * (double)(p->total - p->done) / (double)p->done;
}

static double lab_progress_rate(const lab_progress *p, double elapsed)
{
    return elapsed > 0.0 ? (double)p->done / elapsed : 0.0;
}

/* "45% (450/1000) elapsed 9.0 s, eta 11.0 s", or the count and rate for an unknown total. */
static void lab_progress_print_state(const lab_progress *p, double elapsed)
{
    if (p->total == 0) {
        fprintf(p->out, "%" PRIu64 " done, %.1f/s, elapsed %.1f s", p->done,
                lab_progress_rate(p, elapsed), elapsed);
        return;
    }
    fprintf(p->out, "%u%% (%" PRIu64 "/%" PRIu64 ") elapsed %.1f s, ", lab_progress_percent(p),
            p->done, p->total, elapsed);
    if (p->done == 0)
        fputs("eta ?", p->out);
    else
        fprintf(p->out, "eta %.1f s", lab_progress_eta(p, elapsed));
}

/* What the program printed to stdout before this point must come first when
 * stdout and the display share a pipe or a file (2>&1 | tee log): stdout is
 * fully buffered there, the display's stream (stderr) is not. */
static void lab_progress_flush_stdout(const lab_progress *p)
{
    if (p->out != stdout)
        fflush(stdout);
}

static void lab_progress_draw_tty(lab_progress *p, double now)
{
    lab_progress_flush_stdout(p);
    fprintf(p->out, "\r%s ", p->label);
    if (p->total) {
        char bar[LAB_PROGRESS_BAR + 1];
        unsigned filled = lab_progress_percent(p) * LAB_PROGRESS_BAR / 100;
        for (unsigned i = 0; i < LAB_PROGRESS_BAR; i++)
            bar[i] = i < filled ? '#' : '.';
        bar[LAB_PROGRESS_BAR] = '\0';
        fprintf(p->out, "[%s] ", bar);
    }
    lab_progress_print_state(p, lab_progress_elapsed(p, now));
    fputs("\033[K", p->out);
    fflush(p->out);
    p->last_print = now;
}

static void lab_progress_print_line(lab_progress *p, double now)
{
    lab_progress_flush_stdout(p);
    fprintf(p->out, "%s: ", p->label);
    lab_progress_print_state(p, lab_progress_elapsed(p, now));
    fputc('\n', p->out);
    fflush(p->out);
    p->last_print = now;
}

/* ---------------------------------------------------------------------------
 * When it is shown
 */

static void lab_progress_update_tty(lab_progress *p, double now)
{
    int complete = p->total && p->done >= p->total;
    if (now - p->last_print >= LAB_PROGRESS_REDRAW_S || (complete && !p->drawn_complete)) {
        lab_progress_draw_tty(p, now);
        p->drawn_complete |= complete;
    }
}

static void lab_progress_update_lines(lab_progress *p, double now)
{
    if (p->total == 0) {
        double elapsed = lab_progress_elapsed(p, now);
        if (elapsed >= LAB_PROGRESS_LINE_S && elapsed >= 2.0 * p->last_elapsed) {
            lab_progress_print_line(p, now);
            p->last_elapsed = elapsed;
        }
        return;
    }
    /* The final line reports 100%, so steps 1 to 9 only. */
    unsigned step = lab_progress_percent(p) / 10;
    if (step > p->last_step && step < 10 && now - p->last_print >= LAB_PROGRESS_LINE_S) {
        lab_progress_print_line(p, now);
        p->last_step = step;
    }
}

lab_progress *lab_progress_create(FILE *out, const char *label, uint64_t total, int mode)
{
    lab_progress *p = lab_xmalloc(sizeof(*p));
    if (!label)
        label = "progress";
    size_t len = strlen(label);
    p->label = lab_xmalloc(len + 1);
    memcpy(p->label, label, len + 1);
    p->out = out;
    p->total = total;
    p->done = 0;
    p->mode = lab_progress_resolve_mode(out, mode);
    p->finished = 0;
    p->drawn_complete = 0;
    lab_progress_set_clock(p, NULL);
    if (p->mode == LAB_PROGRESS_TTY)
        lab_progress_draw_tty(p, p->start);
    return p;
}

void lab_progress_set_clock(lab_progress *p, double (*now)(void))
{
    p->now = now ? now : lab_wall_seconds;
    p->start = p->now();
    p->last_print = p->start;
    p->last_elapsed = 0.0;
    p->last_step = 0;
}

void lab_progress_update(lab_progress *p, uint64_t done)
{
    if (p->finished)
        return;
    p->done = done;
    if (p->mode == LAB_PROGRESS_TTY)
        lab_progress_update_tty(p, p->now());
    else if (p->mode == LAB_PROGRESS_LINES)
        lab_progress_update_lines(p, p->now());
}

/* "label: 100% (1000/1000) done in 20.0 s", "label: stopped at 45% (450/1000) after 9.0 s". */
static void lab_progress_print_final(const lab_progress *p, double elapsed)
{
    if (p->total == 0)
        fprintf(p->out, "%s: %" PRIu64 " done in %.1f s (%.1f/s)", p->label, p->done, elapsed,
                lab_progress_rate(p, elapsed));
    else if (p->done >= p->total)
        fprintf(p->out, "%s: 100%% (%" PRIu64 "/%" PRIu64 ") done in %.1f s", p->label, p->done,
                p->total, elapsed);
    else
        fprintf(p->out, "%s: stopped at %u%% (%" PRIu64 "/%" PRIu64 ") after %.1f s", p->label,
                lab_progress_percent(p), p->done, p->total, elapsed);
}

void lab_progress_finish(lab_progress *p)
{
    if (p->finished)
        return;
    p->finished = 1;
    if (p->mode == LAB_PROGRESS_QUIET)
        return;
    lab_progress_flush_stdout(p);
    if (p->mode == LAB_PROGRESS_TTY)
        fputc('\r', p->out);
    lab_progress_print_final(p, lab_progress_elapsed(p, p->now()));
    if (p->mode == LAB_PROGRESS_TTY)
        fputs("\033[K", p->out);
    fputc('\n', p->out);
    fflush(p->out);
}

void lab_progress_destroy(lab_progress *p)
{
    if (!p)
        return;
    lab_progress_finish(p);
    free(p->label);
    free(p);
}
