/*
 * Reading NumPy .npy files (lab_npy_read, lab_npy_parse): see lab/npy.h and
 * the format summary in npy.c. Reading trusts nothing: a small
 * recursive-descent parser walks the header within explicit bounds, and every
 * size is checked against the real file size (fstat) before anything is
 * allocated.
 */
#define _POSIX_C_SOURCE 200809L /* pread, fstat */

#include "lab/npy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy_internal.h"

/* ---- Preamble: magic, version, header length ------------------------------------------------ */

/* Writes up to n bytes as a C string literal body ("PK\x03\x04"). */
static void escape_bytes(char *buf, size_t cap, const unsigned char *p, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 5 < cap; i++) {
        int c = p[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            buf[len++] = (char)c;
        else
            len += (size_t)snprintf(buf + len, cap - len, "\\x%02x", (unsigned)c);
        buf[len] = '\0';
    }
}

/* Checks the preamble; p holds min(total, NPY_PREAMBLE_MAX) bytes of a
 * total-byte file. On success the header is total bytes [*hoff, *hoff + *hlen). */
static int check_preamble(const unsigned char *p, size_t total, const char *name, lab_error *err,
                          size_t *hoff, size_t *hlen)
{
    size_t have = total < NPY_PREAMBLE_MAX ? total : NPY_PREAMBLE_MAX;
    size_t cmp = have < NPY_MAGIC_LEN ? have : NPY_MAGIC_LEN;
    if (total == 0)
        return lab_error_set(err, LAB_EFORMAT,
                             "%s: empty file (0 bytes); a .npy file starts with \"\\x93NUMPY\" "
                             "(write it with numpy.save)",
                             name);
    if (memcmp(p, NPY_MAGIC, cmp) != 0) {
        char found[64];
        escape_bytes(found, sizeof(found), p, cmp);
        return lab_error_set(err, LAB_EFORMAT,
                             "%s: not a .npy file (bad magic: expected \"\\x93NUMPY\", found "
                             "\"%s\"); write it with numpy.save",
                             name, found);
    }
    if (have >= 8 && (p[6] < 1 || p[6] > 3 || p[7] != 0))
        return lab_error_set(err, LAB_EUNSUPPORTED,
                             "%s: unsupported .npy format version %u.%u (supported: 1.0, 2.0, "
                             "3.0)",
                             name, (unsigned)p[6], (unsigned)p[7]);
    size_t lenbytes = have >= 8 && p[6] == 1 ? 2 : 4;
    if (have < 8 + lenbytes)
        return lab_error_set(err, LAB_EFORMAT,
                             "%s: truncated preamble: the file has %zu bytes, fewer than the "
                             "magic, version and header length need",
                             name, total);
    *hlen = (size_t)p[8] | (size_t)p[9] << 8;
    if (lenbytes == 4)
        *hlen |= (size_t)p[10] << 16 | (size_t)p[11] << 24;
    *hoff = 8 + lenbytes;
    if (*hlen > total - *hoff)
        return lab_error_set(err, LAB_EFORMAT,
                             "%s: truncated header: the preamble says the header is %zu bytes, "
                             "but only %zu bytes follow it",
                             name, *hlen, total - *hoff);
    return LAB_OK;
}

/* ---- Header: a Python dict literal with the keys 'descr', 'fortran_order', 'shape' ---------- */

typedef struct hdr_parser {
    const char *begin, *p, *end; /* the header; p is the cursor */
    const char *name;
    lab_error *err;
} hdr_parser;

typedef struct hdr_fields {
    unsigned seen; /* bit i: hdr_keys[i] was read */
    char descr[DESCR_MAX];
    int fortran;
    int ndim;
    size_t shape[LAB_NPY_MAX_DIMS];
} hdr_fields;

