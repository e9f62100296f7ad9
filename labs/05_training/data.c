/*
 * data.c — lab 05's data sets: the CIFAR-10 binary reader and writer, the
 * synthetic CIFAR-shaped set, and the iris CSV reader. See data.h.
 *
 * Sections: helpers → CIFAR-10 files → synthetic set → choosing a source →
 * iris CSV.
 */
#include "data.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/rng.h"

/* ------------------------------------------------------------------------ */
/* helpers */

static int fail(char *why, size_t why_len, const char *fmt, ...)
{
    if (why && why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

float l5_pixel_to_float(unsigned char b)
{
    /* The same float32 operations as torchvision's ToTensor then
     * Normalize(0.5, 0.5), so the values match PyTorch's bit for bit. */
    float v = (float)b / 255.0f;
    return (v - 0.5f) / 0.5f;
}

unsigned char l5_float_to_pixel(float x)
{
    float v = (x * 0.5f + 0.5f) * 255.0f;
    if (!(v > 0.0f)) /* also NaN */
        return 0;
    if (v >= 255.0f)
        return 255;
    return (unsigned char)(v + 0.5f);
}

static int images_alloc(l5_images *out, int n, char *why, size_t why_len)
{
    memset(out, 0, sizeof(*out));
    if (n < 1)
        return fail(why, why_len, "image set: n = %d, must be at least 1", n);
    out->x = malloc((size_t)n * L5_IMG_PIXELS * sizeof(*out->x));
    out->label = malloc((size_t)n);
    if (!out->x || !out->label) {
        l5_images_free(out);
        return fail(why, why_len, "image set: out of memory for %d images (%.1f MB)", n,
                    (double)n * L5_IMG_PIXELS * sizeof(float) / 1e6);
    }
    out->n = n;
    return 0;
}

void l5_images_free(l5_images *set)
{
    if (!set)
        return;
    free(set->x);
    free(set->label);
    memset(set, 0, sizeof(*set));
}

/* ------------------------------------------------------------------------ */
/* CIFAR-10 files */

#define CIFAR_CHUNK 256 /* records read per fread */

/* Appends up to `want` records of one file to out (from image `at` on);
 * returns the number appended, or -1 with why. */
static int cifar_read_file(l5_images *out, int at, int want, const char *path, char *why,
                           size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(why, why_len, "CIFAR-10: cannot open %s: %s", path, strerror(errno));
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return fail(why, why_len, "CIFAR-10: cannot determine the size of %s", path);
    }
    if (size == 0 || size % L5_RECORD_BYTES != 0) {
        fclose(f);
        return fail(why, why_len,
                    "CIFAR-10: %s has %ld bytes, not a whole number of 3073-byte records "
                    "(1 label byte + 3072 pixel bytes); a download that stopped early or the "
                    "Python version of the data set? (%ld records and %ld bytes over)",
                    path, size, size / L5_RECORD_BYTES, size % L5_RECORD_BYTES);
    }
    long records = size / L5_RECORD_BYTES;
    int n = records < want ? (int)records : want;
    unsigned char *buf = malloc((size_t)CIFAR_CHUNK * L5_RECORD_BYTES);
    if (!buf) {
        fclose(f);
        return fail(why, why_len, "CIFAR-10: out of memory reading %s", path);
    }
    int done = 0, rc = 0;
    while (done < n && rc == 0) {
        int k = n - done < CIFAR_CHUNK ? n - done : CIFAR_CHUNK;
        if (fread(buf, L5_RECORD_BYTES, (size_t)k, f) != (size_t)k) {
            rc = fail(why, why_len, "CIFAR-10: read error in %s at record %d", path, done);
            break;
        }
        for (int r = 0; r < k; r++) {
            const unsigned char *rec = buf + (size_t)r * L5_RECORD_BYTES;
            if (rec[0] >= L5_NUM_CLASSES) {
                rc = fail(why, why_len,
                          "CIFAR-10: %s: record %d (byte offset %ld) has label %d; labels are "
                          "0..9 (is this a CIFAR-100 file, or not a CIFAR file at all?)",
                          path, done + r, (long)(done + r) * L5_RECORD_BYTES, rec[0]);
                break;
            }
            size_t img = (size_t)(at + done + r);
            out->label[img] = rec[0];
            float *x = out->x + img * L5_IMG_PIXELS;
            for (int p = 0; p < L5_IMG_PIXELS; p++)
                x[p] = l5_pixel_to_float(rec[1 + p]);
        }
        done += k;
    }
    free(buf);
    fclose(f);
    return rc == 0 ? n : -1;
}

/* Number of records a file holds, or -1 with why. */
static long cifar_count(const char *path, char *why, size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        return fail(why, why_len,
                    "CIFAR-10: cannot open %s: %s (the directory must hold the binary "
                    "version's files, cifar-10-batches-bin/; `make data-cifar10` fetches them)",
                    path, strerror(e));
    }
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    fclose(f);
    if (size < 0)
        return fail(why, why_len, "CIFAR-10: cannot determine the size of %s", path);
    return size / L5_RECORD_BYTES; /* exact sizes are checked when read */
}

