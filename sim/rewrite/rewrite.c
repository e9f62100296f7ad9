/*
 * rewrite.c — turns K<<<A, B[, C[, D]]>>>(ARGS) into
 * GPULAB_SIM_LAUNCH((K), "K", L, "ARGS")(A, B[, C[, D]])(ARGS), keeping every
 * newline of the source where it was, and drives the whole rewrite (the
 * `__shared__` declarations are shared.c's). See rewrite.h.
 *
 * The output is the source copied verbatim except for three edits per launch:
 * "GPULAB_SIM_LAUNCH((" inserted before K, the <<< replaced by
 * `), "K", L, "ARGS")(` and the >>> by ")". None of them holds a newline.
 */
#include "emit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct launch {
    size_t callee, open, close; /* tokens: the callee's first, <<< and >>> */
    int nargs;
} launch;

void gpulab_rw_put(gpulab_rw_buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void gpulab_rw_puts(gpulab_rw_buf *b, const char *s)
{
    gpulab_rw_put(b, s, strlen(s));
}

void gpulab_rw_printf(gpulab_rw_buf *b, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    gpulab_rw_put(b, text, n < 0 ? 0 : (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

/* Appends s[0, n) as the inside of a C string literal. */
static void put_escaped(gpulab_rw_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '"')
            gpulab_rw_printf(b, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            gpulab_rw_printf(b, "\\%03o", c);
        else
            gpulab_rw_put(b, s + i, 1);
    }
}

/* Records "file:line: message" and returns -1. */
static int report(rewriter *rw, uint32_t line, const char *msg)
{
    gpulab_rw_puts(&rw->err, rw->file);
    gpulab_rw_printf(&rw->err, ":%u: %s\n", (unsigned)line, msg);
    rw->errors++;
    return -1;
}

/* Index of the < opening the template arguments that end at token i, or NONE. */
static size_t template_open(const rewriter *rw, size_t i)
{
    long angle = 0, paren = 0;
    for (; i > rw->floor; i--) {
        switch (rw->t[i].kind) {
        case RW_GT:
        case RW_SHR:
            angle += paren ? 0 : rw->t[i].len;
            break;
        case RW_LT:
            if (paren == 0 && --angle == 0)
                return i;
            break;
        case RW_RPAREN:
        case RW_RBRACKET:
            paren++;
            break;
        case RW_LPAREN:
        case RW_LBRACKET:
            if (--paren < 0)
                return NONE;
            break;
        case RW_IDENT:
        case RW_NUMBER:
        case RW_SCOPE:
        case RW_COMMA:
        case RW_OTHER:
            break;
        default:
            return NONE;
        }
    }
    return NONE;
}

/* First token of the callee before the <<< at @p open: name, ns::name or
 * name<args>, or NONE when there is none. */
static size_t callee_start(const rewriter *rw, size_t open)
{
    size_t i = open;
    for (;;) {
        if (i <= rw->floor)
            return NONE;
        i--;
        if (rw->t[i].kind == RW_GT || rw->t[i].kind == RW_SHR) {
            i = template_open(rw, i);
            if (i == NONE || i <= rw->floor)
                return NONE;
            i--;
        }
        if (rw->t[i].kind != RW_IDENT || !same_context(rw, open, i))
            return NONE;
        if (i <= rw->floor || rw->t[i - 1].kind != RW_SCOPE)
            return i;
        i--; /* the :: */
        int more = i > rw->floor && (rw->t[i - 1].kind == RW_IDENT || rw->t[i - 1].kind == RW_GT ||
                                     rw->t[i - 1].kind == RW_SHR);
        if (!more)
            return i;
    }
}

/* Fills rw->close[i] with the closer of each ( [ { (NONE when unmatched) in one
 * pass, so that a launch's configuration is scanned in time linear in its
 * length. Groups opened on a directive line close on the same line. */
static int match_groups(rewriter *rw)
{
    uint32_t *stack = malloc((rw->n ? rw->n : 1) * sizeof(*stack));
    rw->close = malloc((rw->n ? rw->n : 1) * sizeof(*rw->close));
    if (!stack || !rw->close) {
        free(stack);
        return -1;
    }
    size_t sp = 0, dir_base = 0;
    int in_dir = 0;
    for (size_t i = 0; i < rw->n; i++) {
        int k = rw->t[i].kind, flags = rw->t[i].flags;
        if ((flags & RW_DIRECTIVE) || (in_dir && !(flags & RW_IN_DIRECTIVE))) {
            sp = in_dir ? dir_base : sp;
            dir_base = sp;
            in_dir = flags & RW_IN_DIRECTIVE;
        }
        rw->close[i] = NONE32;
        if (is_opener(k))
            stack[sp++] = (uint32_t)i;
        else if (is_closer(k) && sp > (in_dir ? dir_base : 0))
            rw->close[stack[--sp]] = (uint32_t)i;
    }
    free(stack);
    return 0;
}

/* Checks the argument count of the launch whose >>> is at l->close. */
static int check_args(rewriter *rw, launch *l, int commas, int empty, int seen)
{
    char msg[96];
    l->nargs = commas || seen ? commas + 1 : 0;
    snprintf(msg, sizeof(msg), "kernel launch needs 2 to 4 arguments between <<< and >>>, found %d",
             l->nargs);
    if (l->nargs < 2 || l->nargs > 4)
        return report(rw, rw->t[l->open].line, msg);
    if (empty || !seen)
        return report(rw, rw->t[l->open].line,
                      "kernel launch has an empty argument between <<< and >>>");
    return 0;
}

/* Finds the >>> of the launch at l->open, jumping over ( ) [ ] { } groups. */
static int scan_config(rewriter *rw, launch *l)
{
    int commas = 0, empty = 0, seen = 0;
    for (size_t i = l->open + 1; i < rw->n; i++) {
        int k = rw->t[i].kind;
        if (!same_context(rw, l->open, i))
            break;
        if (k == RW_LAUNCH_END) {
            l->close = i;
            return check_args(rw, l, commas, empty, seen);
        }
        if (k == RW_SEMI || k == RW_LAUNCH || is_closer(k) ||
            (is_opener(k) && rw->close[i] == NONE32))
            break;
        if (is_opener(k))
            i = rw->close[i];
        if (k == RW_COMMA) {
            commas++;
            empty |= !seen;
            seen = 0;
        } else {
            seen = 1;
        }
    }
    return report(rw, rw->t[l->open].line,
                  "kernel launch: '<<<' without a matching '>>>' (write k<<<grid, block>>>(args))");
}

static int parse_launch(rewriter *rw, launch *l)
{
    if (scan_config(rw, l) != 0)
        return -1;
    size_t next = l->close + 1;
    if (next >= rw->n || rw->t[next].kind != RW_LPAREN || !same_context(rw, l->close, next))
        return report(rw, rw->t[l->close].line,
                      "kernel launch: '>>>' must be followed by the kernel's arguments in ( )");
    l->callee = callee_start(rw, l->open);
    if (l->callee == NONE)
        return report(rw, rw->t[l->open].line,
                      "kernel launch: no kernel name before '<<<' (write name<<<grid, block>>>)");
    return 0;
}

/* Appends the callee's tokens, a space only between two words, as a string literal. */
static void put_callee_literal(rewriter *rw, const launch *l)
{
    gpulab_rw_puts(&rw->out, "\"");
    for (size_t i = l->callee; i < l->open; i++) {
        const gpulab_rw_token *t = &rw->t[i];
        int word = t->kind == RW_IDENT || t->kind == RW_NUMBER;
        if (i > l->callee && word && (t[-1].kind == RW_IDENT || t[-1].kind == RW_NUMBER))
            gpulab_rw_puts(&rw->out, " ");
        put_escaped(&rw->out, rw->src + t->start, t->len);
    }
    gpulab_rw_puts(&rw->out, "\"");
}

/* Appends the kernel's arguments, from the ( after >>> to its ), as a string
 * literal on one line: the runtime names an argument from it in reports. */
static void put_args_literal(rewriter *rw, const launch *l)
{
    size_t first = l->close + 2, end = rw->close[l->close + 1];
    gpulab_rw_puts(&rw->out, "\"");
    for (size_t i = first; end != NONE32 && i < end; i++) {
        const gpulab_rw_token *t = &rw->t[i];
        int word = t->kind == RW_IDENT || t->kind == RW_NUMBER;
        if (i > first && word && (t[-1].kind == RW_IDENT || t[-1].kind == RW_NUMBER))
            gpulab_rw_puts(&rw->out, " ");
        if (t->kind == RW_STRING || t->kind == RW_CHAR)
            gpulab_rw_puts(&rw->out, "...");
        else
            put_escaped(&rw->out, rw->src + t->start, t->len);
        if (t->kind == RW_COMMA)
            gpulab_rw_puts(&rw->out, " ");
    }
    gpulab_rw_puts(&rw->out, "\"");
}

static void emit_launch(rewriter *rw, const launch *l)
{
    const gpulab_rw_token *open = &rw->t[l->open], *close = &rw->t[l->close];
    copy_to(rw, rw->t[l->callee].start);
    gpulab_rw_puts(&rw->out, "GPULAB_SIM_LAUNCH((");
    copy_to(rw, open->start);
    gpulab_rw_puts(&rw->out, "), ");
    put_callee_literal(rw, l);
    gpulab_rw_printf(&rw->out, ", %u, ", (unsigned)open->line);
    put_args_literal(rw, l);
    gpulab_rw_puts(&rw->out, ")(");
    rw->copied = open->start + open->len;
    copy_to(rw, close->start);
    gpulab_rw_puts(&rw->out, ")");
    rw->copied = close->start + close->len;
}

static void rewrite_launches(rewriter *rw)
{
    for (size_t i = 0; i < rw->n; i++) {
        launch l = { .open = i };
        i = gpulab_rw_extern_shared(rw, i);
        i = gpulab_rw_static_shared(rw, i);
        i = gpulab_rw_constant(rw, i);
        if (rw->t[i].kind != RW_LAUNCH || parse_launch(rw, &l) != 0)
            continue;
        emit_launch(rw, &l);
        i = l.close;
        rw->floor = l.close + 1;
    }
    copy_to(rw, rw->len);
}

static void put_line_directive(rewriter *rw, unsigned line)
{
    gpulab_rw_printf(&rw->out, "#line %u \"", line);
    put_escaped(&rw->out, rw->file, strlen(rw->file));
    gpulab_rw_puts(&rw->out, "\"\n");
}

/* After the text: one traits line per kernel, numbered on from the last line. */
static void emit_traits(rewriter *rw, const gpulab_rw_result *res, uint32_t newlines)
{
    unsigned last = newlines;
    if (rw->len > 0 && rw->src[rw->len - 1] != '\n') {
        gpulab_rw_puts(&rw->out, "\n");
        last++;
    }
    put_line_directive(rw, last + 1);
    for (size_t i = 0; i < res->kernel_count; i++) {
        const gpulab_rw_kernel *k = &res->kernels[i];
        gpulab_rw_puts(&rw->out, k->is_template ? "/* gpulab: template kernel "
                                                : "GPULAB_SIM_KERNEL_TRAITS(");
        gpulab_rw_puts(&rw->out, k->name);
        gpulab_rw_puts(&rw->out, k->is_template ? ": traits decided at run time */\n"
                                 : k->sync      ? ", 1);\n"
                                                : ", 0);\n");
    }
}

static int run(rewriter *rw, unsigned flags, gpulab_rw_result *res)
{
    gpulab_rw_tokens toks;
    if (gpulab_rw_lex(rw->src, rw->len, &toks) != 0)
        return -1;
    rw->t = toks.v;
    rw->n = toks.n;
    int rc = gpulab_rw_find_kernels(rw->src, &toks, &res->kernels, &res->kernel_count);
    if (rc == 0)
        rc = match_groups(rw);
    if (rc == 0) {
        put_line_directive(rw, 1);
        rewrite_launches(rw);
        if (flags & GPULAB_RW_TRAITS)
            emit_traits(rw, res, toks.lines);
    }
    free(toks.v);
    free(rw->close);
    return rc;
}

int gpulab_rw_rewrite(const char *src, size_t len, const char *filename, unsigned flags,
                      gpulab_rw_result *res)
{
    rewriter rw = { .src = src, .file = filename ? filename : "<input>", .len = len };
    memset(res, 0, sizeof(*res));
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) { /* a UTF-8 byte-order mark */
        rw.src += 3;
        rw.len -= 3;
    }
    gpulab_rw_puts(&rw.err, "");
    gpulab_rw_puts(&rw.out, "");
    int rc = 0;
    if (rw.len >= UINT32_MAX)
        report(&rw, 1, "file too large for the launch rewriter (4 GiB at most)");
    else
        rc = run(&rw, flags, res);
    res->text = rw.out.p;
    res->len = rw.out.len;
    res->errors = rw.err.p;
    res->error_count = rw.errors;
    if (rc != 0 || rw.out.oom || rw.err.oom) {
        gpulab_rw_result_free(res);
        return GPULAB_RW_ENOMEM;
    }
    return rw.errors;
}

void gpulab_rw_result_free(gpulab_rw_result *res)
{
    if (!res)
        return;
    for (size_t i = 0; i < res->kernel_count; i++)
        free(res->kernels[i].name);
    free(res->kernels);
    free(res->text);
    free(res->errors);
    memset(res, 0, sizeof(*res));
}
