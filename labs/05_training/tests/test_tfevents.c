/*
 * test_tfevents.c — lab 05's TensorBoard event writer: CRC-32C known answers,
 * then a file written by l5_tfevents_* read back record by record, checking
 * the TFRecord framing, both masked CRCs of every record, and the Event
 * protocol buffers (file_version first, then tag, step and value of each
 * scalar) with an independent decoder written here.
 *
 *   test-lab05-tfevents              the tests (files in ./lab05-tfevents-tmp/)
 *   test-lab05-tfevents --write DIR  writes the scalars of write_sample() to an
 *                                    event file in DIR and prints its path (for
 *                                    tfevents_tensorboard.py)
 *   test-lab05-tfevents --skip WHY   prints WHY and exits 77 (skipped)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab_test.h"
#include "tfevents.h"

#define TMP "lab05-tfevents-tmp"

/* The scalars write_sample() writes: tag, step, value. tfevents_tensorboard.py
 * expects exactly these. */
#define SAMPLE_STEPS 5
static float sample_loss(int s)
{
    return 2.5f / (float)(s + 1);
}
static float sample_acc(int s)
{
    return 0.125f * (float)s;
}

static int write_sample(const char *dir, char *path_out, size_t path_len)
{
    char why[512];
    l5_tfevents *w = l5_tfevents_open(dir, why, sizeof(why));
    if (!w) {
        printf("%s\n", why);
        return -1;
    }
    int rc = 0;
    for (int s = 0; s < SAMPLE_STEPS; s++) {
        rc |= l5_tfevents_scalar(w, "loss/train", sample_loss(s), 10 * s);
        rc |= l5_tfevents_scalar(w, "accuracy/train", sample_acc(s), 10 * s);
    }
    rc |= l5_tfevents_scalar(w, "big_step", -1.5f, 5000000000LL);
    rc |= l5_tfevents_flush(w);
    snprintf(path_out, path_len, "%s", l5_tfevents_path(w));
    l5_tfevents_close(w);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* an independent reader */

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Bitwise CRC-32C, no table: a second implementation to check the writer's. */
static uint32_t crc32c_bitwise(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
    }
    return ~c;
}

static uint32_t mask(uint32_t c)
{
    return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

typedef struct event {
    double wall_time;
    long long step;
    int has_version, has_summary;
    char version[64];
    char tag[64];
    float value;
    int values; /* Summary.value entries */
} event;

static int read_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*p >= end)
            return -1;
        unsigned char b = *(*p)++;
        *v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80))
            return 0;
    }
    return -1;
}

/* Decodes Summary.Value { tag = 1, simple_value = 2 }. */
static int decode_value(const unsigned char *p, const unsigned char *end, event *e)
{
    while (p < end) {
        uint64_t key, len;
        if (read_varint(&p, end, &key) != 0)
            return -1;
        if (key == (1 << 3 | 2)) {
            if (read_varint(&p, end, &len) != 0 || len >= sizeof(e->tag) || p + len > end)
                return -1;
            memcpy(e->tag, p, len);
            e->tag[len] = '\0';
            p += len;
        } else if (key == (2 << 3 | 5)) {
            if (p + 4 > end)
                return -1;
            uint32_t bits = (uint32_t)get_le(p, 4);
            memcpy(&e->value, &bits, 4);
            p += 4;
        } else {
            return -1; /* the writer writes nothing else */
        }
    }
    return 0;
}