static const char *const hdr_keys[] = { "descr", "fortran_order", "shape" };
#define HDR_KEY_COUNT 3

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
hdr_fail(const hdr_parser *hp, const char *fmt, ...)
{
    char detail[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    return lab_error_set(hp->err, LAB_EFORMAT,
                         "%s: malformed .npy header (byte %zu of the header): %s", hp->name,
                         (size_t)(hp->p - hp->begin), detail);
}

static int hdr_peek(const hdr_parser *hp)
{
    return hp->p < hp->end ? (unsigned char)*hp->p : -1;
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_word(int c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '.' || c == '-' || c == '+';
}

static void skip_space(hdr_parser *hp)
{
    while (is_space(hdr_peek(hp)))
        hp->p++;
}

/* What the cursor is at, for messages: "'x'" or "the end of the header". */
static const char *found_here(const hdr_parser *hp, char *buf, size_t cap)
{
    int c = hdr_peek(hp);
    if (c < 0)
        return "the end of the header";
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, cap, c == '\'' ? "\"%c\"" : "'%c'", c);
    else
        snprintf(buf, cap, "byte 0x%02x", (unsigned)c);
    return buf;
}

#define FOUND(hp) found_here((hp), (char[16]){ 0 }, 16)

/* A quoted string without escapes; keeps at most cap - 1 characters. */
static int parse_string(hdr_parser *hp, char *buf, size_t cap, const char *what)
{
    int quote = hdr_peek(hp);
    if (quote != '\'' && quote != '"')
        return hdr_fail(hp, "expected %s in quotes, found %s", what, FOUND(hp));
    const char *start = ++hp->p;
    while (hp->p < hp->end && *hp->p != quote && *hp->p != '\\' && (unsigned char)*hp->p >= 0x20)
        hp->p++;
    if (hdr_peek(hp) == '\\')
        return hdr_fail(hp, "backslash escapes in strings are not supported");
    if (hdr_peek(hp) != quote)
        return hdr_fail(hp, "unterminated string (closing %c missing), found %s", quote, FOUND(hp));
    size_t n = (size_t)(hp->p - start);
    n = n < cap - 1 ? n : cap - 1;
    memcpy(buf, start, n);
    buf[n] = '\0';
    hp->p++;
    return LAB_OK;
}

static int parse_descr(hdr_parser *hp, hdr_fields *f)
{
    if (hdr_peek(hp) == '[')
        return lab_error_set(hp->err, LAB_EUNSUPPORTED,
                             "%s: structured dtypes (a list in 'descr') are not supported; save "
                             "each field as its own array",
                             hp->name);
    if (hdr_peek(hp) != '\'' && hdr_peek(hp) != '"')
        return hdr_fail(hp, "'descr' must be a quoted type string like '<f4', found %s", FOUND(hp));
    return parse_string(hp, f->descr, sizeof(f->descr), "'descr'");
}

static int parse_bool(hdr_parser *hp, int *value)
{
    static const char *const words[2] = { "False", "True" };
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(hp->end - hp->p) >= n && memcmp(hp->p, words[i], n) == 0 &&
            (hp->p + n == hp->end || !is_word((unsigned char)hp->p[n]))) {
            hp->p += n;
            *value = i;
            return LAB_OK;
        }
    }
    return hdr_fail(hp, "'fortran_order' must be True or False, found %s", FOUND(hp));
}

/* One dimension: a non-negative decimal integer (with Python 2's 'L' suffix). */
static int parse_dim(hdr_parser *hp, size_t *dim)
{
    const char *start = hp->p;
    int c = hdr_peek(hp), overflow = 0;
    size_t v = 0;
    if (c < 0)
        return hdr_fail(hp, "'shape' tuple is not closed (')' missing)");
    while (is_word(hdr_peek(hp)) && hp->p - start < 24)
        hp->p++;
    int tok = (int)(hp->p - start);
    hp->p = start;
    if (c == '-')
        return hdr_fail(hp, "negative dimension %.*s in 'shape'; dimensions are sizes >= 0", tok,
                        start);
    if (c < '0' || c > '9')
        return hdr_fail(hp,
                        "expected a dimension (a non-negative integer) or ')' in 'shape', "
                        "found %s",
                        FOUND(hp));
    for (; (c = hdr_peek(hp)) >= '0' && c <= '9'; hp->p++) {
        overflow |= v > (SIZE_MAX - (size_t)(c - '0')) / 10;
        v = v * 10 + (size_t)(c - '0');
    }
    if (hdr_peek(hp) == 'L' || hdr_peek(hp) == 'l')
        hp->p++;
    if (is_word(hdr_peek(hp))) {
        hp->p = start;
        return hdr_fail(hp, "dimension %.*s in 'shape' is not an integer", tok, start);
    }
    if (overflow) {
        hp->p = start;
        return hdr_fail(hp, "dimension %.*s in 'shape' does not fit in size_t", tok, start);
    }
    *dim = v;
    return LAB_OK;
}

