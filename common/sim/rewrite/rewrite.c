/*
 * rewrite.c — turns K<<<A, B[, C[, D]]>>>(ARGS) into
 * GPULAB_SIM_LAUNCH((K), "K", L, "ARGS")(A, B[, C[, D]])(ARGS), keeping every
 * newline of the source where it was, binds `extern __shared__` declarations
 * to the simulator's dynamic shared memory, and turns static `__shared__`
 * declarations in function bodies into places in its shared-memory window.
 * See rewrite.h.
 *
 * The output is the source copied verbatim except for three edits per launch:
 * "GPULAB_SIM_LAUNCH((" inserted before K, the <<< replaced by
 * `), "K", L, "ARGS")(` and the >>> by ")". None of them holds a newline.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

#define NONE32 UINT32_MAX

typedef struct rewriter {
    const char *src, *file;
    size_t len;
    const gpulab_rw_token *t;
    size_t n;
    uint32_t *close; /* per token: the index of its closing ) ] or }, or NONE32 */
    gpulab_rw_buf out, err;
    int errors;
    size_t copied; /* src[0, copied) is already in out */
    size_t floor;  /* first token a callee may start at */
} rewriter;

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

/* 1 when tokens a and b are both inside the same kind of line (code, or a directive). */
static int same_context(const rewriter *rw, size_t a, size_t b)
{
    return ((rw->t[a].flags ^ rw->t[b].flags) & RW_IN_DIRECTIVE) == 0 &&
           !(rw->t[b].flags & RW_DIRECTIVE);
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

static int is_opener(int k)
{
    return k == RW_LPAREN || k == RW_LBRACKET || k == RW_LBRACE;
}

static int is_closer(int k)
{
    return k == RW_RPAREN || k == RW_RBRACKET || k == RW_RBRACE;
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

static void copy_to(rewriter *rw, size_t end)
{
    gpulab_rw_put(&rw->out, rw->src + rw->copied, end - rw->copied);
    rw->copied = end;
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

static int is_ident(const rewriter *rw, size_t i, const char *word)
{
    size_t n = strlen(word);
    return i < rw->n && rw->t[i].kind == RW_IDENT && rw->t[i].len == n &&
           memcmp(rw->src + rw->t[i].start, word, n) == 0;
}

/* `extern __shared__ T name[];` (or `extern T __shared__ name[];`) declares
 * the block's dynamic shared memory.
 * It becomes `extern __thread T name[] GPULAB_SIM_DYNAMIC_SHARED;`, a
 * per-worker buffer the runtime provides (a worker runs one block at a time).
 * The ';' must be on the same kind of line as the `extern` (both code, or the
 * same directive), so that a `#define` without one is left alone rather than
 * binding a later, unrelated declaration.
 * Returns the index of the declaration's ';', or i when it is not one. */
static size_t rewrite_extern_shared(rewriter *rw, size_t i)
{
    if (!is_ident(rw, i, "extern"))
        return i;
    /* `__shared__` may also come after the type: `extern float __shared__ s[];` */
    size_t shared = i + 1;
    while (shared < rw->n && shared < i + 8 && !is_ident(rw, shared, "__shared__") &&
           (rw->t[shared].kind == RW_IDENT || rw->t[shared].kind == RW_SCOPE) &&
           same_context(rw, i, shared))
        shared++;
    if (!is_ident(rw, shared, "__shared__") || !same_context(rw, i, shared))
        return i;
    size_t semi = shared + 1;
    while (semi < rw->n && rw->t[semi].kind != RW_SEMI && rw->t[semi].kind != RW_LBRACE &&
           same_context(rw, i, semi))
        semi++;
    if (semi >= rw->n || rw->t[semi].kind != RW_SEMI)
        return i;
    if (shared == i + 1) {
        copy_to(rw, rw->t[shared].start);
        gpulab_rw_puts(&rw->out, "__thread");
    } else { /* __thread must follow extern: move it there, drop the __shared__ */
        copy_to(rw, rw->t[i].start + rw->t[i].len);
        gpulab_rw_puts(&rw->out, " __thread");
        copy_to(rw, rw->t[shared].start);
    }
    rw->copied = rw->t[shared].start + rw->t[shared].len;
    copy_to(rw, rw->t[semi].start);
    gpulab_rw_puts(&rw->out, " GPULAB_SIM_DYNAMIC_SHARED");
    return semi;
}

/* 1 when token i is the punctuator `text` (an RW_OTHER such as ":"). */
static int is_punct(const rewriter *rw, size_t i, const char *text)
{
    size_t n = strlen(text);
    return i < rw->n && rw->t[i].kind == RW_OTHER && rw->t[i].len == n &&
           memcmp(rw->src + rw->t[i].start, text, n) == 0;
}

/* The code token before i (tokens of directive lines are skipped), or NONE. */
static size_t prev_code(const rewriter *rw, size_t i)
{
    while (i-- > 0)
        if (!(rw->t[i].flags & RW_IN_DIRECTIVE))
            return i;
    return NONE;
}

/* 1 when token i is inside a function body (or a block of one): the innermost
 * `{` around it follows `)`, `]`, `;`, `{`, `}`, `:`, `else`, `do`, `try`,
 * `const`, `mutable` or `noexcept`; a namespace, class or `extern "C"` brace
 * follows a name or a string. */
static int in_function_body(const rewriter *rw, size_t i)
{
    static const char *const after_paren[] = {
        "else", "do", "try", "const", "mutable", "noexcept"
    };
    long depth = 0;
    size_t j = i;
    while ((j = prev_code(rw, j)) != NONE) {
        if (rw->t[j].kind == RW_RBRACE)
            depth++;
        else if (rw->t[j].kind == RW_LBRACE && depth-- == 0)
            break;
    }
    size_t p = j == NONE ? NONE : prev_code(rw, j);
    if (p == NONE)
        return 0;
    switch (rw->t[p].kind) {
    case RW_RPAREN:
    case RW_RBRACKET:
    case RW_LBRACE:
    case RW_RBRACE:
    case RW_SEMI:
        return 1;
    case RW_OTHER:
        return is_punct(rw, p, ":");
    case RW_IDENT:
        for (size_t k = 0; k < sizeof(after_paren) / sizeof(after_paren[0]); k++)
            if (is_ident(rw, p, after_paren[k]))
                return 1;
        return 0;
    default:
        return 0;
    }
}

/* Identifiers that take a parenthesized argument in a declaration's specifiers. */
static int is_attribute_word(const rewriter *rw, size_t i)
{
    return is_ident(rw, i, "__align__") || is_ident(rw, i, "__attribute__") ||
           is_ident(rw, i, "__declspec");
}

/* Words that cannot be the name a declaration declares. */
static int is_type_word(const rewriter *rw, size_t i)
{
    static const char *const words[] = { "int",   "float",    "double",   "char",   "long",
                                         "short", "unsigned", "signed",   "bool",   "void",
                                         "auto",  "const",    "volatile", "struct", "union",
                                         "class", "enum",     "typename", "static", "__shared__" };
    for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
        if (is_ident(rw, i, words[k]))
            return 1;
    return 0;
}

#define MAX_SHARED_NAMES 16

/* A static `__shared__` declaration in a function body: its first token, its
 * `;`, and the names it declares. */
typedef struct shared_decl {
    size_t first, semi;
    size_t names[MAX_SHARED_NAMES];
    size_t count;
} shared_decl;

/* The first token of the declaration whose `__shared__` is token i: back over
 * `static`, `volatile`, `const`, `__align__(n)` and `__attribute__((...))` to
 * a `;`, `{`, `}` or `:`. NONE when something else comes first. */
static size_t shared_decl_start(const rewriter *rw, size_t i)
{
    size_t first = i, p;
    while ((p = prev_code(rw, first)) != NONE) {
        int k = rw->t[p].kind;
        if (is_ident(rw, p, "static") || is_ident(rw, p, "volatile") || is_ident(rw, p, "const")) {
            first = p;
            continue;
        }
        if (k != RW_RPAREN)
            break;
        long depth = 0;
        size_t o = p;
        for (; o != NONE; o = prev_code(rw, o)) {
            if (rw->t[o].kind == RW_RPAREN)
                depth++;
            else if (rw->t[o].kind == RW_LPAREN && --depth == 0)
                break;
        }
        size_t word = o == NONE ? NONE : prev_code(rw, o);
        if (word == NONE || !is_attribute_word(rw, word))
            return NONE;
        first = word;
    }
    if (p != NONE && rw->t[p].kind != RW_SEMI && rw->t[p].kind != RW_LBRACE &&
        rw->t[p].kind != RW_RBRACE && !is_punct(rw, p, ":"))
        return NONE;
    return first;
}

/* Adds the name of a declarator (the word before its first `[`, or its last
 * word); the first declarator must follow a type (`words` counts both).
 * Returns 0, or -1 when there is no name to add. */
static int shared_decl_name(const rewriter *rw, shared_decl *d, size_t name, size_t words)
{
    if (name == NONE || is_type_word(rw, name) || d->count == MAX_SHARED_NAMES ||
        (d->count == 0 && words < 2))
        return -1;
    d->names[d->count++] = name;
    return 0;
}

/* Parses the declaration around the `__shared__` at token i. Returns 0 and
 * fills *d when it is a plain static `__shared__` declaration in a function
 * body, without initializer; -1 to leave it as it is. */
static int parse_shared_decl(const rewriter *rw, size_t i, shared_decl *d)
{
    memset(d, 0, sizeof(*d));
    if ((rw->t[i].flags & RW_IN_DIRECTIVE) || !in_function_body(rw, i))
        return -1;
    d->first = shared_decl_start(rw, i);
    if (d->first == NONE)
        return -1;
    long angle = 0;
    size_t words = 0, last = NONE, name = NONE;
    int last_was_word = 0;
    for (size_t j = d->first; j < rw->n; j++) {
        const gpulab_rw_token *t = &rw->t[j];
        if (t->flags & RW_IN_DIRECTIVE)
            return -1;
        if ((t->kind == RW_SEMI || t->kind == RW_COMMA) && angle == 0) {
            if (name == NONE && last_was_word)
                name = last;
            if (shared_decl_name(rw, d, name, words) != 0)
                return -1;
            if (t->kind == RW_SEMI) {
                d->semi = j;
                return 0;
            }
            words = 0;
            name = last = NONE;
            last_was_word = 0;
            continue;
        }
        int opener = is_opener(t->kind);
        if (opener && rw->close[j] == NONE32)
            return -1;
        switch (t->kind) {
        case RW_IDENT:
            if (is_ident(rw, j, "extern") || is_ident(rw, j, "alignas") ||
                is_ident(rw, j, "typedef"))
                return -1;
            if (is_ident(rw, j, "static") || is_ident(rw, j, "__shared__") ||
                is_attribute_word(rw, j))
                continue;
            words++;
            last = j;
            last_was_word = 1;
            continue;
        case RW_LBRACKET:
            if (name == NONE) {
                if (!last_was_word)
                    return -1;
                name = last;
            }
            j = rw->close[j];
            break;
        case RW_LPAREN:
            if (j == 0 || !is_attribute_word(rw, j - 1))
                return -1; /* a function declarator, or a constructor's arguments */
            j = rw->close[j];
            continue; /* an attribute: the name may be before it */
        case RW_LBRACE:
            j = rw->close[j]; /* struct { ... } */
            break;
        case RW_LT:
            angle++;
            break;
        case RW_GT:
            angle--;
            break;
        case RW_SHR:
            angle -= 2;
            break;
        case RW_SCOPE:
        case RW_COMMA: /* inside < > */
        case RW_NUMBER:
        case RW_OTHER:
            break;
        default: /* = (an initializer), ), a launch, ... */
            return -1;
        }
        last_was_word = 0;
    }
    return -1;
}

/* 1 when token j is one of the names d declares. */
static int is_shared_name(const shared_decl *d, size_t j)
{
    for (size_t k = 0; k < d->count; k++)
        if (d->names[k] == j)
            return 1;
    return 0;
}

/* A static `__shared__` declaration in a function body,
 *     [static] __shared__ T a[N], b;
 * becomes a type per name and a reference to the block's copy:
 *     typedef T gpulab_sim_shared_a[N], gpulab_sim_shared_b;
 *     GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_a, a, L); GPULAB_SIM_STATIC_SHARED(...b...);
 * all on the line of its ';' (L is the line of the name), so the simulator
 * places each variable in the worker's shared-memory window, against a guard
 * page, rather than among its own thread-local data. Returns the index of the
 * ';', or i when the declaration is left as it is (`static __thread`). */
static size_t rewrite_static_shared(rewriter *rw, size_t i)
{
    shared_decl d;
    if (!is_ident(rw, i, "__shared__") || parse_shared_decl(rw, i, &d) != 0 ||
        rw->t[d.first].start < rw->copied)
        return i;
    copy_to(rw, rw->t[d.first].start);
    gpulab_rw_puts(&rw->out, "typedef");
    if (!is_ident(rw, d.first, "static") && !is_ident(rw, d.first, "__shared__"))
        gpulab_rw_puts(&rw->out, " "); /* else the word it replaces goes */
    for (size_t j = d.first; j < d.semi; j++) {
        const gpulab_rw_token *t = &rw->t[j];
        if (is_ident(rw, j, "static") || is_ident(rw, j, "__shared__")) {
            copy_to(rw, t->start);
            rw->copied = t->start + t->len;
        } else if (is_shared_name(&d, j)) {
            copy_to(rw, t->start);
            gpulab_rw_puts(&rw->out, "gpulab_sim_shared_");
        } else if (is_opener(t->kind)) {
            j = rw->close[j];
        }
    }
    copy_to(rw, rw->t[d.semi].start + 1);
    for (size_t k = 0; k < d.count; k++) {
        const gpulab_rw_token *t = &rw->t[d.names[k]];
        gpulab_rw_puts(&rw->out, " GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_");
        gpulab_rw_put(&rw->out, rw->src + t->start, t->len);
        gpulab_rw_puts(&rw->out, ", ");
        gpulab_rw_put(&rw->out, rw->src + t->start, t->len);
        gpulab_rw_printf(&rw->out, ", %u);", (unsigned)t->line);
    }
    return d.semi;
}

static void rewrite_launches(rewriter *rw)
{
    for (size_t i = 0; i < rw->n; i++) {
        launch l = { .open = i };
        i = rewrite_extern_shared(rw, i);
        i = rewrite_static_shared(rw, i);
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
