/*
 * json.h — the grader's small JSON toolkit: check that a document is JSON
 * (RFC 8259) and read the top-level members of an object, and write JSON
 * strings. Enough for result.json files and the grader's own reports.
 */
#ifndef GRADE_JSON_H
#define GRADE_JSON_H

#include <stddef.h>
#include <stdio.h>

/* A top-level member of an object: its key (decoded) and its value as text. */
typedef struct grade_json_member {
    char *key;
    char *value; /* the value's JSON text, e.g. "\"abc\"", "3", "true", "[1,2]" */
} grade_json_member;

typedef struct grade_json_object {
    grade_json_member *members;
    size_t n;
} grade_json_object;

/* Parses text as one JSON object. Returns 0, or -1 with a message in why
 * ("line 3: expected ',' or '}'"). On success free with grade_json_free. */
int grade_json_parse_object(grade_json_object *out, const char *text, size_t len, char *why,
                            size_t why_len);
void grade_json_free(grade_json_object *obj);
/* The value text of member key, or NULL. */
const char *grade_json_get(const grade_json_object *obj, const char *key);
/* The value of a string member, decoded (malloc'd), or NULL if missing or not a string. */
char *grade_json_get_string(const grade_json_object *obj, const char *key);

/* Writes s as a JSON string literal. Bytes that are not valid UTF-8 (a
 * Latin-1 byte in a student's compile error, a sequence cut short) become
 * U+FFFD, so the document is valid UTF-8 whatever s holds. */
void grade_json_write_string(FILE *f, const char *s);

/* The length (1 to 4) of the valid UTF-8 sequence s starts with, its code
 * point in *cp; 0 when s starts with none (a stray or continuation byte, an
 * overlong form, a surrogate, NUL). */
int grade_utf8_decode(const char *s, unsigned *cp);
/* Writes s with every byte that is not valid UTF-8 replaced by U+FFFD. */
void grade_utf8_write(FILE *f, const char *s);

#endif
