/* The lab program protocol: see lab/protocol.h. */
#define _POSIX_C_SOURCE 200809L
#include "lab/protocol.h"

#include "lab/alloc.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const lab_flag *parse_flags;
static size_t parse_n_flags;

static void usage(FILE *out, const char *program, const char *description)
{
    fprintf(out,
            "%s\n"
            "usage: %s [OPTIONS]            demo: make inputs, check against the CPU, print PASS "
            "or FAIL\n"
            "       %s --in DIR --out DIR   graded: read DIR/*.npy, write OUT/*.npy and "
            "OUT/result.json\n"
            "       %s --help\n",
            description ? description : "", program, program, program);
    if (parse_n_flags)
        fprintf(out, "demo options (a value goes after a space or an '=': --opt V, --opt=V):\n");
    for (size_t i = 0; i < parse_n_flags; i++) {
        const lab_flag *f = &parse_flags[i];
        char left[64];
        snprintf(left, sizeof(left), "%s%s%s", f->name, f->value_name ? " " : "",
                 f->value_name ? f->value_name : "");
        fprintf(out, "  %-20s %s\n", left, f->help ? f->help : "");
    }
    fprintf(out, "exit status: 0 pass, 1 fail, 2 bad usage or input, 77 no usable device\n");
}

static void usage_error(const char *program, const char *description, const char *what,
                        const char *arg)
{
    fflush(stdout);
    fprintf(stderr, "%s: %s%s%s\n", program, what, arg ? ": " : "", arg ? arg : "");
    usage(stderr, program, description);
    exit(LAB_EXIT_USAGE);
}

static void copy_dir(char *dst, const char *src, const char *program, const char *description)
{
    if (strlen(src) >= LAB_ARGS_PATH_MAX)
        usage_error(program, description, "directory name too long", src);
    strcpy(dst, src);
}

/* The entry of the flag table named name (name_len bytes), or NULL. */
static const lab_flag *find_flag(const char *name, size_t name_len)
{
    for (size_t i = 0; i < parse_n_flags; i++)
        if (strlen(parse_flags[i].name) == name_len &&
            strncmp(parse_flags[i].name, name, name_len) == 0)
            return &parse_flags[i];
    return NULL;
}

/* The value of option a: what follows its '=' (--data=DIR), else the next
 * argument (--data DIR), which must not be an option itself. Exits with a
 * usage error naming a when there is none. */
static const char *option_value(const char *a, const char *eq, int argc, char **argv, int *i,
                                const char *what, const char *program, const char *description)
{
    if (eq && eq[1])
        return eq + 1;
    if (eq || *i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0)
        usage_error(program, description, what, a);
    return argv[++*i];
}

void lab_args_parse_flags(lab_args *out, int argc, char **argv, const char *description,
                          const lab_flag *flags, size_t n_flags)
{
    parse_flags = flags;
    parse_n_flags = n_flags;
    memset(out, 0, sizeof(*out));
    out->program = argc > 0 ? argv[0] : "lab";
    int have_in = 0, have_out = 0;
    const char *first_option = NULL;
    unsigned char seen[64] = { 0 };
    for (int i = 1; i < argc; i++) {
        /* "--name=value" and "--name value" are the same option. */
        const char *a = argv[i];
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        size_t name_len = eq ? (size_t)(eq - a) : strlen(a);
        const lab_flag *f = find_flag(a, name_len);
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, out->program, description);
            exit(LAB_EXIT_PASS);
        } else if ((name_len == 4 && strncmp(a, "--in", 4) == 0) ||
                   (name_len == 5 && strncmp(a, "--out", 5) == 0)) {
            int is_in = a[2] == 'i';
            const char *dir = option_value(a, eq, argc, argv, &i, "missing directory after",
                                           out->program, description);
            copy_dir(is_in ? out->in_dir : out->out_dir, dir, out->program, description);
            *(is_in ? &have_in : &have_out) = 1;
        } else if (f) {
            size_t k = (size_t)(f - flags);
            if (k < sizeof(seen) && seen[k]++)
                usage_error(out->program, description, "option given twice", a);
            if (!f->value_name && eq)
                usage_error(out->program, description, "this option takes no value", a);
            const char *v = f->value_name
                                ? option_value(a, eq, argc, argv, &i, "missing value after",
                                               out->program, description)
                                : NULL;
            if (f->given)
                *f->given = 1;
            if (v && f->value)
                *f->value = v;
            if (!first_option)
                first_option = a;
        } else {
            usage_error(out->program, description, "unknown argument", a);
        }
    }
    if (have_in != have_out)
        usage_error(out->program, description,
                    have_in ? "--in needs --out as well" : "--out needs --in as well", NULL);
    if (have_in && first_option)
        usage_error(out->program, description, "graded mode (--in/--out) takes no demo options",
                    first_option);
    out->graded = have_in;
    if (out->graded && access(out->in_dir, R_OK | X_OK) != 0)
        usage_error(out->program, description, "cannot read the input directory", out->in_dir);
    if (out->graded && access(out->out_dir, W_OK | X_OK) != 0)
        usage_error(out->program, description, "cannot write to the output directory",
                    out->out_dir);
}

void lab_args_parse(lab_args *out, int argc, char **argv, const char *description)
{
    lab_args_parse_flags(out, argc, argv, description, NULL, 0);
}

static void path_of(char *buf, size_t len, const char *dir, const char *name, const char *ext)
{
    snprintf(buf, len, "%s/%s%s", dir, name, ext);
}

