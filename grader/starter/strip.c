/*
 * strip.c - the starter text of one solution file: solution regions out,
 * stubs in. See strip.h for the marker format.
 */
#include "strip.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum marker { MARK_NONE, MARK_SOLUTION, MARK_STUB, MARK_END, MARK_MISPLACED };

static const char *const marker_text[] = { "", ">>> SOLUTION", "=== STUB", "<<< END" };

/* Does [s, s+n) contain the NUL-terminated word w? */
static int contains(const char *s, size_t n, const char *w)
{
    size_t wn = strlen(w);
    for (size_t i = 0; i + wn <= n; i++)
        if (memcmp(s + i, w, wn) == 0)
            return 1;
    return 0;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* [*s, *s+*n) without blanks at either end. */
static void trim(const char **s, size_t *n)
{
    while (*n > 0 && is_blank(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_blank((*s)[*n - 1]))
        (*n)--;
}

static int starts_with(const char *s, size_t n, const char *p)
{
    size_t pn = strlen(p);
    return n >= pn && memcmp(s, p, pn) == 0;
}

/*
 * Which marker the line is. A line that holds a marker's words but is not
 * that marker alone in a comment is MARK_MISPLACED; *which names the words.
 */
static enum marker classify(const char *line, size_t n, enum marker *which)
{
    *which = MARK_NONE;
    for (int m = MARK_SOLUTION; m <= MARK_END; m++)
        if (contains(line, n, marker_text[m])) {
            *which = (enum marker)m;
            break;
        }
    if (*which == MARK_NONE)
        return MARK_NONE;

    const char *s = line;
    trim(&s, &n);
    if (starts_with(s, n, "//")) {
        s += 2, n -= 2;
    } else if (starts_with(s, n, "#")) {
        s += 1, n -= 1;
    } else if (n >= 4 && starts_with(s, n, "/*") && memcmp(s + n - 2, "*/", 2) == 0) {
        s += 2, n -= 4;
    } else {
        return MARK_MISPLACED;
    }
    trim(&s, &n);
    if (n == strlen(marker_text[*which]) && memcmp(s, marker_text[*which], n) == 0)
        return *which;
    return MARK_MISPLACED;
}

struct state {
    const char *name;
    FILE *err;
    int errors;
    enum { OUTSIDE, IN_SOLUTION, IN_STUB } where;
    size_t open_line; /* line of the region's >>> SOLUTION */
    size_t stub_line; /* line of its === STUB, 0 if none yet */
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
report(struct state *st, size_t line, const char *fmt, ...)
{
    va_list ap;

    fprintf(st->err, "%s:%zu: ", st->name, line);
    va_start(ap, fmt);
    vfprintf(st->err, fmt, ap);
    va_end(ap);
    fputc('\n', st->err);
    st->errors++;
}

/* Advances the state by one line; returns whether the line is kept. */
static int step(struct state *st, const char *line, size_t n, size_t lineno)
{
    enum marker which;
    enum marker m = classify(line, n, &which);

    switch (m) {
    case MARK_NONE:
        return st->where != IN_SOLUTION;
    case MARK_MISPLACED:
        report(st, lineno,
               "`%s` must be alone on its line, in a comment (`// %s`, `/* %s */` or `# %s`)",
               marker_text[which], marker_text[which], marker_text[which], marker_text[which]);
        return 0;
    case MARK_SOLUTION:
        if (st->where != OUTSIDE)
            report(st, lineno,
                   "nested `>>> SOLUTION`: the region opened at line %zu is not closed "
                   "(`<<< END` missing)",
                   st->open_line);
        else
            st->where = IN_SOLUTION, st->open_line = lineno, st->stub_line = 0;
        return 0;
    case MARK_STUB:
        if (st->where == OUTSIDE)
            report(st, lineno,
                   "`=== STUB` outside a solution region (no `>>> SOLUTION` before it)");
        else if (st->where == IN_STUB)
            report(st, lineno,
                   "second `=== STUB` in the region opened at line %zu (the first is at line %zu)",
                   st->open_line, st->stub_line);
        else
            st->where = IN_STUB, st->stub_line = lineno;
        return 0;
    case MARK_END:
        if (st->where == OUTSIDE)
            report(st, lineno, "`<<< END` outside a solution region (no `>>> SOLUTION` before it)");
        st->where = OUTSIDE;
        return 0;
    }
    return 1;
}

int starter_strip(const char *name, const char *in, size_t len, char **out, size_t *out_len,
                  struct starter_info *info, FILE *err)
{
    struct state st = { name, err, 0, OUTSIDE, 0, 0 };
    size_t regions = 0, n = 0, lineno = 0;
    char *buf = malloc(len + 1);

    *out = NULL;
    *out_len = 0;
    if (!buf)
        return -2;
    if (info)
        info->regions = 0, info->binary = 0;
    if (memchr(in, '\0', len)) {
        memcpy(buf, in, len);
        *out = buf;
        *out_len = len;
        if (info)
            info->binary = 1;
        return 0;
    }
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(in + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - in) + 1 : len; /* the line keeps its ending */
        int was_outside = st.where == OUTSIDE;

        if (step(&st, in + pos, end - pos, ++lineno)) {
            memcpy(buf + n, in + pos, end - pos);
            n += end - pos;
        }
        if (was_outside && st.where == IN_SOLUTION)
            regions++;
        pos = end;
    }
    if (st.where != OUTSIDE)
        report(&st, st.open_line,
               "the region opened here is not closed: `<<< END` missing before the end of the "
               "file");
    if (st.errors) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    if (info)
        info->regions = regions;
    return 0;
}
