/* json.c — see json.h. A recursive-descent checker with a depth limit; it
 * never reads past len. */
#define _POSIX_C_SOURCE 200809L
#include "json.h"

#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *s;
    size_t len, pos;
    int depth;
    char *why;
    size_t why_len;
} parser;

static int fail(parser *p, const char *msg)
{
    int line = 1;
    for (size_t i = 0; i < p->pos && i < p->len; i++)
        line += p->s[i] == '\n';
    if (p->why && p->why_len)
        snprintf(p->why, p->why_len, "line %d: %s", line, msg);
    return -1;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
        p->pos++;
}

static int peek(parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int value(parser *p);

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, "unexpected text");
    p->pos += n;
    return 0;
}

static int is_hex(int c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int string(parser *p)
{
    if (peek(p) != '"')
        return fail(p, "expected a string");
    p->pos++;
    while (p->pos < p->len) {
        unsigned char c = (unsigned char)p->s[p->pos++];
        if (c == '"')
            return 0;
        if (c < 0x20)
            return fail(p, "control character in a string");
        if (c == '\\') {
            int e = peek(p);
            if (e < 0 || !strchr("\"\\/bfnrtu", e) || !e)
                return fail(p, "bad escape in a string");
            p->pos++;
            if (e == 'u') {
                for (int k = 0; k < 4; k++, p->pos++)
                    if (!is_hex(peek(p)))
                        return fail(p, "bad \\u escape");
            }
        }
    }
    return fail(p, "unterminated string");
}

static int digits(parser *p)
{
    size_t start = p->pos;
    while (peek(p) >= '0' && peek(p) <= '9')
        p->pos++;
    return p->pos > start ? 0 : fail(p, "expected a digit");
}

static int number(parser *p)
{
    if (peek(p) == '-')
        p->pos++;
    if (peek(p) == '0')
        p->pos++;
    else if (digits(p))
        return -1;
    if (peek(p) == '.') {
        p->pos++;
        if (digits(p))
            return -1;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (digits(p))
            return -1;
    }
    return 0;
}

static int container(parser *p, int close)
{
    if (++p->depth > 64)
        return fail(p, "nested too deeply");
    p->pos++;
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        p->depth--;
        return 0;
    }
    for (;;) {
        skip_ws(p);
        if (close == '}') {
            if (string(p))
                return -1;
            skip_ws(p);
            if (peek(p) != ':')
                return fail(p, "expected ':'");
            p->pos++;
        }
        if (value(p))
            return -1;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == close) {
            p->pos++;
            p->depth--;
            return 0;
        }
        return fail(p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int value(parser *p)
{
    skip_ws(p);
    int c = peek(p);
    if (c == '{')
        return container(p, '}');
    if (c == '[')
        return container(p, ']');
    if (c == '"')
        return string(p);
    if (c == 't')
        return literal(p, "true");
    if (c == 'f')
        return literal(p, "false");
    if (c == 'n')
        return literal(p, "null");
    if (c == '-' || (c >= '0' && c <= '9'))
        return number(p);
    return fail(p, c < 0 ? "unexpected end" : "unexpected character");
}

/* Decodes the string literal at s[0..len) (quotes included); ASCII escapes
 * decoded, \u escapes below 0x80 decoded, others kept as '?'. */
static char *decode(const char *s, size_t len)
{
    char *out = malloc(len + 1);
    size_t j = 0;
    if (!out)
        return NULL;
    for (size_t i = 1; i + 1 < len; i++) {
        if (s[i] != '\\') {
            out[j++] = s[i];
            continue;
        }
        char e = s[++i];
        if (e == 'n')
            out[j++] = '\n';
        else if (e == 't')
            out[j++] = '\t';
        else if (e == 'r')
            out[j++] = '\r';
        else if (e == 'b')
            out[j++] = '\b';
        else if (e == 'f')
            out[j++] = '\f';
        else if (e == 'u') {
            unsigned v =
                (unsigned)strtoul((char[5]){ s[i + 1], s[i + 2], s[i + 3], s[i + 4], 0 }, NULL, 16);
            out[j++] = v < 0x80 ? (char)v : '?';
            i += 4;
        } else
            out[j++] = e;
    }
    out[j] = '\0';
    return out;
}

void grade_json_free(grade_json_object *obj)
{
    if (!obj)
        return;
    for (size_t i = 0; i < obj->n; i++) {
        free(obj->members[i].key);
        free(obj->members[i].value);
    }
    free(obj->members);
    obj->members = NULL;
    obj->n = 0;
}

int grade_json_parse_object(grade_json_object *out, const char *text, size_t len, char *why,
                            size_t why_len)
{
    parser p = { text, len, 0, 0, why, why_len };
    memset(out, 0, sizeof(*out));
    skip_ws(&p);
    if (peek(&p) != '{')
        return fail(&p, "not a JSON object (it must start with '{')");
    /* Validate the whole document first, then collect the top-level members. */
    if (value(&p))
        return -1;
    skip_ws(&p);
    if (p.pos != p.len)
        return fail(&p, "text after the object");
    parser q = { text, len, 0, 0, NULL, 0 };
    skip_ws(&q);
    q.pos++; /* { */
    skip_ws(&q);
    size_t cap = 0;
    while (peek(&q) == '"') {
        size_t k0 = q.pos;
        string(&q);
        size_t k1 = q.pos;
        skip_ws(&q);
        q.pos++; /* : */
        skip_ws(&q);
        size_t v0 = q.pos;
        value(&q);
        size_t v1 = q.pos;
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            grade_json_member *m = realloc(out->members, cap * sizeof(*m));
            if (!m)
                break;
            out->members = m;
        }
        out->members[out->n].key = decode(text + k0, k1 - k0);
        out->members[out->n].value = strndup(text + v0, v1 - v0);
        out->n++;
        skip_ws(&q);
        if (peek(&q) == ',')
            q.pos++;
        skip_ws(&q);
    }
    return 0;
}

const char *grade_json_get(const grade_json_object *obj, const char *key)
{
    for (size_t i = 0; i < obj->n; i++)
        if (obj->members[i].key && strcmp(obj->members[i].key, key) == 0)
            return obj->members[i].value;
    return NULL;
}

char *grade_json_get_string(const grade_json_object *obj, const char *key)
{
    const char *v = grade_json_get(obj, key);
    if (!v || v[0] != '"')
        return NULL;
    return decode(v, strlen(v));
}

int grade_utf8_decode(const char *s, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    int n;
    unsigned c, min;
    if (u[0] < 0x80) {
        *cp = u[0];
        return u[0] ? 1 : 0;
    }
    if ((u[0] & 0xE0) == 0xC0)
        n = 2, c = u[0] & 0x1Fu, min = 0x80;
    else if ((u[0] & 0xF0) == 0xE0)
        n = 3, c = u[0] & 0x0Fu, min = 0x800;
    else if ((u[0] & 0xF8) == 0xF0)
        n = 4, c = u[0] & 0x07u, min = 0x10000;
    else
        return 0; /* a continuation byte, or 0xF8 and above */
    for (int k = 1; k < n; k++) {
        if ((u[k] & 0xC0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        c = (c << 6) | (u[k] & 0x3Fu);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0; /* overlong, beyond Unicode, or a surrogate */
    *cp = c;
    return n;
}

/* U+FFFD, the replacement character, in UTF-8. */
static const char replacement[] = "\xEF\xBF\xBD";

void grade_utf8_write(FILE *f, const char *s)
{
    while (*s) {
        unsigned cp;
        int n = grade_utf8_decode(s, &cp);
        if (n == 0) {
            fputs(replacement, f);
            s++;
        } else {
            fwrite(s, 1, (size_t)n, f);
            s += n;
        }
    }
}

void grade_json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    while (*s) {
        unsigned cp;
        int n = grade_utf8_decode(s, &cp);
        if (n == 0) {
            fputs(replacement, f); /* not UTF-8: a Latin-1 byte, a cut sequence */
            s++;
            continue;
        }
        if (cp == '"' || cp == '\\')
            fprintf(f, "\\%c", (int)cp);
        else if (cp == '\n')
            fputs("\\n", f);
        else if (cp == '\t')
            fputs("\\t", f);
        else if (cp < 0x20)
            fprintf(f, "\\u%04x", cp);
        else
            fwrite(s, 1, (size_t)n, f);
        s += n;
    }
    fputc('"', f);
}