static int decode_event(const unsigned char *p, size_t n, event *e)
{
    const unsigned char *end = p + n;
    memset(e, 0, sizeof(*e));
    while (p < end) {
        uint64_t key, v, len;
        if (read_varint(&p, end, &key) != 0)
            return -1;
        switch (key) {
        case 1 << 3 | 1: /* wall_time, double */
            if (p + 8 > end)
                return -1;
            v = get_le(p, 8);
            memcpy(&e->wall_time, &v, 8);
            p += 8;
            break;
        case 2 << 3 | 0: /* step, int64 varint */
            if (read_varint(&p, end, &v) != 0)
                return -1;
            e->step = (long long)v;
            break;
        case 3 << 3 | 2: /* file_version */
            if (read_varint(&p, end, &len) != 0 || len >= sizeof(e->version) || p + len > end)
                return -1;
            memcpy(e->version, p, len);
            e->version[len] = '\0';
            e->has_version = 1;
            p += len;
            break;
        case 5 << 3 | 2: { /* summary */
            if (read_varint(&p, end, &len) != 0 || p + len > end)
                return -1;
            const unsigned char *s = p, *s_end = p + len;
            e->has_summary = 1;
            while (s < s_end) { /* Summary { repeated Value value = 1 } */
                uint64_t k2, l2;
                if (read_varint(&s, s_end, &k2) != 0 || k2 != (1 << 3 | 2) ||
                    read_varint(&s, s_end, &l2) != 0 || s + l2 > s_end)
                    return -1;
                if (decode_value(s, s + l2, e) != 0)
                    return -1;
                e->values++;
                s += l2;
            }
            p += len;
            break;
        }
        default:
            return -1;
        }
    }
    return 0;
}

static unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)size + 1);
    *n = fread(buf, 1, (size_t)size, f);
    fclose(f);
    return buf;
}

/* Splits a file into records, checking framing and CRCs; returns the number
 * of records (decoded into ev[]), or -1 with the first problem in err. */
static char err[256];
static int read_records(const unsigned char *buf, size_t n, event *ev, int max)
{
    size_t at = 0;
    int count = 0;
    while (at < n) {
        if (n - at < 12) {
            snprintf(err, sizeof(err), "record %d: %zu bytes left, too few for a header", count,
                     n - at);
            return -1;
        }
        uint64_t len = get_le(buf + at, 8);
        uint32_t len_crc = (uint32_t)get_le(buf + at + 8, 4);
        if (len_crc != mask(crc32c_bitwise(buf + at, 8))) {
            snprintf(err, sizeof(err), "record %d: length CRC 0x%08x is wrong", count, len_crc);
            return -1;
        }
        if (len > n - at - 16) {
            snprintf(err, sizeof(err), "record %d: length %llu runs past the end", count,
                     (unsigned long long)len);
            return -1;
        }
        const unsigned char *data = buf + at + 12;
        uint32_t data_crc = (uint32_t)get_le(data + len, 4);
        if (data_crc != mask(crc32c_bitwise(data, len))) {
            snprintf(err, sizeof(err), "record %d: data CRC 0x%08x is wrong", count, data_crc);
            return -1;
        }
        if (count >= max || decode_event(data, len, &ev[count]) != 0) {
            snprintf(err, sizeof(err), "record %d: not an Event this writer writes", count);
            return -1;
        }
        count++;
        at += 12 + len + 4;
    }
    return count;
}

/* ------------------------------------------------------------------------ */
/* tests */

static void test_crc32c_known_answers(void)
{
    CHECK_EQ_HEX(l5_crc32c("123456789", 9), 0xE3069283u);
    CHECK_EQ_HEX(l5_crc32c("", 0), 0x00000000u);
    unsigned char zeros[32] = { 0 }, ones[32];
    memset(ones, 0xFF, sizeof(ones));
    CHECK_EQ_HEX(l5_crc32c(zeros, 32), 0x8A9136AAu); /* RFC 3720 B.4 */
    CHECK_EQ_HEX(l5_crc32c(ones, 32), 0x62A8AB43u);  /* RFC 3720 B.4 */
    CHECK_EQ_HEX(crc32c_bitwise((const unsigned char *)"123456789", 9), 0xE3069283u);
    /* the table and bitwise versions agree on other lengths and bytes */
    unsigned char buf[300];
    for (int i = 0; i < 300; i++)
        buf[i] = (unsigned char)(i * 37 + 11);
    for (size_t n = 0; n <= 300; n += 23)
        CHECK_EQ_HEX(l5_crc32c(buf, n), crc32c_bitwise(buf, n));
    CHECK_EQ_HEX(l5_crc32c_masked("123456789", 9), mask(0xE3069283u));
    CHECK_EQ_HEX(mask(0xE3069283u), ((0xE3069283u >> 15) | (0xE3069283u << 17)) + 0xa282ead8u);
}

