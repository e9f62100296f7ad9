/*
 * tokens.h — pieces shared by the files of the launch rewriter: the token
 * list produced by the lexer, a growable byte buffer, and the kernel analysis.
 * Not part of any public interface.
 */
#ifndef GPULAB_RW_TOKENS_H
#define GPULAB_RW_TOKENS_H

#include "rewrite.h"

#include <stddef.h>
#include <stdint.h>

/** Token kinds: the punctuators the rewriter and the analysis look at, and classes of the rest. */
enum gpulab_rw_kind {
    RW_IDENT,
    RW_NUMBER,
    RW_STRING, /* string literal of any kind, and <header> names */
    RW_CHAR,
    RW_LAUNCH,     /* <<< */
    RW_LAUNCH_END, /* >>> */
    RW_LT,         /* <  */
    RW_GT,         /* >  */
    RW_SHR,        /* >> */
    RW_SCOPE,      /* :: */
    RW_LPAREN,
    RW_RPAREN,
    RW_LBRACKET,
    RW_RBRACKET,
    RW_LBRACE,
    RW_RBRACE,
    RW_COMMA,
    RW_SEMI,
    RW_ASSIGN, /* =  */
    RW_OTHER   /* any other punctuator, or a stray byte */
};

/** Token flags. */
enum {
    RW_IN_DIRECTIVE = 1, /* part of a preprocessor directive line */
    RW_DIRECTIVE = 2     /* the # that starts a directive */
};

/** One token: where it is in the source, its line and what it is. */
typedef struct gpulab_rw_token {
    uint32_t start; /* byte offset */
    uint32_t len;   /* bytes */
    uint32_t line;  /* 1-based line of its first byte */
    uint8_t kind;   /* an enum gpulab_rw_kind */
    uint8_t flags;  /* RW_IN_DIRECTIVE, RW_DIRECTIVE */
} gpulab_rw_token;

/** The tokens of a source text (comments and whitespace are not tokens). */
typedef struct gpulab_rw_tokens {
    gpulab_rw_token *v;
    size_t n, cap;
    uint32_t lines; /* number of newlines in the source */
} gpulab_rw_tokens;

/** Tokenizes @p src; returns 0, or -1 when out of memory. Free with free(toks->v). */
int gpulab_rw_lex(const char *src, size_t len, gpulab_rw_tokens *toks);

/** A growable byte buffer; @c oom is set, and appends stop, once an allocation fails. */
typedef struct gpulab_rw_buf {
    char *p;
    size_t len, cap;
    int oom;
} gpulab_rw_buf;

void gpulab_rw_put(gpulab_rw_buf *b, const char *s, size_t n);
void gpulab_rw_puts(gpulab_rw_buf *b, const char *s);
/* Appends printf-style text, cut at 255 bytes: for numbers and short messages. */
void gpulab_rw_printf(gpulab_rw_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/**
 * Finds the __global__ and __device__ function definitions among @p toks and
 * fills @p kernels / @p count with the __global__ ones, in source order.
 * Returns 0, or -1 when out of memory (then nothing is returned).
 */
int gpulab_rw_find_kernels(const char *src, const gpulab_rw_tokens *toks,
                           gpulab_rw_kernel **kernels, size_t *count);

#endif /* GPULAB_RW_TOKENS_H */