static int parse_shape(hdr_parser *hp, hdr_fields *f)
{
    int commas = 0;
    if (hdr_peek(hp) != '(')
        return hdr_fail(hp, "'shape' must be a tuple of integers like (3, 4) or (5,), found %s",
                        FOUND(hp));
    hp->p++;
    skip_space(hp);
    for (f->ndim = 0; hdr_peek(hp) != ')';) {
        size_t dim = 0;
        int rc = parse_dim(hp, &dim);
        if (rc)
            return rc;
        if (f->ndim == LAB_NPY_MAX_DIMS)
            return lab_error_set(hp->err, LAB_EUNSUPPORTED,
                                 "%s: 'shape' has more than %d dimensions; at most %d are "
                                 "supported (reshape the array before saving)",
                                 hp->name, LAB_NPY_MAX_DIMS, LAB_NPY_MAX_DIMS);
        f->shape[f->ndim++] = dim;
        skip_space(hp);
        if (hdr_peek(hp) == ',') {
            hp->p++;
            commas++;
            skip_space(hp);
        } else if (hdr_peek(hp) == ')' && f->ndim == 1 && commas == 0) {
            return hdr_fail(hp, "'shape' (%zu) is not a tuple; a 1-d shape is written (%zu,)", dim,
                            dim);
        } else if (hdr_peek(hp) < 0) {
            return hdr_fail(hp, "'shape' tuple is not closed (')' missing)");
        } else if (hdr_peek(hp) != ')') {
            return hdr_fail(hp, "expected ',' or ')' after a dimension in 'shape', found %s",
                            FOUND(hp));
        }
    }
    hp->p++;
    return LAB_OK;
}

/* key ':' value, for one of the three keys, each at most once. */
static int parse_entry(hdr_parser *hp, hdr_fields *f)
{
    char key[DESCR_MAX];
    int k, rc = parse_string(hp, key, sizeof(key), "a key");
    if (rc)
        return rc;
    for (k = 0; k < HDR_KEY_COUNT && strcmp(key, hdr_keys[k]) != 0; k++)
        ;
    if (k == HDR_KEY_COUNT)
        return hdr_fail(hp,
                        "unknown key '%s'; a .npy header has exactly the keys 'descr', "
                        "'fortran_order' and 'shape'",
                        key);
    if (f->seen & (1u << k))
        return hdr_fail(hp, "duplicate key '%s'", key);
    f->seen |= 1u << k;
    skip_space(hp);
    if (hdr_peek(hp) != ':')
        return hdr_fail(hp, "expected ':' after key '%s', found %s", key, FOUND(hp));
    hp->p++;
    skip_space(hp);
    if (k == 0)
        return parse_descr(hp, f);
    if (k == 1)
        return parse_bool(hp, &f->fortran);
    return parse_shape(hp, f);
}

static int parse_dict(hdr_parser *hp, hdr_fields *f)
{
    skip_space(hp);
    if (hdr_peek(hp) != '{')
        return hdr_fail(hp, "expected the header to be a Python dict starting with '{', found %s",
                        FOUND(hp));
    hp->p++;
    for (;;) {
        skip_space(hp);
        if (hdr_peek(hp) == '}')
            break;
        if (hdr_peek(hp) < 0)
            return hdr_fail(hp, "header dict is not closed ('}' missing)");
        int rc = parse_entry(hp, f);
        if (rc)
            return rc;
        skip_space(hp);
        if (hdr_peek(hp) == ',')
            hp->p++;
        else if (hdr_peek(hp) < 0)
            return hdr_fail(hp, "header dict is not closed ('}' missing)");
        else if (hdr_peek(hp) != '}')
            return hdr_fail(hp, "expected ',' or '}' after a value, found %s", FOUND(hp));
    }
    hp->p++;
    skip_space(hp);
    if (hp->p != hp->end)
        return hdr_fail(hp, "unexpected text after the header dict, starting with %s", FOUND(hp));
    return LAB_OK;
}

