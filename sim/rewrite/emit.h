/*
 * emit.h — the launch rewriter's state while it copies one source text,
 * shared by rewrite.c (launches, the driver) and shared.c (`__shared__`
 * declarations), with the small token tests both use. Internal to the
 * rewriter.
 */
#ifndef GPULAB_RW_EMIT_H
#define GPULAB_RW_EMIT_H

#include "tokens.h"

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

/* 1 when tokens a and b are both inside the same kind of line (code, or a directive). */
static inline int same_context(const rewriter *rw, size_t a, size_t b)
{
    return ((rw->t[a].flags ^ rw->t[b].flags) & RW_IN_DIRECTIVE) == 0 &&
           !(rw->t[b].flags & RW_DIRECTIVE);
}

static inline int is_opener(int k)
{
    return k == RW_LPAREN || k == RW_LBRACKET || k == RW_LBRACE;
}

static inline int is_closer(int k)
{
    return k == RW_RPAREN || k == RW_RBRACKET || k == RW_RBRACE;
}

static inline int is_ident(const rewriter *rw, size_t i, const char *word)
{
    size_t n = strlen(word);
    return i < rw->n && rw->t[i].kind == RW_IDENT && rw->t[i].len == n &&
           memcmp(rw->src + rw->t[i].start, word, n) == 0;
}

static inline void copy_to(rewriter *rw, size_t end)
{
    gpulab_rw_put(&rw->out, rw->src + rw->copied, end - rw->copied);
    rw->copied = end;
}

/* Rewrites the `extern __shared__` declaration starting at token i (see
 * shared.c); returns the index of its ';', or i when it is not one. */
size_t gpulab_rw_extern_shared(rewriter *rw, size_t i);

/* Rewrites the static `__shared__` declaration around the `__shared__` at
 * token i (see shared.c); returns the index of its ';', or i when it is left
 * as it is. */
size_t gpulab_rw_static_shared(rewriter *rw, size_t i);

/* Registers the `__constant__` variables declared at token i (see shared.c);
 * returns the index of the declaration's ';', or i when it is left alone. */
size_t gpulab_rw_constant(rewriter *rw, size_t i);

#endif /* GPULAB_RW_EMIT_H */
