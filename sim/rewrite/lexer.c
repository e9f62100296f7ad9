/*
 * lexer.c — splits CUDA C source into tokens for the launch rewriter.
 *
 * Good enough for finding launches and function definitions, not a full C++
 * lexer: comments, string, character and raw string literals, <header> names
 * and numbers are whole tokens so that nothing inside them is ever mistaken
 * for a launch; `<<<` and `>>>` are tokens of their own (C has no `>>>`
 * operator, so maximal munch is safe). Any byte sequence lexes; nothing fails
 * but memory.
 */
#include "tokens.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    const char *s;
    size_t n, p;
    uint32_t line;
    int line_start;   /* only whitespace and comments since the last newline */
    int in_directive; /* inside a preprocessor directive line */
    int want_header;  /* just read "#include": a <header> name may follow */
    gpulab_rw_tokens *out;
} lexer;

static int is_ident_byte(unsigned char c)
{
    return c == '_' || c == '$' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static char at(const lexer *lx, size_t i)
{
    return i < lx->n ? lx->s[i] : '\0';
}

/* Moves to @p end, counting the newlines passed over. */
static void advance_to(lexer *lx, size_t end)
{
    for (; lx->p < end; lx->p++)
        if (lx->s[lx->p] == '\n')
            lx->line++;
}

/* Length of a backslash-newline at @p i (with an optional \r), or 0. */
static size_t splice_len(const lexer *lx, size_t i)
{
    if (at(lx, i) != '\\')
        return 0;
    if (at(lx, i + 1) == '\n')
        return 2;
    return at(lx, i + 1) == '\r' && at(lx, i + 2) == '\n' ? 3 : 0;
}

/* End of a comment starting at p ("//" or "/ *"). */
static size_t comment_end(const lexer *lx, size_t p)
{
    if (lx->s[p + 1] == '/') {
        while (p < lx->n && lx->s[p] != '\n')
            p += splice_len(lx, p) ? splice_len(lx, p) : 1;
        return p;
    }
    for (p += 2; p < lx->n; p++)
        if (lx->s[p] == '*' && at(lx, p + 1) == '/')
            return p + 2;
    return lx->n;
}

/* End of a quoted literal whose opening quote is at q: stops after the closing
 * quote, or before an unescaped newline when unterminated. */
static size_t quoted_end(const lexer *lx, size_t q)
{
    char quote = lx->s[q];
    size_t p = q + 1;
    while (p < lx->n && lx->s[p] != quote && lx->s[p] != '\n') {
        size_t splice = splice_len(lx, p);
        p += splice ? splice : lx->s[p] == '\\' && p + 1 < lx->n ? 2 : 1;
    }
    return p < lx->n && lx->s[p] == quote ? p + 1 : p;
}

/* End of a raw string R"delim( ... )delim" whose quote is at q, or 0 when the
 * delimiter is malformed (then it lexes as an ordinary string). */
static size_t raw_end(const lexer *lx, size_t q)
{
    size_t d = q + 1, dlen = 0;
    while (d + dlen < lx->n && dlen <= 16 && !strchr(" ()\\\t\v\f\n\"", lx->s[d + dlen]))
        dlen++;
    if (dlen > 16 || at(lx, d + dlen) != '(')
        return 0;
    for (size_t p = d + dlen + 1; p < lx->n; p++)
        if (lx->s[p] == ')' && p + dlen + 1 < lx->n &&
            memcmp(lx->s + p + 1, lx->s + d, dlen) == 0 && lx->s[p + dlen + 1] == '"')
            return p + dlen + 2;
    return lx->n;
}

/* 1 when the identifier [b, e) is an encoding prefix of a string or character literal. */
static int is_literal_prefix(const lexer *lx, size_t b, size_t e, int raw)
{
    static const char *const plain[] = { "L", "u", "U", "u8" };
    static const char *const raws[] = { "R", "LR", "uR", "UR", "u8R" };
    const char *const *list = raw ? raws : plain;
    size_t count = raw ? 5 : 4;
    for (size_t i = 0; i < count; i++)
        if (strlen(list[i]) == e - b && memcmp(list[i], lx->s + b, e - b) == 0)
            return 1;
    return 0;
}

/* Lexes an identifier, or a prefixed literal; returns its end and sets *kind. */
static size_t ident_end(const lexer *lx, size_t b, uint8_t *kind)
{
    size_t e = b;
    while (e < lx->n && is_ident_byte((unsigned char)lx->s[e]))
        e++;
    *kind = RW_IDENT;
    char next = at(lx, e);
    if (next == '"' && is_literal_prefix(lx, b, e, 1)) {
        size_t r = raw_end(lx, e);
        *kind = RW_STRING;
        return r ? r : quoted_end(lx, e);
    }
    if ((next == '"' || next == '\'') && is_literal_prefix(lx, b, e, 0)) {
        *kind = next == '"' ? RW_STRING : RW_CHAR;
        return quoted_end(lx, e);
    }
    return e;
}

/* End of a preprocessing number (1.5e-3f, 0x1p+4, 1'000'000). */
static size_t number_end(const lexer *lx, size_t p)
{
    for (p++; p < lx->n; p++) {
        unsigned char c = (unsigned char)lx->s[p];
        if ((c == '+' || c == '-') && strchr("eEpP", lx->s[p - 1]))
            continue;
        if (c == '\'' && is_ident_byte((unsigned char)at(lx, p + 1)))
            continue;
        if (!is_ident_byte(c) && c != '.')
            break;
    }
    return p;
}

/* Lexes a punctuator at p: the ones in enum gpulab_rw_kind, else a 1-3 byte RW_OTHER. */
static size_t punct_end(const lexer *lx, size_t p, uint8_t *kind)
{
    static const struct {
        const char *text;
        uint8_t kind;
    } table[] = {
        { "<<<", RW_LAUNCH }, { ">>>", RW_LAUNCH_END }, { "<<=", RW_OTHER }, { ">>=", RW_OTHER },
        { "...", RW_OTHER },  { "->*", RW_OTHER },      { "<<", RW_OTHER },  { ">>", RW_SHR },
        { "::", RW_SCOPE },   { "->", RW_OTHER },       { "<=", RW_OTHER },  { ">=", RW_OTHER },
        { "==", RW_OTHER },   { "!=", RW_OTHER },       { "&&", RW_OTHER },  { "||", RW_OTHER },
        { "++", RW_OTHER },   { "--", RW_OTHER },       { "##", RW_OTHER },  { "<", RW_LT },
        { ">", RW_GT },       { "(", RW_LPAREN },       { ")", RW_RPAREN },  { "[", RW_LBRACKET },
        { "]", RW_RBRACKET }, { "{", RW_LBRACE },       { "}", RW_RBRACE },  { ",", RW_COMMA },
        { ";", RW_SEMI },     { "=", RW_ASSIGN },
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (table[i].text[0] != lx->s[p])
            continue;
        size_t len = strlen(table[i].text);
        if (len <= lx->n - p && memcmp(lx->s + p, table[i].text, len) == 0) {
            *kind = table[i].kind;
            return p + len;
        }
    }
    *kind = RW_OTHER;
    return p + 1;
}

/* Lexes the token at lx->p (not whitespace or comment); returns its end. */
static size_t token_end(lexer *lx, uint8_t *kind)
{
    size_t p = lx->p;
    unsigned char c = (unsigned char)lx->s[p];
    if (lx->want_header && c == '<') {
        size_t e = p + 1;
        while (e < lx->n && lx->s[e] != '>' && lx->s[e] != '\n')
            e++;
        *kind = RW_STRING;
        return e < lx->n && lx->s[e] == '>' ? e + 1 : e;
    }
    if (is_digit(c) || (c == '.' && is_digit((unsigned char)at(lx, p + 1)))) {
        *kind = RW_NUMBER;
        return number_end(lx, p);
    }
    if (is_ident_byte(c))
        return ident_end(lx, p, kind);
    if (c == '"' || c == '\'') {
        *kind = c == '"' ? RW_STRING : RW_CHAR;
        return quoted_end(lx, p);
    }
    return punct_end(lx, p, kind);
}

static int push_token(lexer *lx, size_t end, uint8_t kind, uint8_t flags)
{
    gpulab_rw_tokens *t = lx->out;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        gpulab_rw_token *v = realloc(t->v, cap * sizeof(*v));
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    gpulab_rw_token *tok = &t->v[t->n++];
    tok->start = (uint32_t)lx->p;
    tok->len = (uint32_t)(end - lx->p);
    tok->line = lx->line;
    tok->kind = kind;
    tok->flags = flags;
    return 0;
}

/* Skips whitespace, comments and line splices; a bare newline ends a directive. */
static void skip_space(lexer *lx)
{
    while (lx->p < lx->n) {
        char c = lx->s[lx->p];
        size_t splice = splice_len(lx, lx->p);
        if (c == '\n') {
            lx->line_start = 1;
            lx->in_directive = 0;
            lx->want_header = 0;
            advance_to(lx, lx->p + 1);
        } else if (splice) {
            advance_to(lx, lx->p + splice);
        } else if (c == '/' && (at(lx, lx->p + 1) == '/' || at(lx, lx->p + 1) == '*')) {
            advance_to(lx, comment_end(lx, lx->p));
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->p++;
        } else {
            return;
        }
    }
}

static int is_include(const lexer *lx, size_t b, size_t e)
{
    return (e - b == 7 && memcmp(lx->s + b, "include", 7) == 0) ||
           (e - b == 12 && memcmp(lx->s + b, "include_next", 12) == 0) ||
           (e - b == 6 && memcmp(lx->s + b, "import", 6) == 0);
}

int gpulab_rw_lex(const char *src, size_t len, gpulab_rw_tokens *toks)
{
    lexer lx = { .s = src, .n = len, .line = 1, .line_start = 1, .out = toks };
    memset(toks, 0, sizeof(*toks));
    int after_hash = 0;
    for (skip_space(&lx); lx.p < lx.n; skip_space(&lx)) {
        uint8_t kind, flags = 0;
        size_t end = token_end(&lx, &kind);
        if (lx.line_start && lx.s[lx.p] == '#') {
            lx.in_directive = 1;
            flags = RW_DIRECTIVE;
        }
        lx.want_header = after_hash && kind == RW_IDENT && is_include(&lx, lx.p, end);
        after_hash = flags == RW_DIRECTIVE;
        if (push_token(&lx, end, kind, flags | (lx.in_directive ? RW_IN_DIRECTIVE : 0)) != 0) {
            free(toks->v);
            memset(toks, 0, sizeof(*toks));
            return -1;
        }
        lx.line_start = 0;
        advance_to(&lx, end);
    }
    toks->lines = lx.line - 1;
    return 0;
}