/* Parses the n-byte header into meta (data left NULL) and its data size. */
static int parse_header(const char *h, size_t n, const char *name, lab_error *err,
                        lab_npy_array *meta, size_t *nbytes)
{
    hdr_parser hp = { h, h, h + n, name, err };
    hdr_fields f;
    memset(&f, 0, sizeof(f));
    if (n == 0 || h[n - 1] != '\n')
        return lab_error_set(err, LAB_EFORMAT,
                             "%s: malformed .npy header: it does not end with a newline (is the "
                             "header length in the preamble wrong?)",
                             name);
    int rc = parse_dict(&hp, &f);
    if (rc)
        return rc;
    for (int k = 0; k < HDR_KEY_COUNT; k++)
        if (!(f.seen & (1u << k)))
            return lab_error_set(err, LAB_EFORMAT,
                                 "%s: malformed .npy header: missing key '%s' (a .npy header has "
                                 "'descr', 'fortran_order' and 'shape')",
                                 name, hdr_keys[k]);
    memset(meta, 0, sizeof(*meta));
    if (npy_dtype_lookup(f.descr, "<=", &meta->dtype) != 0)
        return npy_dtype_error(f.descr, name, err);
    if (f.fortran)
        return lab_error_set(err, LAB_EUNSUPPORTED,
                             "%s: Fortran-order arrays are not supported; save with "
                             "numpy.ascontiguousarray(a)",
                             name);
    meta->ndim = f.ndim;
    memcpy(meta->shape, f.shape, sizeof(f.shape));
    if (npy_shape_sizes(f.ndim, f.shape, lab_dtype_size(meta->dtype), &meta->count, nbytes) != 0) {
        char shape[SHAPE_STR_MAX];
        npy_format_shape(shape, sizeof(shape), f.ndim, f.shape);
        return lab_error_set(err, LAB_EFORMAT,
                             "%s: shape %s %s is too large: its size in bytes overflows size_t",
                             name, shape, lab_dtype_name(meta->dtype));
    }
    return LAB_OK;
}

/* The data after the header must be exactly the shape's bytes. */
static int check_data_len(const lab_npy_array *meta, size_t nbytes, size_t have, const char *name,
                          lab_error *err)
{
    char shape[SHAPE_STR_MAX];
    if (have == nbytes)
        return LAB_OK;
    npy_format_shape(shape, sizeof(shape), meta->ndim, meta->shape);
    if (have < nbytes)
        return lab_error_set(err, LAB_EFORMAT,
                             "%s: truncated data: header promises %zu bytes for shape %s %s, "
                             "file has %zu",
                             name, nbytes, shape, lab_dtype_name(meta->dtype), have);
    return lab_error_set(err, LAB_EFORMAT,
                         "%s: file size disagrees with header: shape %s %s needs %zu bytes of "
                         "data, file has %zu (%zu extra bytes after the data)",
                         name, shape, lab_dtype_name(meta->dtype), nbytes, have, have - nbytes);
}

static int alloc_data(lab_npy_array *meta, size_t nbytes, const char *name, lab_error *err)
{
    meta->data = malloc(nbytes ? nbytes : 1);
    if (!meta->data)
        return lab_error_set(err, LAB_ENOMEM, "%s: out of memory allocating %zu bytes of data",
                             name, nbytes);
    return LAB_OK;
}

/* ---- Reading -------------------------------------------------------------------------------- */