int l5_cifar_load(l5_images *out, const char *dir, int train, int max_n, char *why, size_t why_len)
{
    memset(out, 0, sizeof(*out));
    if (!dir || !*dir)
        return fail(why, why_len, "CIFAR-10: no directory given");
    if (max_n < 0)
        return fail(why, why_len, "CIFAR-10: max_n = %d, must be 0 (all) or more", max_n);
    char paths[5][4096];
    int files = train ? 5 : 1;
    for (int i = 0; i < files; i++) {
        int len = train ? snprintf(paths[i], sizeof(paths[i]), "%s/data_batch_%d.bin", dir, i + 1)
                        : snprintf(paths[i], sizeof(paths[i]), "%s/test_batch.bin", dir);
        if (len < 0 || (size_t)len >= sizeof(paths[i]))
            return fail(why, why_len, "CIFAR-10: directory name too long: %s", dir);
    }
    /* First pass: how many images to allocate (files past max_n are not
     * opened at all). */
    long total = 0;
    int used = 0;
    for (int i = 0; i < files && (max_n == 0 || total < max_n); i++) {
        long c = cifar_count(paths[i], why, why_len);
        if (c < 0)
            return -1;
        total += c;
        used = i + 1;
    }
    if (max_n > 0 && total > max_n)
        total = max_n;
    if (total > INT32_MAX / L5_IMG_PIXELS)
        return fail(why, why_len, "CIFAR-10: %ld images in %s is more than this reader handles",
                    total, dir);
    if (total == 0)
        return fail(why, why_len, "CIFAR-10: %s is empty (0 bytes)", paths[0]);
    if (images_alloc(out, (int)total, why, why_len) != 0)
        return -1;
    int at = 0;
    for (int i = 0; i < used && at < out->n; i++) {
        int got = cifar_read_file(out, at, out->n - at, paths[i], why, why_len);
        if (got < 0) {
            l5_images_free(out);
            return -1;
        }
        at += got;
    }
    if (at != out->n) { /* a file changed between the two passes */
        l5_images_free(out);
        return fail(why, why_len, "CIFAR-10: the files in %s changed while being read", dir);
    }
    return 0;
}

