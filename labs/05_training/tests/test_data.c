/*
 * test_data.c — lab 05's data module: the CIFAR-10 reader on small hand-made
 * files (good and malformed), the synthetic set (deterministic, balanced,
 * classes that differ), and the iris CSV (the data set's known facts, and
 * malformed files).
 *
 * Files are made in ./lab05-data-tmp/ (CTest runs this in the build tree).
 */
#define _POSIX_C_SOURCE 200809L /* mkdir, setenv, unsetenv */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data.h"
#include "lab_test.h"

#define TMP "lab05-data-tmp"

/* See test_synthetic_deterministic. */
#define SYNTHETIC_HASH_42_50 0x4ee748b62b079bb5ULL

static char why[1024];

/* ------------------------------------------------------------------------ */
/* helpers */

static void write_bytes(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        printf("cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

/* A CIFAR record with a recognizable pattern: pixel byte = (label * 31 +
 * seed + p * 7) mod 256. */
static void make_record(unsigned char *rec, int label, int seed)
{
    rec[0] = (unsigned char)label;
    for (int p = 0; p < L5_IMG_PIXELS; p++)
        rec[1 + p] = (unsigned char)((label * 31 + seed + p * 7) & 0xFF);
}

/* Writes `count` records to dir/name, record r with label (r + first) % 10
 * and seed first + r. */
static void make_batch(const char *dir, const char *name, int count, int first)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    unsigned char *buf = malloc((size_t)count * L5_RECORD_BYTES + 1);
    for (int r = 0; r < count; r++)
        make_record(buf + (size_t)r * L5_RECORD_BYTES, (first + r) % 10, first + r);
    write_bytes(path, buf, (size_t)count * L5_RECORD_BYTES);
    free(buf);
}

static void make_dir(const char *path)
{
    mkdir(path, 0777);
}

/* Whether image i of set equals record made by make_record(label, seed). */
static int image_matches(const l5_images *set, int i, int label, int seed)
{
    unsigned char rec[L5_RECORD_BYTES];
    make_record(rec, label, seed);
    if (set->label[i] != label)
        return 0;
    for (int p = 0; p < L5_IMG_PIXELS; p++)
        if (set->x[(size_t)i * L5_IMG_PIXELS + p] != l5_pixel_to_float(rec[1 + p]))
            return 0;
    return 1;
}

static uint64_t fnv1a(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* ------------------------------------------------------------------------ */
/* pixels */

static void test_pixel_mapping(void)
{
    CHECK_EQ_HEX(l5_pixel_to_float(0) == -1.0f, 1);
    CHECK_EQ_HEX(l5_pixel_to_float(255) == 1.0f, 1);
    /* 128/255 = 0.50196..., normalized 0.0039215... */
    CHECK_NEAR(l5_pixel_to_float(128), (128.0 / 255.0 - 0.5) / 0.5, 1e-7);
    for (int b = 0; b < 256; b++)
        if (l5_float_to_pixel(l5_pixel_to_float((unsigned char)b)) != b)
            LAB_TEST_FAIL_AT("byte %d does not survive float and back", b);
    CHECK_EQ_INT(l5_float_to_pixel(-3.0f), 0);
    CHECK_EQ_INT(l5_float_to_pixel(3.0f), 255);
}

/* ------------------------------------------------------------------------ */
/* CIFAR-10 reader */

static void test_cifar_train_and_test(void)
{
    const char *dir = TMP "/good";
    make_dir(dir);
    /* five training batches of 3, 2, 4, 1, 2 records (12 in all), one test batch of 5 */
    int counts[5] = { 3, 2, 4, 1, 2 }, first = 0;
    for (int b = 0; b < 5; b++) {
        char name[64];
        snprintf(name, sizeof(name), "data_batch_%d.bin", b + 1);
        make_batch(dir, name, counts[b], first);
        first += counts[b];
    }
    make_batch(dir, "test_batch.bin", 5, 100);

    l5_images set;
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 1, 0, why, sizeof(why)), 0);
    CHECK_EQ_INT(set.n, 12);
    for (int i = 0; i < set.n; i++)
        if (!image_matches(&set, i, i % 10, i))
            LAB_TEST_FAIL_AT("training image %d differs from record %d of the batches", i, i);
    /* Layout: red plane, then green, then blue; pixel (y=1, x=2) of green. */
    unsigned char rec[L5_RECORD_BYTES];
    make_record(rec, 4, 4);
    CHECK_EQ_HEX(
        set.x[4 * L5_IMG_PIXELS + 1024 + 1 * 32 + 2] == l5_pixel_to_float(rec[1 + 1024 + 34]), 1);
    l5_images_free(&set);
    CHECK(set.x == NULL && set.n == 0);

    /* max_n across a file boundary: 4 = 3 from batch 1 and 1 from batch 2 */
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 1, 4, why, sizeof(why)), 0);
    CHECK_EQ_INT(set.n, 4);
    CHECK(image_matches(&set, 3, 3, 3));
    l5_images_free(&set);
    /* max_n larger than the set: all of it */
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 1, 1000, why, sizeof(why)), 0);
    CHECK_EQ_INT(set.n, 12);
    l5_images_free(&set);

    CHECK_EQ_INT(l5_cifar_load(&set, dir, 0, 0, why, sizeof(why)), 0);
    CHECK_EQ_INT(set.n, 5);
    CHECK(image_matches(&set, 0, 0, 100));
    CHECK(image_matches(&set, 4, 4, 104));
    l5_images_free(&set);
}

