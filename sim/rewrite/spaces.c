/*
 * spaces.c — nvcc's execution-space checks, so that what builds on the
 * simulator builds with nvcc: over the files of one rewrite (a .cu file and
 * the quoted headers rewritten with it), a __host__ function that calls a
 * __device__ one, a kernel or __device__ function that calls a host one, and
 * (without relocatable device code) a __device__ function that device code
 * calls but that none of those files defines.
 *
 * It works on names and stays on the safe side: a name with declarations in
 * both spaces (overloads), a declaration a macro may qualify (an all-capitals
 * word before the name), constexpr functions, qualified names and member
 * functions, and function bodies that hold lambdas with a space or test
 * __CUDA_ARCH__ are never reported. Functions declared in headers outside
 * the rewrite (<...>, -I folders) are unknown to it, so never reported.
 */
#define _POSIX_C_SOURCE 200809L /* strdup, strndup */
#include "tokens.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SP_HOST = 1,    /* __host__ written */
    SP_DEVICE = 2,  /* __device__ */
    SP_GLOBAL = 4,  /* __global__ */
    SP_UNKNOWN = 8, /* a macro may hide a qualifier: never reported */
    SP_CONSTEXPR = 16,
    SP_TEMPLATE = 32
};

typedef struct sp_file {
    char *src;
    char *name;
    gpulab_rw_tokens toks;
} sp_file;

typedef struct sp_decl {
    size_t file;
    size_t name;   /* token of the name */
    size_t lb, rb; /* tokens of the body's { and }, or 0 and 0 without a body */
    unsigned space;
} sp_decl;

struct gpulab_rw_spaces {
    sp_file *files;
    size_t nfiles, capfiles;
    sp_decl *decls;
    size_t ndecls, capdecls;
    int oom;
};

static int sp_grow(gpulab_rw_spaces *s, void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 16;
    void *p = realloc(*v, c * size);
    if (!p) {
        s->oom = 1;
        return -1;
    }
    *v = p;
    *cap = c;
    return 0;
}

gpulab_rw_spaces *gpulab_rw_spaces_new(void)
{
    return calloc(1, sizeof(gpulab_rw_spaces));
}

void gpulab_rw_spaces_free(gpulab_rw_spaces *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nfiles; i++) {
        free(s->files[i].src);
        free(s->files[i].name);
        free(s->files[i].toks.v);
    }
    free(s->files);
    free(s->decls);
    free(s);
}

/* The token's text is word. */
static int is(const sp_file *f, size_t i, const char *word)
{
    const gpulab_rw_token *t = &f->toks.v[i];
    return strlen(word) == t->len && memcmp(f->src + t->start, word, t->len) == 0;
}

static int is_kind(const sp_file *f, size_t i, int kind)
{
    return i < f->toks.n && f->toks.v[i].kind == kind;
}

/* An all-capitals word (FOO_BAR, two characters or more): maybe a macro. */
static int looks_like_macro(const sp_file *f, size_t i)
{
    const gpulab_rw_token *t = &f->toks.v[i];
    int letters = 0;
    if (t->kind != RW_IDENT || t->len < 2)
        return 0;
    for (uint32_t k = 0; k < t->len; k++) {
        char c = f->src[t->start + k];
        if (c >= 'a' && c <= 'z')
            return 0;
        letters += c >= 'A' && c <= 'Z';
    }
    return letters > 0;
}

static const char *const not_names[] = {
    "__launch_bounds__", "__attribute__", "__declspec", "alignas",  "__align__",
    "decltype",          "__maxnreg__",   "sizeof",     "operator", "__cluster_dims__",
};

/* Statement keywords followed by ( : never a function's name, whatever a
 * misread declaration makes of them. */
static const char *const statement_words[] = { "if",     "for",   "while",        "switch",
                                               "return", "catch", "static_assert" };

static int is_statement_word(const sp_file *f, size_t i)
{
    for (size_t k = 0; k < sizeof(statement_words) / sizeof(statement_words[0]); k++)
        if (is(f, i, statement_words[k]))
            return 1;
    return 0;
}

/* Index of the token matching the opener at i ({ or <), skipping directives; n when none. */
static size_t matching(const sp_file *f, size_t i, int open, int close)
{
    long depth = 0;
    for (; i < f->toks.n; i++) {
        if (f->toks.v[i].flags & RW_IN_DIRECTIVE)
            continue;
        depth += f->toks.v[i].kind == open;
        depth -= f->toks.v[i].kind == close;
        if (depth == 0)
            return i;
    }
    return f->toks.n;
}