static void test_event_file(void)
{
    char path[4096];
    CHECK_EQ_INT(write_sample(TMP "/runs/sample", path, sizeof(path)), 0);
    CHECK_CONTAINS(path, TMP "/runs/sample/events.out.tfevents.");
    size_t n = 0;
    unsigned char *buf = read_file(path, &n);
    CHECK(buf != NULL);
    if (!buf)
        return;
    event ev[64];
    int count = read_records(buf, n, ev, 64);
    if (count < 0)
        LAB_TEST_FAIL_AT("%s: %s", path, err);
    CHECK_EQ_INT(count, 2 + 2 * SAMPLE_STEPS);
    if (count == 2 + 2 * SAMPLE_STEPS) {
        CHECK(ev[0].has_version && !ev[0].has_summary);
        CHECK_STREQ(ev[0].version, "brain.Event:2");
        CHECK(ev[0].wall_time > 1.5e9); /* after 2017: a real clock time */
        for (int s = 0; s < SAMPLE_STEPS; s++) {
            event *l = &ev[1 + 2 * s], *a = &ev[2 + 2 * s];
            CHECK(l->has_summary && !l->has_version && l->values == 1);
            CHECK_STREQ(l->tag, "loss/train");
            CHECK_EQ_INT(l->step, 10 * s);
            CHECK_EQ_HEX(l->value == sample_loss(s), 1);
            CHECK_STREQ(a->tag, "accuracy/train");
            CHECK_EQ_INT(a->step, 10 * s);
            CHECK_EQ_HEX(a->value == sample_acc(s), 1);
            CHECK(l->wall_time >= ev[0].wall_time);
        }
        event *b = &ev[count - 1];
        CHECK_STREQ(b->tag, "big_step");
        CHECK_EQ_INT(b->step, 5000000000LL);
        CHECK_EQ_HEX(b->value == -1.5f, 1);
    }
    /* the checker catches a flipped bit in the last record's data */
    buf[n - 7] ^= 0x10;
    CHECK_EQ_INT(read_records(buf, n, ev, 64), -1);
    CHECK_CONTAINS(err, "data CRC");
    free(buf);
}

static void test_open_errors(void)
{
    char why[512] = "";
    /* a file where a directory should be */
    FILE *f = fopen(TMP "/plainfile", "w");
    if (f)
        fclose(f);
    l5_tfevents *w = l5_tfevents_open(TMP "/plainfile/run", why, sizeof(why));
    CHECK(w == NULL);
    CHECK_CONTAINS(why, TMP "/plainfile");
    w = l5_tfevents_open(TMP "/plainfile", why, sizeof(why));
    CHECK(w == NULL);
    CHECK_CONTAINS(why, "not a directory");
    l5_tfevents_close(NULL);
    CHECK_EQ_INT(l5_tfevents_scalar(NULL, "x", 1.0f, 0), -1);
    /* two writers in one directory in the same second get different files */
    l5_tfevents *a = l5_tfevents_open(TMP "/runs/two", why, sizeof(why));
    l5_tfevents *b = l5_tfevents_open(TMP "/runs/two", why, sizeof(why));
    CHECK(a && b);
    if (a && b)
        CHECK(strcmp(l5_tfevents_path(a), l5_tfevents_path(b)) != 0);
    CHECK_EQ_INT(l5_tfevents_scalar(a, NULL, 1.0f, 0), -1);
    l5_tfevents_close(a);
    l5_tfevents_close(b);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--skip") == 0) {
        printf("skipped: %s\n", argv[2]);
        return LAB_TEST_SKIP;
    }
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        char path[4096];
        if (write_sample(argv[2], path, sizeof(path)) != 0)
            return 1;
        printf("%s\n", path);
        return 0;
    }
    mkdir(TMP, 0777);
    LAB_TEST_RUN(test_crc32c_known_answers);
    LAB_TEST_RUN(test_event_file);
    LAB_TEST_RUN(test_open_errors);
    LAB_TEST_MAIN_END();
}