static void test_cifar_malformed(void)
{
    l5_images set;
    const char *dir = TMP "/bad";
    make_dir(dir);

    /* missing directory / file */
    CHECK_EQ_INT(l5_cifar_load(&set, TMP "/nowhere", 0, 0, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, TMP "/nowhere/test_batch.bin");
    CHECK_CONTAINS(why, "No such file");
    CHECK(set.x == NULL && set.label == NULL && set.n == 0);

    /* batch 3 missing: the message names it */
    make_batch(dir, "data_batch_1.bin", 2, 0);
    make_batch(dir, "data_batch_2.bin", 2, 2);
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 1, 0, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "data_batch_3.bin");
    /* ... but max_n = 4 never needs it */
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 1, 4, why, sizeof(why)), 0);
    CHECK_EQ_INT(set.n, 4);
    l5_images_free(&set);

    /* size not a multiple of 3073 */
    unsigned char *buf = calloc(3 * L5_RECORD_BYTES, 1);
    write_bytes(TMP "/bad/test_batch.bin", buf, 2 * L5_RECORD_BYTES + 100);
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 0, 0, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "test_batch.bin");
    CHECK_CONTAINS(why, "6246 bytes"); /* 2 * 3073 + 100 */
    CHECK_CONTAINS(why, "3073");

    /* empty file */
    write_bytes(TMP "/bad/test_batch.bin", buf, 0);
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 0, 0, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "test_batch.bin");
    CHECK_CONTAINS(why, "0 bytes");

    /* a label above 9 in record 2 */
    for (int r = 0; r < 3; r++)
        make_record(buf + (size_t)r * L5_RECORD_BYTES, r, r);
    buf[2 * L5_RECORD_BYTES] = 10;
    write_bytes(TMP "/bad/test_batch.bin", buf, 3 * L5_RECORD_BYTES);
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 0, 0, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "test_batch.bin");
    CHECK_CONTAINS(why, "record 2");
    CHECK_CONTAINS(why, "label 10");
    CHECK(set.x == NULL && set.n == 0);
    /* the first two records alone are fine */
    CHECK_EQ_INT(l5_cifar_load(&set, dir, 0, 2, why, sizeof(why)), 0);
    CHECK_EQ_INT(set.n, 2);
    l5_images_free(&set);
    free(buf);

    CHECK_EQ_INT(l5_cifar_load(&set, dir, 0, -1, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "max_n");
}