/* Records the declaration [d, end) when it declares a function; body lb..rb (0 when none). */
static void add_decl(gpulab_rw_spaces *s, size_t file, size_t d, size_t end, size_t lb, size_t rb)
{
    const sp_file *f = &s->files[file];
    unsigned space = 0;
    size_t name = (size_t)-1;
    for (size_t i = d; i < end; i++) {
        const gpulab_rw_token *t = &f->toks.v[i];
        if (t->flags & RW_IN_DIRECTIVE)
            continue;
        if (t->kind == RW_ASSIGN || t->kind == RW_LBRACE)
            return; /* a variable with an initializer, a class, an enum */
        if (t->kind == RW_IDENT && is(f, i, "template")) {
            space |= SP_TEMPLATE;
            if (is_kind(f, i + 1, RW_LT))
                i = matching(f, i + 1, RW_LT, RW_GT);
            continue;
        }
        if (t->kind == RW_LPAREN) {
            size_t j = i - 1;
            if (i == d || f->toks.v[j].kind != RW_IDENT)
                return; /* void (*fp)(int); and the like */
            int skip = 0;
            for (size_t k = 0; k < sizeof(not_names) / sizeof(not_names[0]); k++)
                skip |= is(f, j, not_names[k]);
            if (skip) {
                i = matching(f, i, RW_LPAREN, RW_RPAREN);
                continue;
            }
            if (j > d && (f->toks.v[j - 1].kind == RW_SCOPE || is(f, j - 1, "~")))
                return; /* S::f, a member defined outside its class */
            if (is_statement_word(f, j))
                return; /* a statement, not a declaration */
            name = j;
            break;
        }
        if (t->kind != RW_IDENT)
            continue;
        if (is(f, i, "__host__"))
            space |= SP_HOST;
        else if (is(f, i, "__device__"))
            space |= SP_DEVICE;
        else if (is(f, i, "__global__"))
            space |= SP_GLOBAL;
        else if (is(f, i, "constexpr") || is(f, i, "consteval"))
            space |= SP_CONSTEXPR;
        else if (is(f, i, "class") || is(f, i, "struct") || is(f, i, "union") ||
                 is(f, i, "typedef") || is(f, i, "using") || is(f, i, "friend"))
            return;
        else if (looks_like_macro(f, i))
            space |= SP_UNKNOWN;
    }
    if (name == (size_t)-1 ||
        sp_grow(s, (void **)&s->decls, &s->capdecls, s->ndecls, sizeof(*s->decls)) != 0)
        return;
    s->decls[s->ndecls++] = (sp_decl){ file, name, lb, rb, space };
}

/* Walks the file scope (and namespace and extern "C" blocks) for function declarations. */
static void collect(gpulab_rw_spaces *s, size_t file)
{
    const sp_file *f = &s->files[file];
    size_t d = 0, n = f->toks.n;
    long paren = 0;
    int spoiled = 0; /* the declaration held a class or initializer body: not a function */
    for (size_t i = 0; i < n && !s->oom; i++) {
        const gpulab_rw_token *t = &f->toks.v[i];
        if (t->flags & RW_IN_DIRECTIVE) {
            if (d == i)
                d = i + 1;
            continue;
        }
        paren += (t->kind == RW_LPAREN) - (t->kind == RW_RPAREN);
        paren = paren < 0 ? 0 : paren;
        if (paren != 0)
            continue;
        if (t->kind == RW_SEMI) {
            if (!spoiled)
                add_decl(s, file, d, i, 0, 0);
            d = i + 1;
            spoiled = 0;
        } else if (t->kind == RW_RBRACE) { /* the end of a namespace or extern block */
            d = i + 1;
            spoiled = 0;
        } else if (t->kind == RW_LBRACE) {
            size_t k = d;
            while (k < i && (f->toks.v[k].flags & RW_IN_DIRECTIVE))
                k++;
            int block =
                k < i && (is(f, k, "namespace") ||
                          (is(f, k, "inline") && k + 1 < i && is(f, k + 1, "namespace")) ||
                          (is(f, k, "extern") && is_kind(f, k + 1, RW_STRING) && k + 2 == i));
            if (block) {
                d = i + 1;
                continue;
            }
            size_t rb = matching(f, i, RW_LBRACE, RW_RBRACE);
            size_t before = s->ndecls;
            if (!spoiled && i > d && f->toks.v[i - 1].kind != RW_ASSIGN)
                add_decl(s, file, d, i, i, rb);
            if (s->ndecls > before) { /* a function definition: the declaration ends here */
                d = rb + 1;
            } else {
                spoiled = 1;
            }
            i = rb;
        }
    }
}