void lab_input(lab_npy_array *arr, const lab_args *args, const char *name, lab_dtype dtype,
               int ndim)
{
    char path[LAB_ARGS_PATH_MAX + 256];
    lab_error err;
    path_of(path, sizeof(path), args->in_dir, name, ".npy");
    if (lab_npy_read(arr, path, &err) != LAB_OK) {
        fflush(stdout);
        fprintf(stderr, "%s: input %s: %s\n", args->program, name, err.msg);
        exit(LAB_EXIT_USAGE);
    }
    if (arr->dtype != dtype || (ndim >= 0 && arr->ndim != ndim)) {
        fflush(stdout);
        fprintf(stderr, "%s: %s: expected %s with %d dimension(s), found %s with %d\n",
                args->program, path, lab_dtype_name(dtype), ndim, lab_dtype_name(arr->dtype),
                arr->ndim);
        lab_npy_free(arr);
        exit(LAB_EXIT_USAGE);
    }
}

void lab_output(const lab_args *args, const char *name, lab_dtype dtype, int ndim,
                const size_t *shape, const void *data)
{
    char path[LAB_ARGS_PATH_MAX + 256];
    lab_error err;
    path_of(path, sizeof(path), args->out_dir, name, ".npy");
    if (lab_npy_write(path, dtype, ndim, shape, data, &err) != LAB_OK) {
        fflush(stdout);
        fprintf(stderr, "%s: output %s: %s\n", args->program, name, err.msg);
        exit(LAB_EXIT_USAGE);
    }
}

/* ------------------------------------------------------------------------ */
/* result.json */

typedef struct fact {
    char *key;  /* as given */
    char *json; /* the value, already in JSON */
} fact;

struct lab_result {
    fact *facts;
    size_t n, cap;
};

lab_result *lab_result_create(void)
{
    return lab_xcalloc(1, sizeof(lab_result));
}

void lab_result_destroy(lab_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->facts[i].key);
        free(r->facts[i].json);
    }
    free(r->facts);
    free(r);
}

static char *xstrdup(const char *s)
{
    size_t len = strlen(s) + 1;
    return memcpy(lab_xmalloc(len), s, len);
}

/* s as a JSON string (quotes and escapes included). */
static char *json_string(const char *s)
{
    size_t len = strlen(s), j = 0;
    char *out = lab_xmalloc(len * 6 + 3);
    out[j++] = '"';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            out[j++] = '\\';
            out[j++] = (char)*p;
        } else if (*p == '\n') {
            out[j++] = '\\';
            out[j++] = 'n';
        } else if (*p == '\t') {
            out[j++] = '\\';
            out[j++] = 't';
        } else if (*p < 0x20) {
            j += (size_t)sprintf(out + j, "\\u%04x", *p);
        } else {
            out[j++] = (char)*p; /* UTF-8 passes through */
        }
    }
    out[j++] = '"';
    out[j] = '\0';
    return out;
}

/* Takes ownership of json. */
static void set_fact(lab_result *r, const char *key, char *json)
{
    for (size_t i = 0; i < r->n; i++) {
        if (strcmp(r->facts[i].key, key) == 0) {
            free(r->facts[i].json);
            r->facts[i].json = json;
            return;
        }
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 8;
        fact *f = lab_xmalloc(cap * sizeof(*f));
        if (r->n)
            memcpy(f, r->facts, r->n * sizeof(*f));
        free(r->facts);
        r->facts = f;
        r->cap = cap;
    }
    r->facts[r->n].key = xstrdup(key);
    r->facts[r->n].json = json;
    r->n++;
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return xstrdup(buf);
}

void lab_result_set_string(lab_result *r, const char *key, const char *value)
{
    set_fact(r, key, json_string(value ? value : ""));
}

void lab_result_set_int(lab_result *r, const char *key, long long value)
{
    set_fact(r, key, format("%lld", value));
}

void lab_result_set_number(lab_result *r, const char *key, double value)
{
    set_fact(r, key, isfinite(value) ? format("%.17g", value) : xstrdup("null"));
}

void lab_result_set_bool(lab_result *r, const char *key, int value)
{
    set_fact(r, key, xstrdup(value ? "true" : "false"));
}

int lab_result_write(const char *path, const lab_result *r, lab_error *err)
{
    char tmp[LAB_ARGS_PATH_MAX + 64];
    if (!path || !r)
        return lab_error_set(err, LAB_EINVAL, "lab_result_write: NULL argument");
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return lab_error_set(err, LAB_EIO, "%s: %s", path, strerror(errno));
    fputs("{", f);
    for (size_t i = 0; i < r->n; i++) {
        char *key = json_string(r->facts[i].key);
        fprintf(f, "%s\n  %s: %s", i ? "," : "", key, r->facts[i].json);
        free(key);
    }
    fputs(r->n ? "\n}\n" : "}\n", f);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return lab_error_set(err, LAB_EIO, "%s: %s", path, strerror(e));
    }
    return LAB_OK;
}

void lab_result_save(const lab_args *args, const lab_result *r)
{
    char path[LAB_ARGS_PATH_MAX + 32];
    lab_error err;
    snprintf(path, sizeof(path), "%s/result.json", args->out_dir);
    if (lab_result_write(path, r, &err) != LAB_OK) {
        fflush(stdout);
        fprintf(stderr, "%s: %s\n", args->program, err.msg);
        exit(LAB_EXIT_USAGE);
    }
}