static void test_cifar_write_round_trip(void)
{
    l5_images a, b;
    CHECK_EQ_INT(l5_synthetic(&a, 23, 5, why, sizeof(why)), 0);
    make_dir(TMP "/rt");
    CHECK_EQ_INT(l5_cifar_write(TMP "/rt/test_batch.bin", &a, why, sizeof(why)), 0);
    struct stat st;
    CHECK_EQ_INT(stat(TMP "/rt/test_batch.bin", &st), 0);
    CHECK_EQ_INT(st.st_size, 23 * 3073);
    CHECK_EQ_INT(l5_cifar_load(&b, TMP "/rt", 0, 0, why, sizeof(why)), 0);
    CHECK_EQ_INT(b.n, 23);
    if (b.n == 23) {
        CHECK(memcmp(a.label, b.label, 23) == 0);
        CHECK(memcmp(a.x, b.x, (size_t)23 * L5_IMG_PIXELS * sizeof(float)) == 0);
    }
    l5_images_free(&b);
    /* a bad label is refused and leaves no file */
    a.label[3] = 12;
    CHECK_EQ_INT(l5_cifar_write(TMP "/rt/bad.bin", &a, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "image 3 has label 12");
    CHECK(stat(TMP "/rt/bad.bin", &st) != 0);
    CHECK_EQ_INT(l5_cifar_write(TMP "/no/such/dir/x.bin", &a, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, TMP "/no/such/dir/x.bin");
    l5_images_free(&a);
}

/* ------------------------------------------------------------------------ */
/* synthetic set */

static void test_synthetic_deterministic(void)
{
    l5_images a, b, c, d;
    CHECK_EQ_INT(l5_synthetic(&a, 200, 42, why, sizeof(why)), 0);
    CHECK_EQ_INT(l5_synthetic(&b, 200, 42, why, sizeof(why)), 0);
    CHECK_EQ_INT(l5_synthetic(&c, 200, 43, why, sizeof(why)), 0);
    CHECK_EQ_INT(l5_synthetic(&d, 50, 42, why, sizeof(why)), 0);
    size_t bytes = (size_t)200 * L5_IMG_PIXELS * sizeof(float);
    CHECK(memcmp(a.x, b.x, bytes) == 0);
    CHECK(memcmp(a.label, b.label, 200) == 0);
    CHECK(memcmp(a.x, c.x, bytes) != 0);
    CHECK(memcmp(a.label, c.label, 200) != 0);
    /* a smaller set is the start of a larger one */
    CHECK(memcmp(a.x, d.x, (size_t)50 * L5_IMG_PIXELS * sizeof(float)) == 0);
    CHECK(memcmp(a.label, d.label, 50) == 0);
    /* The same bytes on every machine: this hash of seed 42's first 50 images
     * pins the generator (PCG32 and integer arithmetic only). A deliberate
     * change to the generator changes it; update it then, never otherwise. */
    uint64_t h = fnv1a(d.label, 50, 0xcbf29ce484222325ULL);
    for (size_t i = 0; i < (size_t)50 * L5_IMG_PIXELS; i++) {
        unsigned char byte = l5_float_to_pixel(d.x[i]);
        h = fnv1a(&byte, 1, h);
    }
    printf("synthetic seed 42, 50 images: hash 0x%016llx\n", (unsigned long long)h);
    CHECK_EQ_HEX(h, SYNTHETIC_HASH_42_50);
    l5_images_free(&a);
    l5_images_free(&b);
    l5_images_free(&c);
    l5_images_free(&d);
    CHECK_EQ_INT(l5_synthetic(&a, 0, 1, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "n = 0");
}

static void test_synthetic_balanced(void)
{
    int ns[3] = { 1000, 1003, 7 };
    for (int t = 0; t < 3; t++) {
        l5_images s;
        CHECK_EQ_INT(l5_synthetic(&s, ns[t], 9, why, sizeof(why)), 0);
        int count[10] = { 0 };
        for (int i = 0; i < s.n; i++) {
            if (s.label[i] > 9)
                LAB_TEST_FAIL_AT("label %d of image %d", s.label[i], i);
            else
                count[s.label[i]]++;
        }
        for (int k = 0; k < 10; k++)
            if (count[k] < ns[t] / 10 || count[k] > ns[t] / 10 + 1)
                LAB_TEST_FAIL_AT("n=%d: class %d has %d images", ns[t], k, count[k]);
        /* values are normalized bytes, inside [-1, 1], and use the range */
        float lo = 1, hi = -1;
        for (size_t i = 0; i < (size_t)s.n * L5_IMG_PIXELS; i++) {
            lo = s.x[i] < lo ? s.x[i] : lo;
            hi = s.x[i] > hi ? s.x[i] : hi;
        }
        CHECK(lo >= -1.0f && lo < -0.9f);
        CHECK(hi <= 1.0f && hi > 0.9f);
        /* labels are shuffled, not a plain cycle */
        if (ns[t] >= 1000) {
            int cyclic = 0;
            for (int i = 0; i < s.n; i++)
                cyclic += s.label[i] == i % 10;
            CHECK(cyclic < s.n / 2);
        }
        l5_images_free(&s);
    }
}

/* Classes are distinct: a nearest-class-mean classifier on raw pixels, fitted
 * on the images drawn with one random seed, labels those drawn with another
 * far better than chance (10%), and every class well above chance. (It gets about 48%: shapes move
 * from image to image, which a class mean blurs and a CNN does not.) */
static void test_synthetic_classes_distinct(void)
{
    l5_images tr, te;
    CHECK_EQ_INT(l5_synthetic(&tr, 2000, 1, why, sizeof(why)), 0);
    CHECK_EQ_INT(l5_synthetic(&te, 1000, 2, why, sizeof(why)), 0);
    static double mean[10][L5_IMG_PIXELS];
    int count[10] = { 0 };
    memset(mean, 0, sizeof(mean));
    for (int i = 0; i < tr.n; i++) {
        count[tr.label[i]]++;
        for (int p = 0; p < L5_IMG_PIXELS; p++)
            mean[tr.label[i]][p] += tr.x[(size_t)i * L5_IMG_PIXELS + p];
    }
    for (int k = 0; k < 10; k++)
        for (int p = 0; p < L5_IMG_PIXELS; p++)
            mean[k][p] /= count[k];
    int right = 0, per_class_right[10] = { 0 }, per_class[10] = { 0 };
    for (int i = 0; i < te.n; i++) {
        int best = 0;
        double best_d = 1e300;
        for (int k = 0; k < 10; k++) {
            double dist = 0;
            for (int p = 0; p < L5_IMG_PIXELS; p++) {
                double e = te.x[(size_t)i * L5_IMG_PIXELS + p] - mean[k][p];
                dist += e * e;
            }
            if (dist < best_d) {
                best_d = dist;
                best = k;
            }
        }
        per_class[te.label[i]]++;
        if (best == te.label[i]) {
            right++;
            per_class_right[te.label[i]]++;
        }
    }
    printf("nearest class mean on the synthetic set: %d / %d right\n", right, te.n);
    CHECK(right >= te.n * 4 / 10);
    for (int k = 0; k < 10; k++)
        if (per_class_right[k] * 100 < per_class[k] * 15)
            LAB_TEST_FAIL_AT("class %d: only %d of %d right", k, per_class_right[k], per_class[k]);
    l5_images_free(&tr);
    l5_images_free(&te);
}

static void test_images_open(void)
{
    l5_images s;
    char desc[256];
    unsetenv("GPULAB_CIFAR10");
    CHECK_EQ_INT(l5_images_open(&s, NULL, 1, 30, 7, desc, sizeof(desc), why, sizeof(why)), 0);
    CHECK_EQ_INT(s.n, 30);
    CHECK_STREQ(desc, "synthetic CIFAR-shaped set, seed 7");
    l5_images t;
    CHECK_EQ_INT(l5_images_open(&t, NULL, 0, 30, 7, desc, sizeof(desc), why, sizeof(why)), 0);
    CHECK_CONTAINS(desc, "synthetic CIFAR-shaped set, seed 7");
    CHECK(memcmp(s.x, t.x, (size_t)30 * L5_IMG_PIXELS * sizeof(float)) != 0); /* test != train */
    l5_images_free(&s);
    l5_images_free(&t);

    /* --data wins over the environment; the environment over synthetic */
    setenv("GPULAB_CIFAR10", TMP "/nowhere", 1);
    CHECK_EQ_INT(l5_images_open(&s, TMP "/good", 0, 0, 7, desc, sizeof(desc), why, sizeof(why)), 0);
    CHECK_EQ_INT(s.n, 5);
    CHECK_STREQ(desc, "CIFAR-10 from " TMP "/good");
    l5_images_free(&s);
    CHECK_EQ_INT(l5_images_open(&s, NULL, 0, 0, 7, desc, sizeof(desc), why, sizeof(why)), -1);
    CHECK_CONTAINS(why, TMP "/nowhere/test_batch.bin");
    CHECK_CONTAINS(why, "GPULAB_CIFAR10");
    setenv("GPULAB_CIFAR10", TMP "/good", 1);
    CHECK_EQ_INT(l5_images_open(&s, NULL, 1, 0, 7, desc, sizeof(desc), why, sizeof(why)), 0);
    CHECK_EQ_INT(s.n, 12);
    l5_images_free(&s);
    unsetenv("GPULAB_CIFAR10");
}

/* ------------------------------------------------------------------------ */
/* iris */

static void test_iris_facts(const char *csv)
{
    l5_table t;
    int rc = l5_iris_load(&t, csv, why, sizeof(why));
    CHECK_EQ_INT(rc, 0);
    if (rc != 0) {
        printf("%s\n", why);
        return;
    }
    CHECK_EQ_INT(t.n, 150);
    CHECK_EQ_INT(t.d, 4);
    /* The well-known per-class means (Fisher's data as R's `iris` and
     * scikit-learn ship it): setosa, versicolor, virginica. */
    static const double want[3][4] = {
        { 5.006, 3.428, 1.462, 0.246 },
        { 5.936, 2.770, 4.260, 1.326 },
        { 6.588, 2.974, 5.552, 2.026 },
    };
    double sum[3][4] = { { 0 } };
    int count[3] = { 0 };
    for (int i = 0; i < t.n; i++) {
        CHECK(t.label[i] <= 2);
        if (t.label[i] > 2)
            continue;
        count[t.label[i]]++;
        for (int j = 0; j < 4; j++)
            sum[t.label[i]][j] += t.x[i * 4 + j];
    }
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(count[k], 50);
        for (int j = 0; j < 4; j++)
            CHECK_NEAR(sum[k][j] / 50.0, want[k][j], 1e-5);
    }
    /* rows in order: 50 of each class; first and last rows */
    CHECK(t.label[0] == 0 && t.label[49] == 0 && t.label[50] == 1 && t.label[100] == 2);
    CHECK(t.x[0] == 5.1f && t.x[1] == 3.5f && t.x[2] == 1.4f && t.x[3] == 0.2f);
    CHECK(t.x[149 * 4] == 5.9f && t.x[149 * 4 + 1] == 3.0f && t.x[149 * 4 + 2] == 5.1f &&
          t.x[149 * 4 + 3] == 1.8f);
    l5_table_free(&t);
    CHECK(t.x == NULL && t.n == 0);
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, (const unsigned char *)text, strlen(text));
}

static void test_iris_formats_and_errors(void)
{
    l5_table t;
    const char *p = TMP "/iris.csv";
    /* names instead of numbers, CRLF, spaces, no header, blank lines */
    write_text(p, "5.1, 3.5,1.4,0.2,Iris-setosa\r\n\r\n7.0,3.2,4.7,1.4, versicolor\r\n"
                  "6.3,3.3,6.0,2.5,Virginica\r\n6,3,4,1,2\n");
    CHECK_EQ_INT(l5_iris_load(&t, p, why, sizeof(why)), 0);
    CHECK_EQ_INT(t.n, 4);
    if (t.n == 4) {
        CHECK(t.label[0] == 0 && t.label[1] == 1 && t.label[2] == 2 && t.label[3] == 2);
        CHECK(t.x[1] == 3.5f && t.x[12] == 6.0f);
    }
    l5_table_free(&t);

    write_text(p, "a,b,c,d,target\n5.1,3.5,1.4,0.2,0\n4.9,3.0,x1.4,0.2,0\n");
    CHECK_EQ_INT(l5_iris_load(&t, p, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "line 3 column 3");
    CHECK_CONTAINS(why, "'x1.4' is not a number");
    CHECK_CONTAINS(why, p);
    CHECK(t.x == NULL && t.n == 0);

    write_text(p, "a,b,c,d,target\n5.1,3.5,1.4,0.2\n");
    CHECK_EQ_INT(l5_iris_load(&t, p, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "line 2: 4 columns, expected 5");

    write_text(p, "a,b,c,d,target\n5.1,3.5,1.4,0.2,0,7\n");
    CHECK_EQ_INT(l5_iris_load(&t, p, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "line 2: 6 columns");

    write_text(p, "a,b,c,d,target\n5.1,3.5,1.4,0.2,3\n");
    CHECK_EQ_INT(l5_iris_load(&t, p, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "line 2 column 5: '3' is not a class");

    write_text(p, "a,b,c,d,target\n5.1,3.5,,0.2,0\n");
    CHECK_EQ_INT(l5_iris_load(&t, p, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "line 2 column 3: '' is not a number");

    write_text(p, "a,b,c,d,target\n");
    CHECK_EQ_INT(l5_iris_load(&t, p, why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "no data rows");

    CHECK_EQ_INT(l5_iris_load(&t, TMP "/missing.csv", why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "missing.csv");
    CHECK_CONTAINS(why, "No such file");

    /* NULL path: $GPULAB_IRIS_CSV */
    write_text(p, "1,2,3,4,0\n");
    setenv("GPULAB_IRIS_CSV", p, 1);
    CHECK_EQ_INT(l5_iris_load(&t, NULL, why, sizeof(why)), 0);
    CHECK_EQ_INT(t.n, 1);
    l5_table_free(&t);
    unsetenv("GPULAB_IRIS_CSV");
}

static const char *iris_csv = L5_IRIS_CSV;
static void test_iris_shipped(void)
{
    test_iris_facts(iris_csv);
}
static void test_iris_default_path(void)
{
    test_iris_facts(NULL);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        iris_csv = argv[1];
    make_dir(TMP);
    LAB_TEST_RUN(test_pixel_mapping);
    LAB_TEST_RUN(test_cifar_train_and_test);
    LAB_TEST_RUN(test_cifar_malformed);
    LAB_TEST_RUN(test_cifar_write_round_trip);
    LAB_TEST_RUN(test_synthetic_deterministic);
    LAB_TEST_RUN(test_synthetic_balanced);
    LAB_TEST_RUN(test_synthetic_classes_distinct);
    LAB_TEST_RUN(test_images_open);
    LAB_TEST_RUN(test_iris_shipped);
    LAB_TEST_RUN(test_iris_default_path);
    LAB_TEST_RUN(test_iris_formats_and_errors);
    LAB_TEST_MAIN_END();
}
