/*
 * shared.c — the launch rewriter's `__shared__` declarations: `extern
 * __shared__` arrays bound to the simulator's dynamic shared memory, and
 * static `__shared__` declarations in function bodies turned into places in
 * its shared-memory window; and `__constant__` variables, registered so that
 * the check mode knows them. See rewrite.h.
 */
#include "emit.h"

static int in_function_body(const rewriter *rw, size_t i);
static int is_punct(const rewriter *rw, size_t i, const char *text);

/* In a function body, `extern __shared__ [__align__(n)] T name[];` becomes
 * `GPULAB_SIM_DYNAMIC_SHARED_REF(name, T);`, a reference to the buffer (GCC
 * drops the assembler name of a block-scope extern declaration in a
 * template, so the form below would not link there). The declaration's
 * newlines follow it. Returns 1 when done, 0 for a declaration of another
 * shape (it then takes the form below). */
static int extern_shared_ref(rewriter *rw, size_t i, size_t shared, size_t semi)
{
    if (semi < 4 || rw->t[semi - 1].kind != RW_RBRACKET || rw->t[semi - 2].kind != RW_LBRACKET ||
        rw->t[semi - 3].kind != RW_IDENT || semi - 3 <= shared ||
        (rw->t[i].flags & RW_IN_DIRECTIVE) || !in_function_body(rw, i))
        return 0;
    size_t name = semi - 3, words = 0;
    for (size_t j = i + 1; j < name; j++) {
        if (j == shared)
            continue;
        if (is_ident(rw, j, "__align__") || is_ident(rw, j, "__attribute__")) {
            if (j + 1 >= name || rw->t[j + 1].kind != RW_LPAREN || rw->close[j + 1] == NONE32)
                return 0;
            j = rw->close[j + 1];
            continue;
        }
        if (rw->t[j].kind != RW_IDENT && rw->t[j].kind != RW_SCOPE && !is_punct(rw, j, "*") &&
            rw->t[j].kind != RW_LT && rw->t[j].kind != RW_GT && rw->t[j].kind != RW_COMMA &&
            rw->t[j].kind != RW_NUMBER)
            return 0;
        words += rw->t[j].kind == RW_IDENT;
    }
    if (words == 0)
        return 0;
    copy_to(rw, rw->t[i].start);
    gpulab_rw_puts(&rw->out, "GPULAB_SIM_DYNAMIC_SHARED_REF(");
    gpulab_rw_put(&rw->out, rw->src + rw->t[name].start, rw->t[name].len);
    gpulab_rw_puts(&rw->out, ",");
    for (size_t j = i + 1; j < name; j++) {
        if (j == shared)
            continue;
        if (is_ident(rw, j, "__align__") || is_ident(rw, j, "__attribute__")) {
            j = rw->close[j + 1];
            continue;
        }
        gpulab_rw_puts(&rw->out, " ");
        gpulab_rw_put(&rw->out, rw->src + rw->t[j].start, rw->t[j].len);
    }
    gpulab_rw_puts(&rw->out, ")");
    for (size_t b = rw->t[i].start; b < rw->t[semi].start; b++)
        if (rw->src[b] == '\n')
            gpulab_rw_puts(&rw->out, "\n");
    rw->copied = rw->t[semi].start;
    return 1;
}

/* `extern __shared__ T name[];` (or `extern T __shared__ name[];`) declares
 * the block's dynamic shared memory. Outside a function body it becomes
 * `extern __thread T name[] GPULAB_SIM_DYNAMIC_SHARED;`, a
 * per-worker buffer the runtime provides (a worker runs one block at a time).
 * The ';' must be on the same kind of line as the `extern` (both code, or the
 * same directive), so that a `#define` without one is left alone rather than
 * binding a later, unrelated declaration.
 * Returns the index of the declaration's ';', or i when it is not one. */
size_t gpulab_rw_extern_shared(rewriter *rw, size_t i)
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
    if (extern_shared_ref(rw, i, shared, semi))
        return semi;
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