int gpulab_rw_spaces_add(gpulab_rw_spaces *s, const char *src, size_t len, const char *filename)
{
    if (sp_grow(s, (void **)&s->files, &s->capfiles, s->nfiles, sizeof(*s->files)) != 0)
        return -1;
    sp_file *f = &s->files[s->nfiles];
    memset(f, 0, sizeof(*f));
    f->src = malloc(len + 1);
    f->name = strdup(filename);
    if (!f->src || !f->name || gpulab_rw_lex(src, len, &f->toks) != 0) {
        free(f->src);
        free(f->name);
        s->oom = 1;
        return -1;
    }
    memcpy(f->src, src, len);
    f->src[len] = '\0';
    s->nfiles++;
    collect(s, s->nfiles - 1);
    return s->oom ? -1 : 0;
}

/* The name of declaration e, as text. */
static void name_of(const gpulab_rw_spaces *s, const sp_decl *e, const char **p, size_t *len)
{
    const sp_file *f = &s->files[e->file];
    *p = f->src + f->toks.v[e->name].start;
    *len = f->toks.v[e->name].len;
}

/* "name(type, type)" of declaration e: its parameters without their names. */
static void put_signature(gpulab_rw_buf *b, const gpulab_rw_spaces *s, const sp_decl *e)
{
    const sp_file *f = &s->files[e->file];
    const char *p;
    size_t len, lp = e->name + 1, rp = matching(f, e->name + 1, RW_LPAREN, RW_RPAREN);
    name_of(s, e, &p, &len);
    gpulab_rw_put(b, p, len);
    gpulab_rw_puts(b, "(");
    size_t start = lp + 1;
    int first = 1;
    for (size_t i = lp + 1; i <= rp && i < f->toks.n; i++) {
        int k = f->toks.v[i].kind;
        if (i < rp && k != RW_COMMA)
            continue;
        /* one parameter: [start, i); drop its name and a default argument */
        size_t end = i;
        for (size_t j = start; j < i; j++)
            if (f->toks.v[j].kind == RW_ASSIGN) {
                end = j;
                break;
            }
        if (end > start + 1 && f->toks.v[end - 1].kind == RW_IDENT && !is(f, end - 1, "int") &&
            !is(f, end - 1, "float") && !is(f, end - 1, "double") && !is(f, end - 1, "char") &&
            !is(f, end - 1, "long") && !is(f, end - 1, "unsigned") && !is(f, end - 1, "short") &&
            !is(f, end - 1, "void") && !is(f, end - 1, "bool"))
            end--;
        if (end > start) {
            if (!first)
                gpulab_rw_puts(b, ", ");
            for (size_t j = start; j < end; j++) {
                const gpulab_rw_token *t = &f->toks.v[j];
                const char *tp = f->src + t->start;
                int attach = j == start || (t->kind == RW_OTHER && (*tp == '*' || *tp == '&') &&
                                            f->toks.v[j - 1].kind == RW_OTHER);
                if (!attach)
                    gpulab_rw_puts(b, " ");
                gpulab_rw_put(b, tp, t->len);
            }
            first = 0;
        }
        start = i + 1;
    }
    gpulab_rw_puts(b, ")");
}

/* What all the declarations of a name say. */
typedef struct sp_summary {
    const sp_decl *first;
    int unknown, device_only, host_only, device, defined, tmpl;
} sp_summary;

static sp_summary summarize(const gpulab_rw_spaces *s, const char *p, size_t len)
{
    sp_summary r = { NULL, 0, 1, 1, 1, 0, 0 };
    for (size_t i = 0; i < s->ndecls; i++) {
        const sp_decl *e = &s->decls[i];
        const char *q;
        size_t qlen;
        name_of(s, e, &q, &qlen);
        if (qlen != len || memcmp(p, q, len) != 0)
            continue;
        if (!r.first)
            r.first = e;
        unsigned sp = e->space;
        r.unknown |= (sp & (SP_UNKNOWN | SP_CONSTEXPR)) != 0;
        r.device_only &= (sp & SP_DEVICE) && !(sp & (SP_HOST | SP_GLOBAL));
        r.host_only &= !(sp & (SP_DEVICE | SP_GLOBAL));
        r.device &= (sp & SP_DEVICE) != 0;
        r.defined |= e->rb != 0;
        r.tmpl |= (sp & SP_TEMPLATE) != 0;
    }
    if (!r.first)
        r.device_only = r.host_only = r.device = 0;
    return r;
}