int lab_npy_parse(lab_npy_array *out, const void *buf, size_t len, const char *name, lab_error *err)
{
    const unsigned char *p = buf;
    size_t hoff = 0, hlen = 0, nbytes = 0;
    lab_npy_array meta;
    if (!name)
        name = "(memory)";
    if (!out || (!buf && len > 0))
        return lab_error_set(err, LAB_EINVAL, "%s: lab_npy_parse: %s is NULL", name,
                             out ? "buf" : "out");
    memset(out, 0, sizeof(*out));
    int rc = check_preamble(p, len, name, err, &hoff, &hlen);
    if (!rc)
        rc = parse_header((const char *)p + hoff, hlen, name, err, &meta, &nbytes);
    if (!rc)
        rc = check_data_len(&meta, nbytes, len - hoff - hlen, name, err);
    if (!rc)
        rc = alloc_data(&meta, nbytes, name, err);
    if (rc)
        return rc;
    memcpy(meta.data, p + hoff + hlen, nbytes);
    *out = meta;
    return LAB_OK;
}

/* Reads exactly n bytes at offset off. */
static int read_at(int fd, void *buf, size_t n, size_t off, const char *path, lab_error *err)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = pread(fd, p, n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return lab_error_set(err, LAB_EIO, "%s: cannot read: %s", path, strerror(errno));
        if (got == 0)
            return lab_error_set(err, LAB_EIO, "%s: the file shrank while it was being read", path);
        p += got;
        off += (size_t)got;
        n -= (size_t)got;
    }
    return LAB_OK;
}

/* Preamble and header of a total-byte file: fills meta, its size and data offset. */
static int read_header(int fd, size_t total, const char *path, lab_error *err, lab_npy_array *meta,
                       size_t *nbytes, size_t *doff)
{
    unsigned char pre[NPY_PREAMBLE_MAX];
    size_t hoff = 0, hlen = 0;
    int rc = read_at(fd, pre, total < sizeof(pre) ? total : sizeof(pre), 0, path, err);
    if (!rc)
        rc = check_preamble(pre, total, path, err, &hoff, &hlen);
    if (rc)
        return rc;
    char *header = malloc(hlen ? hlen : 1); /* hlen <= total: checked above */
    if (!header)
        return lab_error_set(err, LAB_ENOMEM, "%s: out of memory reading a %zu-byte header", path,
                             hlen);
    rc = read_at(fd, header, hlen, hoff, path, err);
    if (!rc)
        rc = parse_header(header, hlen, path, err, meta, nbytes);
    free(header);
    *doff = hoff + hlen;
    return rc;
}

static int read_fd(lab_npy_array *out, const char *path, int fd, lab_error *err)
{
    struct stat st;
    lab_npy_array meta;
    size_t nbytes = 0, doff = 0;
    if (fstat(fd, &st) != 0)
        return lab_error_set(err, LAB_EIO, "%s: cannot stat: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return lab_error_set(err, LAB_EIO, "%s: is a directory, not a .npy file", path);
    if (!S_ISREG(st.st_mode))
        return lab_error_set(err, LAB_EIO, "%s: not a regular file; .npy inputs must be files",
                             path);
    if ((uintmax_t)st.st_size > SIZE_MAX)
        return lab_error_set(err, LAB_EUNSUPPORTED, "%s: file too large for this machine", path);
    size_t total = (size_t)st.st_size;
    int rc = read_header(fd, total, path, err, &meta, &nbytes, &doff);
    if (!rc)
        rc = check_data_len(&meta, nbytes, total - doff, path, err);
    if (!rc)
        rc = alloc_data(&meta, nbytes, path, err);
    if (rc)
        return rc;
    rc = read_at(fd, meta.data, nbytes, doff, path, err);
    if (rc) {
        free(meta.data);
        return rc;
    }
    *out = meta;
    return LAB_OK;
}

int lab_npy_read(lab_npy_array *out, const char *path, lab_error *err)
{
    if (!out || !path)
        return lab_error_set(err, LAB_EINVAL, "lab_npy_read: %s is NULL", out ? "path" : "out");
    memset(out, 0, sizeof(*out));
    /* O_NONBLOCK: opening a FIFO by mistake must not hang; it is refused below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return lab_error_set(err, LAB_EIO, "%s: cannot open: %s", path, strerror(errno));
    int rc = read_fd(out, path, fd, err);
    close(fd);
    return rc;
}
