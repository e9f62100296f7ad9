/*
 * tfevents.c — TensorBoard event files: TFRecord framing, CRC-32C, and the
 * few protocol buffer fields of an Event that carry a scalar. See tfevents.h.
 */
#define _POSIX_C_SOURCE 200809L /* gethostname, getpid, mkdir, clock_gettime */

#include "tfevents.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

struct l5_tfevents {
    FILE *f;
    char path[4096];
};

/* ------------------------------------------------------------------------ */
/* CRC-32C, one table of 256 entries built on first use */

static uint32_t crc_table[256];
static int crc_table_ready;

static void crc_table_build(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc_table[i] = c;
    }
    crc_table_ready = 1;
}

uint32_t l5_crc32c(const void *data, size_t n)
{
    if (!crc_table_ready)
        crc_table_build();
    const unsigned char *p = data;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

uint32_t l5_crc32c_masked(const void *data, size_t n)
{
    uint32_t c = l5_crc32c(data, n);
    return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

/* ------------------------------------------------------------------------ */
/* protocol buffer encoding: just what an Event with a scalar needs */

typedef struct pb {
    unsigned char *p;
    size_t len, cap;
} pb;

static int pb_reserve(pb *b, size_t more)
{
    if (b->len + more <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + more)
        cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

static int pb_varint(pb *b, uint64_t v)
{
    if (pb_reserve(b, 10) != 0)
        return -1;
    do {
        unsigned char byte = v & 0x7F;
        v >>= 7;
        b->p[b->len++] = byte | (v ? 0x80 : 0);
    } while (v);
    return 0;
}

/* key = field number << 3 | wire type (0 varint, 1 fixed64, 2 bytes, 5 fixed32) */
static int pb_key(pb *b, int field, int wire)
{
    return pb_varint(b, (uint64_t)field << 3 | (uint64_t)wire);
}

static int pb_fixed(pb *b, int field, int wire, uint64_t bits, int bytes)
{
    if (pb_key(b, field, wire) != 0 || pb_reserve(b, (size_t)bytes) != 0)
        return -1;
    for (int i = 0; i < bytes; i++) /* little-endian on every host */
        b->p[b->len++] = (unsigned char)(bits >> (8 * i));
    return 0;
}

static int pb_double(pb *b, int field, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof(bits));
    return pb_fixed(b, field, 1, bits, 8);
}

static int pb_float(pb *b, int field, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof(bits));
    return pb_fixed(b, field, 5, bits, 4);
}

static int pb_bytes(pb *b, int field, const void *data, size_t n)
{
    if (pb_key(b, field, 2) != 0 || pb_varint(b, n) != 0 || pb_reserve(b, n) != 0)
        return -1;
    memcpy(b->p + b->len, data, n);
    b->len += n;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* records */

static double wall_time_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return (double)time(NULL);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static int write_record(FILE *f, const unsigned char *data, size_t n)
{
    unsigned char head[12], tail[4];
    put_le(head, n, 8);
    put_le(head + 8, l5_crc32c_masked(head, 8), 4);
    put_le(tail, l5_crc32c_masked(data, n), 4);
    if (fwrite(head, 1, sizeof(head), f) != sizeof(head) || fwrite(data, 1, n, f) != n ||
        fwrite(tail, 1, sizeof(tail), f) != sizeof(tail))
        return -1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* the writer */

/* mkdir -p: creates each missing component of path. */
static int make_dirs(const char *path, char *why, size_t why_len)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof(buf)) {
        snprintf(why, why_len, "tfevents: log directory name empty or too long");
        return -1;
    }
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char keep = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            snprintf(why, why_len, "tfevents: cannot create directory %s: %s", buf,
                     strerror(errno));
            return -1;
        }
        buf[i] = keep;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, why_len, "tfevents: %s exists and is not a directory", path);
        return -1;
    }
    return 0;
}

l5_tfevents *l5_tfevents_open(const char *logdir, char *why, size_t why_len)
{
    static int opened; /* files opened by this process, for unique names */
    if (!logdir) {
        snprintf(why, why_len, "tfevents: no log directory given");
        return NULL;
    }
    if (make_dirs(logdir, why, why_len) != 0)
        return NULL;
    char host[256] = "localhost";
    if (gethostname(host, sizeof(host) - 1) != 0 || !host[0])
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    for (char *c = host; *c; c++) /* a name, not a path */
        if (*c == '/' || *c == '\\' || *c == ' ')
            *c = '_';
    l5_tfevents *w = malloc(sizeof(*w));
    if (!w) {
        snprintf(why, why_len, "tfevents: out of memory");
        return NULL;
    }
    int len = snprintf(w->path, sizeof(w->path), "%s/events.out.tfevents.%lld.%s.%ld.%d", logdir,
                       (long long)time(NULL), host, (long)getpid(), opened++);
    if (len < 0 || (size_t)len >= sizeof(w->path)) {
        snprintf(why, why_len, "tfevents: path too long in %s", logdir);
        free(w);
        return NULL;
    }
    w->f = fopen(w->path, "wb");
    if (!w->f) {
        snprintf(why, why_len, "tfevents: cannot create %s: %s", w->path, strerror(errno));
        free(w);
        return NULL;
    }
    /* The first event says which format follows. */
    static const char version[] = "brain.Event:2";
    pb b = { 0 };
    int rc = pb_double(&b, 1, wall_time_now());
    rc = rc ? rc : pb_bytes(&b, 3, version, sizeof(version) - 1);
    rc = rc ? rc : write_record(w->f, b.p, b.len);
    rc = rc ? rc : fflush(w->f);
    free(b.p);
    if (rc != 0) {
        snprintf(why, why_len, "tfevents: cannot write %s: %s", w->path, strerror(errno));
        fclose(w->f);
        remove(w->path);
        free(w);
        return NULL;
    }
    return w;
}

int l5_tfevents_scalar(l5_tfevents *w, const char *tag, float value, long long step)
{
    if (!w || !tag) {
        errno = EINVAL;
        return -1;
    }
    pb value_msg = { 0 }, summary = { 0 }, event = { 0 };
    /* Summary.Value { tag = 1; simple_value = 2 } */
    int rc = pb_bytes(&value_msg, 1, tag, strlen(tag));
    rc = rc ? rc : pb_float(&value_msg, 2, value);
    /* Summary { repeated Value value = 1 } */
    rc = rc ? rc : pb_bytes(&summary, 1, value_msg.p, value_msg.len);
    /* Event { double wall_time = 1; int64 step = 2; Summary summary = 5 } */
    rc = rc ? rc : pb_double(&event, 1, wall_time_now());
    rc = rc ? rc : pb_key(&event, 2, 0);
    rc = rc ? rc : pb_varint(&event, (uint64_t)step); /* int64: two's complement */
    rc = rc ? rc : pb_bytes(&event, 5, summary.p, summary.len);
    rc = rc ? rc : write_record(w->f, event.p, event.len);
    if (rc != 0 && errno == 0)
        errno = ENOMEM;
    free(value_msg.p);
    free(summary.p);
    free(event.p);
    return rc ? -1 : 0;
}

int l5_tfevents_flush(l5_tfevents *w)
{
    if (!w) {
        errno = EINVAL;
        return -1;
    }
    return fflush(w->f) == 0 ? 0 : -1;
}

void l5_tfevents_close(l5_tfevents *w)
{
    if (!w)
        return;
    fclose(w->f);
    free(w);
}

const char *l5_tfevents_path(const l5_tfevents *w)
{
    return w ? w->path : "(no event file)";
}