/* Whether the body of e holds a lambda with a space or a test of __CUDA_ARCH__. */
static int body_is_mixed(const sp_file *f, const sp_decl *e)
{
    for (size_t i = e->lb; i < e->rb; i++)
        if (is(f, i, "__device__") || is(f, i, "__host__") || is(f, i, "__global__") ||
            is(f, i, "__CUDA_ARCH__"))
            return 1;
    return 0;
}

static const char *const call_after_word[] = { "return", "else", "do", "case", "throw" };

int gpulab_rw_spaces_check(gpulab_rw_spaces *s, int rdc, char **errors)
{
    gpulab_rw_buf b = { 0 };
    int count = 0;
    char **reported = NULL; /* names already reported as unresolved */
    size_t nreported = 0, capreported = 0;
    *errors = NULL;
    for (size_t c = 0; c < s->ndecls && !s->oom; c++) {
        const sp_decl *caller = &s->decls[c];
        const sp_file *f = &s->files[caller->file];
        unsigned sp = caller->space;
        if (!caller->rb || (sp & (SP_UNKNOWN | SP_CONSTEXPR)) || body_is_mixed(f, caller))
            continue;
        int host = !(sp & (SP_DEVICE | SP_GLOBAL));
        int device = (sp & SP_GLOBAL) || ((sp & SP_DEVICE) && !(sp & SP_HOST));
        if (!host && !device)
            continue; /* __host__ __device__ */
        for (size_t i = caller->lb + 1; i < caller->rb; i++) {
            const gpulab_rw_token *t = &f->toks.v[i];
            if (t->kind != RW_IDENT || (t->flags & RW_IN_DIRECTIVE) ||
                !is_kind(f, i + 1, RW_LPAREN) || is_statement_word(f, i))
                continue;
            const gpulab_rw_token *prev = &f->toks.v[i - 1];
            const char *pp = f->src + prev->start;
            if (prev->kind == RW_SCOPE || prev->kind == RW_GT ||
                (prev->kind == RW_OTHER && (*pp == '.' || (prev->len == 2 && pp[0] == '-'))))
                continue; /* a member, a qualified name, a cast */
            if (prev->kind == RW_IDENT) {
                int ok = 0;
                for (size_t k = 0; k < sizeof(call_after_word) / sizeof(call_after_word[0]); k++)
                    ok |= is(f, i - 1, call_after_word[k]);
                if (!ok)
                    continue; /* a declaration: T name(args) */
            }
            sp_summary r = summarize(s, f->src + t->start, t->len);
            if (!r.first || r.unknown)
                continue;
            const char *cname;
            size_t clen;
            name_of(s, caller, &cname, &clen);
            const char *what = host ? "__host__" : (sp & SP_GLOBAL) ? "__global__" : "__device__";
            if ((host && r.device_only) || (device && r.host_only)) {
                gpulab_rw_printf(&b, "%s(%u): error: calling a %s function(\"", f->name, t->line,
                                 host ? "__device__" : "__host__");
                put_signature(&b, s, r.first);
                gpulab_rw_printf(&b, "\") from a %s function(\"", what);
                gpulab_rw_put(&b, cname, clen);
                gpulab_rw_puts(&b, "\") is not allowed\n");
                count++;
            } else if (device && !rdc && r.device && !r.defined && !r.tmpl) {
                int seen = 0;
                for (size_t k = 0; k < nreported; k++)
                    seen |= strlen(reported[k]) == t->len &&
                            memcmp(reported[k], f->src + t->start, t->len) == 0;
                if (seen ||
                    sp_grow(s, (void **)&reported, &capreported, nreported, sizeof(char *)) != 0)
                    continue;
                reported[nreported] = strndup(f->src + t->start, t->len);
                if (!reported[nreported]) {
                    s->oom = 1;
                    continue;
                }
                gpulab_rw_puts(&b, "ptxas fatal   : Unresolved extern function '");
                put_signature(&b, s, r.first);
                gpulab_rw_printf(&b,
                                 "'\n%s(%u): note: called from device code here but defined in "
                                 "no file of this compile. ",
                                 f->name, t->line);
                gpulab_rw_puts(&b,
                               "A __device__ function of another file needs -rdc=true (or -dc).\n");
                nreported++;
                count++;
            }
        }
    }
    for (size_t k = 0; k < nreported; k++)
        free(reported[k]);
    free(reported);
    if (s->oom || b.oom) {
        free(b.p);
        return -1;
    }
    if (count == 0) {
        free(b.p);
        return 0;
    }
    *errors = b.p;
    return count;
}