/* The innermost `{` still open at token i, or NONE at file scope. */
static size_t enclosing_brace(const rewriter *rw, size_t i)
{
    long depth = 0;
    size_t j = i;
    while ((j = prev_code(rw, j)) != NONE) {
        if (rw->t[j].kind == RW_RBRACE)
            depth++;
        else if (rw->t[j].kind == RW_LBRACE && depth-- == 0)
            break;
    }
    return j;
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
    size_t j = enclosing_brace(rw, i);
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
    static const char *const words[] = {
        "int",    "float", "double", "char",     "long",   "short",      "unsigned",
        "signed", "bool",  "void",   "auto",     "const",  "volatile",   "struct",
        "union",  "class", "enum",   "typename", "static", "__shared__", "__constant__"
    };
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
static int parse_decl(const rewriter *rw, size_t i, shared_decl *d, const char *space);

static int parse_shared_decl(const rewriter *rw, size_t i, shared_decl *d)
{
    memset(d, 0, sizeof(*d));
    if ((rw->t[i].flags & RW_IN_DIRECTIVE) || !in_function_body(rw, i))
        return -1;
    return parse_decl(rw, i, d, "__shared__");
}

/* Parses the declaration around the memory-space word at token i
 * (`__shared__`, or `__constant__`, which may have initializers). */
static int parse_decl(const rewriter *rw, size_t i, shared_decl *d, const char *space)
{
    int constant = strcmp(space, "__constant__") == 0;
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
            if (is_ident(rw, j, "static") || is_ident(rw, j, space) || is_attribute_word(rw, j))
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
        case RW_ASSIGN: /* an initializer: to the next , or ; outside brackets */
            if (!constant || angle != 0)
                return -1;
            if (name == NONE && last_was_word)
                name = last;
            while (j + 1 < rw->n && rw->t[j + 1].kind != RW_COMMA && rw->t[j + 1].kind != RW_SEMI) {
                j++;
                if (rw->t[j].flags & RW_IN_DIRECTIVE)
                    return -1;
                if (is_opener(rw->t[j].kind)) {
                    if (rw->close[j] == NONE32)
                        return -1;
                    j = rw->close[j];
                }
            }
            last_was_word = 0;
            continue;
        default: /* ), a launch, ... */
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
size_t gpulab_rw_static_shared(rewriter *rw, size_t i)
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

/* 1 when token i is at file or namespace scope (or in an `extern "C"` block). */
static int at_namespace_scope(const rewriter *rw, size_t i)
{
    size_t j = enclosing_brace(rw, i);
    if (j == NONE)
        return 1;
    size_t p = prev_code(rw, j);
    if (p == NONE)
        return 0;
    if (rw->t[p].kind == RW_STRING || is_ident(rw, p, "namespace"))
        return 1; /* extern "C" {, namespace { */
    size_t q = rw->t[p].kind == RW_IDENT ? prev_code(rw, p) : NONE;
    return q != NONE && is_ident(rw, q, "namespace");
}

/* A `__constant__` variable at file or namespace scope,
 *     [static] __constant__ T a[N] = {...}, b;
 * is followed, on the line of its ';', by `GPULAB_SIM_CONSTANT(a);` per name,
 * which tells the simulator where it lies (the check mode reports a kernel
 * that writes it). Declarations it cannot read (extern ones, templates, a
 * brace initializer without `=`) are left as they are. Returns the index of
 * the ';', or i. */
size_t gpulab_rw_constant(rewriter *rw, size_t i)
{
    shared_decl d;
    memset(&d, 0, sizeof(d));
    if (!is_ident(rw, i, "__constant__") || (rw->t[i].flags & RW_IN_DIRECTIVE) ||
        !at_namespace_scope(rw, i) || parse_decl(rw, i, &d, "__constant__") != 0 ||
        rw->t[d.first].start < rw->copied)
        return i;
    copy_to(rw, rw->t[d.semi].start + 1);
    for (size_t k = 0; k < d.count; k++) {
        const gpulab_rw_token *t = &rw->t[d.names[k]];
        gpulab_rw_puts(&rw->out, " GPULAB_SIM_CONSTANT(");
        gpulab_rw_put(&rw->out, rw->src + t->start, t->len);
        gpulab_rw_puts(&rw->out, ");");
    }
    return d.semi;
}