int l5_cifar_write(const char *path, const l5_images *set, char *why, size_t why_len)
{
    if (!set || set->n < 0 || (set->n > 0 && (!set->x || !set->label)))
        return fail(why, why_len, "CIFAR-10 write %s: empty or invalid image set", path);
    FILE *f = fopen(path, "wb");
    if (!f)
        return fail(why, why_len, "CIFAR-10 write: cannot create %s: %s", path, strerror(errno));
    unsigned char rec[L5_RECORD_BYTES];
    int rc = 0;
    for (int i = 0; i < set->n && rc == 0; i++) {
        if (set->label[i] >= L5_NUM_CLASSES) {
            rc = fail(why, why_len, "CIFAR-10 write %s: image %d has label %d; labels are 0..9",
                      path, i, set->label[i]);
            break;
        }
        rec[0] = set->label[i];
        const float *x = set->x + (size_t)i * L5_IMG_PIXELS;
        for (int p = 0; p < L5_IMG_PIXELS; p++)
            rec[1 + p] = l5_float_to_pixel(x[p]);
        if (fwrite(rec, 1, sizeof(rec), f) != sizeof(rec))
            rc = fail(why, why_len, "CIFAR-10 write %s: %s", path, strerror(errno));
    }
    if (fclose(f) != 0 && rc == 0)
        rc = fail(why, why_len, "CIFAR-10 write %s: %s", path, strerror(errno));
    if (rc != 0)
        remove(path);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The synthetic set.
 *
 * Each image: a dark background of one random colour, a shape whose kind and
 * colour family are fixed by the class (position, size and exact colour
 * vary), and independent noise on every byte. Only integer arithmetic on
 * PCG32 draws, so every machine makes the same bytes. Image i draws from its
 * own stream (seed, 1000 + i), so a set of n images is the first n images of
 * any larger set with the same seed. */

static const unsigned char class_rgb[L5_NUM_CLASSES][3] = {
    { 220, 40, 40 },   /* 0 square, red */
    { 40, 200, 60 },   /* 1 disc, green */
    { 50, 80, 230 },   /* 2 horizontal stripes, blue */
    { 230, 220, 40 },  /* 3 vertical stripes, yellow */
    { 210, 50, 210 },  /* 4 triangle, magenta */
    { 40, 210, 210 },  /* 5 plus, cyan */
    { 240, 140, 30 },  /* 6 ring, orange */
    { 235, 235, 235 }, /* 7 diagonal cross, white */
    { 130, 60, 200 },  /* 8 checkerboard, purple */
    { 150, 110, 70 },  /* 9 square frame, brown */
};

#define SYN_COLOUR_JITTER 25 /* +- on each channel of the shape's colour */
#define SYN_BACKGROUND_MAX 90
#define SYN_NOISE 24 /* +- on every byte */
#define SYN_LABEL_STREAM 0x5eedULL
#define SYN_IMAGE_STREAM0 1000ULL

static int iabs(int v)
{
    return v < 0 ? -v : v;
}

/* Whether pixel offset (dx, dy) from the centre is on shape `cls` of
 * half-size s. */
static int on_shape(int cls, int dx, int dy, int s)
{
    int ax = iabs(dx), ay = iabs(dy), in_box = ax <= s && ay <= s;
    switch (cls) {
    case 0:
        return in_box;
    case 1:
        return dx * dx + dy * dy <= s * s;
    case 2:
        return in_box && (dy + s) % 4 < 2;
    case 3:
        return in_box && (dx + s) % 4 < 2;
    case 4:
        return dy >= -s && dy <= s && 2 * ax <= dy + s;
    case 5:
        return (ax <= 1 && ay <= s) || (ay <= 1 && ax <= s);
    case 6: {
        int d2 = dx * dx + dy * dy;
        return d2 <= s * s && d2 > (s - 3) * (s - 3);
    }
    case 7:
        return in_box && (iabs(dx - dy) <= 1 || iabs(dx + dy) <= 1);
    case 8:
        return in_box && ((dx + s) / 3 + (dy + s) / 3) % 2 == 0;
    default:
        return in_box && (ax >= s - 1 || ay >= s - 1);
    }
}

static unsigned char clamp_byte(int v)
{
    return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Makes one image's 3072 bytes (R, G, B planes). */
static void synthetic_image(unsigned char *px, int cls, unsigned long long seed, int index)
{
    lab_rng rng;
    lab_rng_seed(&rng, seed, SYN_IMAGE_STREAM0 + (uint64_t)index);
    int bg[3], fg[3];
    for (int c = 0; c < 3; c++)
        bg[c] = (int)lab_rng_below(&rng, SYN_BACKGROUND_MAX + 1);
    for (int c = 0; c < 3; c++)
        fg[c] = class_rgb[cls][c] + (int)lab_rng_below(&rng, 2 * SYN_COLOUR_JITTER + 1) -
                SYN_COLOUR_JITTER;
    int s = 6 + (int)lab_rng_below(&rng, 5); /* half-size 6..10 */
    int cx = s + (int)lab_rng_below(&rng, (uint32_t)(L5_IMG_SIDE - 2 * s));
    int cy = s + (int)lab_rng_below(&rng, (uint32_t)(L5_IMG_SIDE - 2 * s));
    for (int y = 0; y < L5_IMG_SIDE; y++)
        for (int x = 0; x < L5_IMG_SIDE; x++) {
            const int *col = on_shape(cls, x - cx, y - cy, s) ? fg : bg;
            for (int c = 0; c < 3; c++) {
                int noise = (int)lab_rng_below(&rng, 2 * SYN_NOISE + 1) - SYN_NOISE;
                px[c * L5_IMG_SIDE * L5_IMG_SIDE + y * L5_IMG_SIDE + x] =
                    clamp_byte(col[c] + noise);
            }
        }
}

int l5_synthetic(l5_images *out, int n, unsigned long long seed, char *why, size_t why_len)
{
    if (n > INT32_MAX / L5_IMG_PIXELS) {
        memset(out, 0, sizeof(*out));
        return fail(why, why_len, "synthetic set: n = %d images is too many", n);
    }
    if (images_alloc(out, n, why, why_len) != 0)
        return -1;
    /* Labels: each block of ten images holds every class once, in an order
     * shuffled (Fisher-Yates) per block. */
    lab_rng rng;
    lab_rng_seed(&rng, seed, SYN_LABEL_STREAM);
    for (int b = 0; b < n; b += L5_NUM_CLASSES) {
        unsigned char perm[L5_NUM_CLASSES];
        for (int k = 0; k < L5_NUM_CLASSES; k++)
            perm[k] = (unsigned char)k;
        for (int k = L5_NUM_CLASSES - 1; k > 0; k--) {
            int j = (int)lab_rng_below(&rng, (uint32_t)k + 1);
            unsigned char t = perm[k];
            perm[k] = perm[j];
            perm[j] = t;
        }
        for (int k = 0; k < L5_NUM_CLASSES && b + k < n; k++)
            out->label[b + k] = perm[k];
    }
    unsigned char px[L5_IMG_PIXELS];
    for (int i = 0; i < n; i++) {
        synthetic_image(px, out->label[i], seed, i);
        float *x = out->x + (size_t)i * L5_IMG_PIXELS;
        for (int p = 0; p < L5_IMG_PIXELS; p++)
            x[p] = l5_pixel_to_float(px[p]);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* choosing a source */

#define L5_SYNTHETIC_TRAIN_N 10000
#define L5_SYNTHETIC_TEST_N 2000
/* The test split's seed differs from the training split's, so that test
 * images are never training images. */
#define L5_SYNTHETIC_TEST_SEED_XOR 0x7465737400000000ULL /* "test" */

int l5_images_open(l5_images *out, const char *dir_or_null, int train, int max_n,
                   unsigned long long seed, char *desc, size_t desc_len, char *why, size_t why_len)
{
    memset(out, 0, sizeof(*out));
    const char *dir = dir_or_null;
    const char *from = "--data";
    if (!dir || !*dir) {
        dir = getenv("GPULAB_CIFAR10");
        from = "$GPULAB_CIFAR10";
    }
    if (dir && *dir) {
        if (l5_cifar_load(out, dir, train, max_n, why, why_len) != 0) {
            /* Say where the directory came from: a stale environment
             * variable is a common surprise. */
            size_t used = why ? strlen(why) : 0;
            if (why && used + 1 < why_len)
                snprintf(why + used, why_len - used, " [directory from %s]", from);
            return -1;
        }
        if (desc && desc_len)
            snprintf(desc, desc_len, "CIFAR-10 from %s", dir);
        return 0;
    }
    int n = max_n > 0 ? max_n : (train ? L5_SYNTHETIC_TRAIN_N : L5_SYNTHETIC_TEST_N);
    unsigned long long s = train ? seed : seed ^ L5_SYNTHETIC_TEST_SEED_XOR;
    if (l5_synthetic(out, n, s, why, why_len) != 0)
        return -1;
    if (desc && desc_len)
        snprintf(desc, desc_len, "synthetic CIFAR-shaped set, seed %llu%s", seed,
                 train ? "" : " (test split)");
    return 0;
}

/* ------------------------------------------------------------------------ */
/* iris CSV */

#define IRIS_FEATURES 4

void l5_table_free(l5_table *t)
{
    if (!t)
        return;
    free(t->x);
    free(t->label);
    memset(t, 0, sizeof(*t));
}

/* Trims spaces and tabs at both ends, in place. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
        s[--len] = '\0';
    return s;
}

static int parse_number(const char *s, double *v)
{
    if (!*s)
        return -1;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(*v))
        return -1;
    return 0;
}

static int strieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char ca = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char cb = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (ca != cb)
            return 0;
    }
    return *a == *b;
}

/* Class of a label field: 0, 1, 2 (also written 0.0 ...) or a species name. */
static int parse_class(const char *s)
{
    static const char *names[3] = { "setosa", "versicolor", "virginica" };
    double v;
    if (parse_number(s, &v) == 0)
        return (v == 0.0 || v == 1.0 || v == 2.0) ? (int)v : -1;
    const char *name = s;
    if (strncmp(name, "Iris-", 5) == 0 || strncmp(name, "iris-", 5) == 0)
        name += 5;
    for (int k = 0; k < 3; k++)
        if (strieq(name, names[k]))
            return k;
    return -1;
}

static char *read_all(const char *path, char *why, size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(why, why_len, "iris: cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 8192, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - 1 - len, f);
        if (len < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf) {
        fail(why, why_len, "iris: out of memory reading %s", path);
        return NULL;
    }
    if (err) {
        free(buf);
        fail(why, why_len, "iris: read error in %s", path);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* Whether a line's first comma-separated field is a number (else the line is
 * a header). */
static int first_field_is_number(const char *line)
{
    char buf[64];
    size_t len = strcspn(line, ",");
    if (len >= sizeof(buf))
        return 0;
    memcpy(buf, line, len);
    buf[len] = '\0';
    double v;
    return parse_number(trim(buf), &v) == 0;
}

/* Parses one data line into x[4] and *label; fills why with line and column. */
static int iris_line(char *line, const char *path, int lineno, float *x, unsigned char *label,
                     char *why, size_t why_len)
{
    char *field[IRIS_FEATURES + 2];
    int nf = 0;
    char *p = line;
    for (;;) {
        if (nf < IRIS_FEATURES + 2)
            field[nf] = p;
        nf++;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    if (nf != IRIS_FEATURES + 1)
        return fail(why, why_len,
                    "iris: %s line %d: %d columns, expected %d (4 features, then the class)", path,
                    lineno, nf, IRIS_FEATURES + 1);
    for (int c = 0; c < IRIS_FEATURES; c++) {
        char *s = trim(field[c]);
        double v;
        if (parse_number(s, &v) != 0)
            return fail(why, why_len, "iris: %s line %d column %d: '%s' is not a number", path,
                        lineno, c + 1, s);
        x[c] = (float)v;
    }
    char *s = trim(field[IRIS_FEATURES]);
    int k = parse_class(s);
    if (k < 0)
        return fail(why, why_len,
                    "iris: %s line %d column %d: '%s' is not a class (0, 1, 2 or setosa, "
                    "versicolor, virginica)",
                    path, lineno, IRIS_FEATURES + 1, s);
    *label = (unsigned char)k;
    return 0;
}

int l5_iris_load(l5_table *out, const char *csv_path, char *why, size_t why_len)
{
    memset(out, 0, sizeof(*out));
    const char *path = csv_path;
    if (!path || !*path)
        path = getenv("GPULAB_IRIS_CSV");
    if (!path || !*path)
        path = L5_IRIS_CSV;
    char *text = read_all(path, why, why_len);
    if (!text)
        return -1;
    int lines = 1;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    out->x = malloc((size_t)lines * IRIS_FEATURES * sizeof(*out->x));
    out->label = malloc((size_t)lines);
    int rc = 0;
    if (!out->x || !out->label)
        rc = fail(why, why_len, "iris: out of memory reading %s", path);
    out->d = IRIS_FEATURES;
    char *line = text;
    for (int lineno = 1; rc == 0 && line; lineno++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *t = trim(line);
        if (*t == '\0') {
            /* blank line: allowed anywhere (a trailing newline makes one) */
        } else if (lineno == 1 && !first_field_is_number(t)) {
            /* header line: its first field is not a number */
        } else {
            rc = iris_line(t, path, lineno, out->x + (size_t)out->n * IRIS_FEATURES,
                           out->label + out->n, why, why_len);
            if (rc == 0)
                out->n++;
        }
        line = nl ? nl + 1 : NULL;
    }
    if (rc == 0 && out->n == 0)
        rc = fail(why, why_len, "iris: %s has no data rows", path);
    free(text);
    if (rc != 0)
        l5_table_free(out);
    return rc;
}
