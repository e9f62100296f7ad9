/*
 * Unit tests of lab/npy.h, and the C side of the NumPy interop test.
 *
 *   test-npy                         the unit tests (files go to a fresh temp directory)
 *   test-npy --write-for-numpy DIR   writes interop_files[] for npy_numpy_check.py to load
 *   test-npy --read-from-numpy DIR   checks the files npy_numpy_check.py saved with numpy.save
 *   test-npy --skip REASON           prints REASON and exits 77 (no NumPy at configure time)
 *
 * Values follow one formula per dtype of the element index, shared with
 * npy_numpy_check.py (see fill).
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setrlimit, dirent */

#include "lab/npy.h"
#include "lab_test.h"

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp_dir[512];

/* ------------------------------------------------------------------------ */
/* Helpers */

static void path_in(char *buf, size_t cap, const char *dir, const char *file)
{
    int n = snprintf(buf, cap, "%s/%s", dir, file);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "path too long: %s/%s\n", dir, file);
        exit(1);
    }
}

static int write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = n ? fwrite(p, 1, n, f) : 0;
    return (fclose(f) == 0 && put == n) ? 0 : -1;
}

/* Reads a whole file; *n receives its length. Caller frees. */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long len;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)len + 1);
        if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
            free(buf);
            buf = NULL;
        }
        *n = (size_t)len;
    }
    fclose(f);
    return buf;
}

/* Entries of a directory, "." and ".." excluded. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void remove_tree_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        path_in(path, sizeof(path), dir, e->d_name);
        if (unlink(path) != 0)
            remove_tree_files(path);
    }
    closedir(d);
    rmdir(dir);
}

static int is_zeroed(const lab_npy_array *a)
{
    int zero = a->dtype == 0 && a->ndim == 0 && a->count == 0 && a->data == NULL;
    for (int i = 0; i < LAB_NPY_MAX_DIMS; i++)
        zero &= a->shape[i] == 0;
    return zero;
}

static size_t shape_count(int ndim, const size_t *shape)
{
    size_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    return n;
}

/* Element i is a function of i + 1, the same in npy_numpy_check.py. */
static void fill(lab_dtype t, void *data, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        size_t k = i + 1;
        switch (t) {
        case LAB_DTYPE_F32:
            ((float *)data)[i] = (float)k * 0.5f - 3.25f;
            break;
        case LAB_DTYPE_F64:
            ((double *)data)[i] = (double)k / 3.0;
            break;
        case LAB_DTYPE_I32:
            ((int32_t *)data)[i] = (int32_t)k * 1000003 - 5000000;
            break;
        case LAB_DTYPE_I64:
            ((int64_t *)data)[i] = (int64_t)k * 3000000000001LL - 4000000000000000000LL;
            break;
        case LAB_DTYPE_U8:
            ((uint8_t *)data)[i] = (uint8_t)(k * 37 % 256);
            break;
        }
    }
}

/* Checks a read array against dtype, shape and fill's values. */
static void check_array(const lab_npy_array *a, lab_dtype t, int ndim, const size_t *shape,
                        const char *what)
{
    size_t count = shape_count(ndim, shape), size = lab_dtype_size(t);
    CHECK_EQ_INT(a->dtype, t);
    CHECK_EQ_INT(a->ndim, ndim);
    for (int i = 0; i < ndim && i < a->ndim; i++)
        CHECK_EQ_INT(a->shape[i], shape[i]);
    CHECK_EQ_INT(a->count, count);
    CHECK(a->data != NULL);
    void *want = malloc(count * size + 1);
    fill(t, want, count);
    if (a->data && a->count == count && memcmp(a->data, want, count * size) != 0)
        LAB_TEST_FAIL_AT("%s: data differs from the values written", what);
    free(want);
}

/* The file's preamble and header, as numpy.save lays them out. */
static void check_layout(const char *path, const char *dict)
{
    size_t n = 0;
    unsigned char *b = slurp(path, &n);
    CHECK(b != NULL && n >= 10);
    if (!b || n < 10) {
        free(b);
        return;
    }
    size_t hlen = (size_t)b[8] | (size_t)b[9] << 8;
    CHECK(memcmp(b, "\x93NUMPY\x01\x00", 8) == 0);
    CHECK_EQ_INT((10 + hlen) % 64, 0);
    CHECK(10 + hlen <= n);
    if (10 + hlen <= n) {
        CHECK_EQ_INT(b[10 + hlen - 1], '\n');
        CHECK_EQ_INT(b[10 + hlen - 2], ' ');
        if (dict)
            CHECK(strncmp((const char *)b + 10, dict, strlen(dict)) == 0);
    }
    free(b);
}

static void roundtrip(lab_dtype t, int ndim, const size_t *shape, const char *file)
{
    char path[1024];
    lab_error err;
    lab_npy_array a;
    size_t count = shape_count(ndim, shape);
    void *data = malloc(count * lab_dtype_size(t) + 1);
    fill(t, data, count);
    path_in(path, sizeof(path), tmp_dir, file);
    int rc = lab_npy_write(path, t, ndim, shape, data, &err);
    CHECK_EQ_INT(rc, LAB_OK);
    if (rc)
        printf("  write: %s\n", err.msg);
    rc = lab_npy_read(&a, path, &err);
    CHECK_EQ_INT(rc, LAB_OK);
    if (rc)
        printf("  read: %s\n", err.msg);
    else
        check_array(&a, t, ndim, shape, file);
    check_layout(path, NULL);
    lab_npy_free(&a);
    CHECK(is_zeroed(&a));
    free(data);
}

/* A v1.0 file of header (as given, newline included) and n zero data bytes. */
static unsigned char *make_v1(const char *header, size_t data_len, size_t *len)
{
    size_t hlen = strlen(header);
    unsigned char *b = calloc(10 + hlen + data_len + 1, 1);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)(hlen & 0xff);
    b[9] = (unsigned char)(hlen >> 8);
    memcpy(b + 10, header, hlen);
    *len = 10 + hlen + data_len;
    return b;
}

/* ------------------------------------------------------------------------ */
/* Round trips and the written layout */

static void test_dtype_names_and_sizes(void)
{
    CHECK_STREQ(lab_dtype_name(LAB_DTYPE_F32), "float32");
    CHECK_STREQ(lab_dtype_name(LAB_DTYPE_F64), "float64");
    CHECK_STREQ(lab_dtype_name(LAB_DTYPE_I32), "int32");
    CHECK_STREQ(lab_dtype_name(LAB_DTYPE_I64), "int64");
    CHECK_STREQ(lab_dtype_name(LAB_DTYPE_U8), "uint8");
    CHECK_STREQ(lab_dtype_name((lab_dtype)99), "unknown");
    CHECK_EQ_INT(lab_dtype_size(LAB_DTYPE_F32), 4);
    CHECK_EQ_INT(lab_dtype_size(LAB_DTYPE_F64), 8);
    CHECK_EQ_INT(lab_dtype_size(LAB_DTYPE_I32), 4);
    CHECK_EQ_INT(lab_dtype_size(LAB_DTYPE_I64), 8);
    CHECK_EQ_INT(lab_dtype_size(LAB_DTYPE_U8), 1);
    CHECK_EQ_INT(lab_dtype_size((lab_dtype)99), 0);
}

static void test_roundtrip_each_dtype(void)
{
    static const size_t shape[2] = { 3, 4 };
    roundtrip(LAB_DTYPE_F32, 2, shape, "rt_f32.npy");
    roundtrip(LAB_DTYPE_F64, 2, shape, "rt_f64.npy");
    roundtrip(LAB_DTYPE_I32, 2, shape, "rt_i32.npy");
    roundtrip(LAB_DTYPE_I64, 2, shape, "rt_i64.npy");
    roundtrip(LAB_DTYPE_U8, 2, shape, "rt_u8.npy");
}

static void test_roundtrip_each_ndim(void)
{
    static const size_t one[1] = { 5 }, eight[8] = { 1, 2, 1, 2, 1, 2, 1, 3 };
    static const size_t empty[2] = { 0, 3 }, big[1] = { 100000 };
    roundtrip(LAB_DTYPE_F64, 0, NULL, "rt_0d.npy");
    roundtrip(LAB_DTYPE_I32, 1, one, "rt_1d.npy");
    roundtrip(LAB_DTYPE_I64, 8, eight, "rt_8d.npy");
    roundtrip(LAB_DTYPE_F32, 2, empty, "rt_empty.npy");
    roundtrip(LAB_DTYPE_U8, 1, big, "rt_big.npy");
}

static void test_written_header_is_numpys(void)
{
    static const size_t s34[2] = { 3, 4 }, s5[1] = { 5 };
    char path[1024];
    uint8_t bytes[5] = { 1, 2, 3, 4, 5 };
    double x = 2.5;
    path_in(path, sizeof(path), tmp_dir, "hdr.npy");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_F32, 2, s34, (float[12]){ 0 }, NULL), LAB_OK);
    check_layout(path, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_U8, 1, s5, bytes, NULL), LAB_OK);
    check_layout(path, "{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_F64, 0, NULL, &x, NULL), LAB_OK);
    check_layout(path, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_I64, 1, (size_t[1]){ 0 }, NULL, NULL), LAB_OK);
    check_layout(path, "{'descr': '<i8', 'fortran_order': False, 'shape': (0,), }");
}

static void test_write_replaces_atomically(void)
{
    char dir[1024], path[1024];
    lab_npy_array a;
    int32_t v[3] = { 7, 8, 9 };
    path_in(dir, sizeof(dir), tmp_dir, "replace");
    CHECK_EQ_INT(mkdir(dir, 0700), 0);
    path_in(path, sizeof(path), dir, "x.npy");
    CHECK_EQ_INT(write_bytes(path, "old contents", 12), 0);
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_I32, 1, (size_t[1]){ 3 }, v, NULL), LAB_OK);
    CHECK_EQ_INT(count_entries(dir), 1); /* no temporary file left behind */
    CHECK_EQ_INT(lab_npy_read(&a, path, NULL), LAB_OK);
    CHECK(a.data && memcmp(a.data, v, sizeof(v)) == 0);
    lab_npy_free(&a);
}

static void test_write_rejects_bad_arguments(void)
{
    static const size_t shape[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    char path[1024];
    lab_error err;
    float x = 1;
    path_in(path, sizeof(path), tmp_dir, "bad_args.npy");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_F32, 9, shape, &x, &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "ndim 9");
    CHECK_CONTAINS(err.msg, path);
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_F32, -1, shape, &x, &err), LAB_EINVAL);
    CHECK_EQ_INT(lab_npy_write(path, (lab_dtype)7, 1, shape, &x, &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "lab_dtype");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_F32, 2, NULL, &x, &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "shape is NULL");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_F32, 1, shape, NULL, &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "data is NULL");
    CHECK_EQ_INT(lab_npy_write(NULL, LAB_DTYPE_F32, 0, NULL, &x, &err), LAB_EINVAL);
    CHECK_EQ_INT(access(path, F_OK), -1); /* nothing was created */
}

static void test_write_failure_leaves_no_file(void)
{
    char dir[1024], path[1024];
    lab_error err;
    static uint8_t big[1 << 16];
    struct rlimit old, small;
    path_in(dir, sizeof(dir), tmp_dir, "fail");
    CHECK_EQ_INT(mkdir(dir, 0700), 0);
    path_in(path, sizeof(path), dir, "no/such/dir.npy");
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_U8, 1, (size_t[1]){ 4 }, big, &err), LAB_EIO);
    CHECK_CONTAINS(err.msg, path);
    CHECK_CONTAINS(err.msg, "No such file or directory");
    /* The target is a directory: rename fails after the data was written. */
    path_in(path, sizeof(path), dir, "is_a_dir.npy");
    CHECK_EQ_INT(mkdir(path, 0700), 0);
    CHECK_EQ_INT(lab_npy_write(path, LAB_DTYPE_U8, 1, (size_t[1]){ 4 }, big, &err), LAB_EIO);
    CHECK_CONTAINS(err.msg, path);
    CHECK_EQ_INT(count_entries(dir), 1);
    /* A write that fails half way (file size limit, like a full disk). */
    path_in(path, sizeof(path), dir, "too_big.npy");
    signal(SIGXFSZ, SIG_IGN);
    CHECK_EQ_INT(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 4096;
    CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = lab_npy_write(path, LAB_DTYPE_U8, 1, (size_t[1]){ sizeof(big) }, big, &err);
    CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &old), 0);
    CHECK_EQ_INT(rc, LAB_EIO);
    CHECK_CONTAINS(err.msg, "cannot write");
    CHECK_EQ_INT(access(path, F_OK), -1);
    CHECK_EQ_INT(count_entries(dir), 1);
}

/* ------------------------------------------------------------------------ */
/* Reading what other writers produce */

/* A file of format version major.0 with a 4-byte header length, header
 * padded with pad spaces, holding f32 (3, 4). */
static void check_v2_style(int major, size_t pad)
{
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
    size_t dlen = strlen(dict), hlen = dlen + pad + 1, len = 12 + hlen + 48;
    unsigned char *b = calloc(len, 1);
    lab_npy_array a;
    lab_error err;
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)major;
    for (int i = 0; i < 4; i++)
        b[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(b + 12, dict, dlen);
    memset(b + 12 + dlen, ' ', pad);
    b[12 + hlen - 1] = '\n';
    fill(LAB_DTYPE_F32, b + 12 + hlen, 12);
    int rc = lab_npy_parse(&a, b, len, "v2.npy", &err);
    CHECK_EQ_INT(rc, LAB_OK);
    if (rc)
        printf("  %s\n", err.msg);
    else
        check_array(&a, LAB_DTYPE_F32, 2, (size_t[2]){ 3, 4 }, "v2/v3 file");
    lab_npy_free(&a);
    free(b);
}

static void test_read_v2_and_v3(void)
{
    check_v2_style(2, 4);
    check_v2_style(3, 4);
    check_v2_style(2, 70000); /* a header past 65535 bytes: why 2.0 exists */
}

/* Headers that are legal Python and must parse. */
static void test_parse_accepts_legal_variants(void)
{
    static const struct {
        const char *header;
        lab_dtype dtype;
        int ndim;
        size_t dim0;
    } cases[] = {
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", LAB_DTYPE_F32, 1, 2 },
        { "{'shape': (2,), 'fortran_order': False, 'descr': '<f4'}   \n", LAB_DTYPE_F32, 1, 2 },
        { "{\"descr\":\"<f8\",\"fortran_order\":False,\"shape\":(2,)}\n", LAB_DTYPE_F64, 1, 2 },
        { " {\n\t'descr' : '<i4' ,\n 'fortran_order' : False ,\n 'shape' : ( 2 , ) ,\n}\n",
          LAB_DTYPE_I32, 1, 2 },
        { "{'descr': '<i8', 'fortran_order': False, 'shape': (2L,), }\n", LAB_DTYPE_I64, 1, 2 },
        { "{'descr': '=f4', 'fortran_order': False, 'shape': (1, 2,), }\n", LAB_DTYPE_F32, 2, 1 },
        { "{'descr': '<u1', 'fortran_order': False, 'shape': (2, 1), }\n", LAB_DTYPE_U8, 2, 2 },
        { "{'descr': '=u1', 'fortran_order': False, 'shape': (2,), }\n", LAB_DTYPE_U8, 1, 2 },
        { "{'descr': '>u1', 'fortran_order': False, 'shape': (2,), }\n", LAB_DTYPE_U8, 1, 2 },
        { "{'descr': '|u1', 'fortran_order': False, 'shape': ( ), }\n", LAB_DTYPE_U8, 0, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t count = cases[i].ndim ? 2 : 1, len;
        unsigned char *b = make_v1(cases[i].header, count * lab_dtype_size(cases[i].dtype), &len);
        lab_npy_array a;
        lab_error err;
        int rc = lab_npy_parse(&a, b, len, "legal.npy", &err);
        if (rc != LAB_OK)
            LAB_TEST_FAIL_AT("case %zu: %s", i, err.msg);
        CHECK_EQ_INT(a.dtype, cases[i].dtype);
        CHECK_EQ_INT(a.ndim, cases[i].ndim);
        CHECK_EQ_INT(a.shape[0], cases[i].dim0);
        CHECK_EQ_INT(a.count, count);
        lab_npy_free(&a);
        free(b);
    }
}

/* ------------------------------------------------------------------------ */
/* The malformed corpus */

typedef struct bad_case {
    const char *name;   /* also the file name, with ".npy" */
    const char *bytes;  /* the whole file; NULL: a v1.0 file of header and data_len zero bytes */
    size_t len;         /* of bytes */
    const char *header; /* newline included where there is one */
    size_t data_len;
    int status;
    const char *msg; /* expected in the message */
} bad_case;

#define RAW(s) s, sizeof(s) - 1, NULL, 0
#define HDR(h, n) NULL, 0, h, n
#define F4 "{'descr': '<f4', 'fortran_order': False, "

static const bad_case corpus[] = {
    { "empty", RAW(""), LAB_EFORMAT, "empty file (0 bytes)" },
    { "zip_magic", RAW("PK\x03\x04\x14\x00\x08\x00"), LAB_EFORMAT,
      "not a .npy file (bad magic: expected \"\\x93NUMPY\", found \"PK\\x03\\x04\\x14\\x00\")" },
    { "text_file", RAW("hello, world\n"), LAB_EFORMAT, "not a .npy file (bad magic" },
    { "short_magic", RAW("\x93NUM"), LAB_EFORMAT, "truncated preamble" },
    { "no_header_len", RAW("\x93NUMPY\x01\x00\x10"), LAB_EFORMAT, "truncated preamble" },
    { "version_4_0", RAW("\x93NUMPY\x04\x00\x10\x00\x00\x00{}\n"), LAB_EUNSUPPORTED,
      "unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)" },
    { "version_1_1", RAW("\x93NUMPY\x01\x01\x03\x00{}\n"), LAB_EUNSUPPORTED, "version 1.1" },
    { "header_past_eof", RAW("\x93NUMPY\x01\x00\xff\x00{'descr': '<f4'}\n"), LAB_EFORMAT,
      "truncated header: the preamble says the header is 255 bytes, but only 17 bytes follow" },
    { "v2_header_past_eof", RAW("\x93NUMPY\x02\x00\xff\xff\xff\x7f{}\n"), LAB_EFORMAT,
      "header is 2147483647 bytes" },
    { "zero_header_len", RAW("\x93NUMPY\x01\x00\x00\x00"), LAB_EFORMAT,
      "does not end with a newline" },
    { "no_newline", HDR(F4 "'shape': (2,), }  ", 8), LAB_EFORMAT, "does not end with a newline" },
    { "not_a_dict", HDR("hello\n", 0), LAB_EFORMAT, "starting with '{', found 'h'" },
    { "missing_shape", HDR(F4 "}\n", 0), LAB_EFORMAT, "missing key 'shape'" },
    { "missing_descr", HDR("{'fortran_order': False, 'shape': (2,)}\n", 8), LAB_EFORMAT,
      "missing key 'descr'" },
    { "duplicate_key", HDR(F4 "'shape': (2,), 'descr': '<f8'}\n", 8), LAB_EFORMAT,
      "duplicate key 'descr'" },
    { "unknown_key", HDR(F4 "'shape': (2,), 'order': 'C'}\n", 8), LAB_EFORMAT,
      "unknown key 'order'" },
    { "descr_not_string", HDR("{'descr': 4, 'fortran_order': False, 'shape': (2,)}\n", 8),
      LAB_EFORMAT, "'descr' must be a quoted type string" },
    { "fortran_not_bool", HDR("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}\n", 8),
      LAB_EFORMAT, "'fortran_order' must be True or False, found '0'" },
    { "shape_is_list", HDR(F4 "'shape': [2]}\n", 8), LAB_EFORMAT, "'shape' must be a tuple" },
    { "shape_not_tuple", HDR(F4 "'shape': (2)}\n", 8), LAB_EFORMAT,
      "'shape' (2) is not a tuple; a 1-d shape is written (2,)" },
    { "unclosed_brace", HDR(F4 "'shape': (2,)\n", 8), LAB_EFORMAT, "('}' missing)" },
    { "unclosed_paren", HDR(F4 "'shape': (2, 3\n", 24), LAB_EFORMAT, "(')' missing)" },
    { "paren_closed_by_brace", HDR(F4 "'shape': (2, 3}\n", 24), LAB_EFORMAT,
      "expected ',' or ')' after a dimension in 'shape', found '}'" },
    { "unterminated_string", HDR("{'descr': '<f4\n", 0), LAB_EFORMAT,
      "unterminated string (closing ' missing), found byte 0x0a" },
    { "nul_in_descr",
      RAW("\x93NUMPY\x01\x00\x3a\x00{'descr': '<f4\0"
          "x', 'fortran_order': False, "
          "'shape': (2,)}\n\0\0\0\0\0\0\0\0"),
      LAB_EFORMAT, "unterminated string (closing ' missing), found byte 0x00" },
    { "missing_colon", HDR("{'descr' '<f4'}\n", 0), LAB_EFORMAT, "expected ':' after key 'descr'" },
    { "control_byte", HDR("{'descr': '<f4',\x01 }\n", 0), LAB_EFORMAT, "found byte 0x01" },
    { "text_after_dict", HDR(F4 "'shape': (2,)} x\n", 8), LAB_EFORMAT,
      "unexpected text after the header dict" },
    { "negative_dim", HDR(F4 "'shape': (-3, 4)}\n", 0), LAB_EFORMAT, "negative dimension -3" },
    { "float_dim", HDR(F4 "'shape': (3.5,)}\n", 0), LAB_EFORMAT,
      "dimension 3.5 in 'shape' is not" },
    { "nine_dims", HDR(F4 "'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1)}\n", 4), LAB_EUNSUPPORTED,
      "more than 8 dimensions" },
    { "dim_too_big", HDR(F4 "'shape': (123456789012345678901234,)}\n", 0), LAB_EFORMAT,
      "does not fit in size_t" },
    { "count_overflow", HDR(F4 "'shape': (4294967296, 4294967296, 2)}\n", 0), LAB_EFORMAT,
      "size_t" },
    { "bytes_overflow",
      HDR("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,)}\n", 0),
      LAB_EFORMAT, "size_t" },
    { "truncated_data", HDR(F4 "'shape': (3, 4), }\n", 40), LAB_EFORMAT,
      "truncated data: header promises 48 bytes for shape (3, 4) float32, file has 40" },
    { "trailing_bytes", HDR(F4 "'shape': (3, 4), }\n", 56), LAB_EFORMAT,
      "file size disagrees with header: shape (3, 4) float32 needs 48 bytes of data, file has "
      "56 (8 extra bytes after the data)" },
    { "complex_dtype", HDR("{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}\n", 16),
      LAB_EUNSUPPORTED,
      "unsupported dtype '<c8' (supported: float32 <f4, float64 <f8, int32 <i4, int64 <i8, "
      "uint8 |u1)" },
    { "int8_dtype", HDR("{'descr': '|i1', 'fortran_order': False, 'shape': (2,)}\n", 2),
      LAB_EUNSUPPORTED, "unsupported dtype '|i1'" },
    { "big_endian", HDR("{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}\n", 8),
      LAB_EUNSUPPORTED, "big-endian data ('>f4') is not supported" },
    { "fortran_order", HDR("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3)}\n", 24),
      LAB_EUNSUPPORTED,
      "Fortran-order arrays are not supported; save with numpy.ascontiguousarray" },
    { "structured", HDR("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2,)}\n", 8),
      LAB_EUNSUPPORTED, "structured dtypes" },
};

static void check_failure(int rc, const lab_error *err, const lab_npy_array *a, const bad_case *c,
                          const char *name)
{
    if (rc != c->status)
        LAB_TEST_FAIL_AT("%s: status %s, want %s (%s)", c->name, lab_status_name(rc),
                         lab_status_name(c->status), err->msg);
    if (!strstr(err->msg, c->msg))
        LAB_TEST_FAIL_AT("%s: message \"%s\" lacks \"%s\"", c->name, err->msg, c->msg);
    if (strncmp(err->msg, name, strlen(name)) != 0)
        LAB_TEST_FAIL_AT("%s: message \"%s\" does not start with \"%s\"", c->name, err->msg, name);
    if (strchr(err->msg, '\n'))
        LAB_TEST_FAIL_AT("%s: message has more than one line", c->name);
    if (!is_zeroed(a))
        LAB_TEST_FAIL_AT("%s: out is not zeroed after the failure", c->name);
}

static void test_malformed_corpus(void)
{
    size_t ncases = sizeof(corpus) / sizeof(corpus[0]);
    CHECK(ncases >= 25);
    for (size_t i = 0; i < ncases; i++) {
        const bad_case *c = &corpus[i];
        size_t len = c->len;
        unsigned char *built = c->bytes ? NULL : make_v1(c->header, c->data_len, &len);
        const void *bytes = c->bytes ? (const void *)c->bytes : built;
        char name[128], path[1024];
        lab_npy_array a;
        lab_error err;
        snprintf(name, sizeof(name), "%s.npy", c->name);
        memset(&a, 0xab, sizeof(a)); /* must come back zeroed */
        lab_error_clear(&err);
        check_failure(lab_npy_parse(&a, bytes, len, name, &err), &err, &a, c, name);
        path_in(path, sizeof(path), tmp_dir, name);
        CHECK_EQ_INT(write_bytes(path, bytes, len), 0);
        memset(&a, 0xab, sizeof(a));
        lab_error_clear(&err);
        check_failure(lab_npy_read(&a, path, &err), &err, &a, c, path);
        free(built);
    }
}

static void test_read_io_errors(void)
{
    char path[1024];
    lab_npy_array a;
    lab_error err;
    path_in(path, sizeof(path), tmp_dir, "does_not_exist.npy");
    memset(&a, 0xab, sizeof(a));
    CHECK_EQ_INT(lab_npy_read(&a, path, &err), LAB_EIO);
    CHECK_CONTAINS(err.msg, path);
    CHECK_CONTAINS(err.msg, "No such file or directory");
    CHECK(is_zeroed(&a));
    memset(&a, 0xab, sizeof(a));
    CHECK_EQ_INT(lab_npy_read(&a, tmp_dir, &err), LAB_EIO);
    CHECK_CONTAINS(err.msg, "is a directory");
    CHECK(is_zeroed(&a));
    CHECK_EQ_INT(lab_npy_read(NULL, path, &err), LAB_EINVAL);
    CHECK_EQ_INT(lab_npy_read(&a, NULL, &err), LAB_EINVAL);
    CHECK_EQ_INT(lab_npy_parse(NULL, "", 0, "x", &err), LAB_EINVAL);
    CHECK_EQ_INT(lab_npy_parse(&a, NULL, 10, "x", &err), LAB_EINVAL);
    CHECK_EQ_INT(lab_npy_parse(&a, NULL, 0, NULL, &err), LAB_EFORMAT);
    CHECK_CONTAINS(err.msg, "(memory): empty file");
    CHECK_EQ_INT(lab_npy_read(&a, path, NULL), LAB_EIO); /* NULL error record is allowed */
}

static void test_free_accepts_null_and_freed(void)
{
    lab_npy_array a;
    lab_npy_free(NULL);
    memset(&a, 0, sizeof(a));
    lab_npy_free(&a);
    lab_npy_free(&a);
    CHECK(is_zeroed(&a));
}

/* ------------------------------------------------------------------------ */
/* NumPy interop (driven by npy_numpy_check.py) */

static const struct interop_file {
    const char *file;
    lab_dtype dtype;
    int ndim;
    size_t shape[LAB_NPY_MAX_DIMS];
} interop_files[] = {
    { "f32.npy", LAB_DTYPE_F32, 2, { 3, 4 } },
    { "f64.npy", LAB_DTYPE_F64, 3, { 2, 3, 2 } },
    { "i32.npy", LAB_DTYPE_I32, 1, { 5 } },
    { "i64.npy", LAB_DTYPE_I64, 2, { 2, 2 } },
    { "u8.npy", LAB_DTYPE_U8, 2, { 4, 4 } },
    { "scalar.npy", LAB_DTYPE_F64, 0, { 0 } },
    { "empty.npy", LAB_DTYPE_F32, 2, { 0, 3 } },
    { "dims8.npy", LAB_DTYPE_I32, 8, { 1, 2, 1, 2, 1, 2, 1, 2 } },
    { "v2.npy", LAB_DTYPE_F32, 2, { 3, 4 } }, /* read only: numpy saves it as 2.0 */
    { "v3.npy", LAB_DTYPE_F32, 2, { 3, 4 } }, /* read only: numpy saves it as 3.0 */
};

static const char *interop_dir;

static void test_write_for_numpy(void)
{
    for (size_t i = 0; i < sizeof(interop_files) / sizeof(interop_files[0]) - 2; i++) {
        const struct interop_file *f = &interop_files[i];
        char path[1024];
        lab_error err;
        size_t count = shape_count(f->ndim, f->shape);
        void *data = malloc(count * lab_dtype_size(f->dtype) + 1);
        fill(f->dtype, data, count);
        path_in(path, sizeof(path), interop_dir, f->file);
        if (lab_npy_write(path, f->dtype, f->ndim, f->shape, data, &err) != LAB_OK)
            LAB_TEST_FAIL_AT("%s", err.msg);
        free(data);
    }
}

static void expect_rejected(const char *file, const char *msg)
{
    char path[1024];
    lab_npy_array a;
    lab_error err;
    path_in(path, sizeof(path), interop_dir, file);
    CHECK_EQ_INT(lab_npy_read(&a, path, &err), LAB_EUNSUPPORTED);
    CHECK_CONTAINS(err.msg, msg);
    printf("  %s\n", err.msg);
}

static void test_read_from_numpy(void)
{
    for (size_t i = 0; i < sizeof(interop_files) / sizeof(interop_files[0]); i++) {
        const struct interop_file *f = &interop_files[i];
        char path[1024];
        lab_npy_array a;
        lab_error err;
        path_in(path, sizeof(path), interop_dir, f->file);
        if (lab_npy_read(&a, path, &err) != LAB_OK)
            LAB_TEST_FAIL_AT("%s", err.msg);
        else
            check_array(&a, f->dtype, f->ndim, f->shape, f->file);
        lab_npy_free(&a);
    }
    expect_rejected("fortran.npy", "Fortran-order arrays are not supported");
    expect_rejected("big_endian.npy", "big-endian data ('>f4') is not supported");
    expect_rejected("complex.npy", "unsupported dtype '<c8'");
}

/* ------------------------------------------------------------------------ */

static int make_tmp_dir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof(tmp_dir), "%s/test-npy-XXXXXX", base && *base ? base : "/tmp");
    if (mkdtemp(tmp_dir))
        return 0;
    printf("cannot create a temporary directory %s\n", tmp_dir);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--skip") == 0) {
        printf("SKIPPED: %s\n", argv[2]);
        return LAB_TEST_SKIP;
    }
    if (argc == 3 && strcmp(argv[1], "--write-for-numpy") == 0) {
        interop_dir = argv[2];
        LAB_TEST_RUN(test_write_for_numpy);
        LAB_TEST_MAIN_END();
    }
    if (argc == 3 && strcmp(argv[1], "--read-from-numpy") == 0) {
        interop_dir = argv[2];
        LAB_TEST_RUN(test_read_from_numpy);
        LAB_TEST_MAIN_END();
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--write-for-numpy DIR | --read-from-numpy DIR]\n", argv[0]);
        return 2;
    }
    if (make_tmp_dir() != 0)
        return 1;
    LAB_TEST_RUN(test_dtype_names_and_sizes);
    LAB_TEST_RUN(test_roundtrip_each_dtype);
    LAB_TEST_RUN(test_roundtrip_each_ndim);
    LAB_TEST_RUN(test_written_header_is_numpys);
    LAB_TEST_RUN(test_write_replaces_atomically);
    LAB_TEST_RUN(test_write_rejects_bad_arguments);
    LAB_TEST_RUN(test_write_failure_leaves_no_file);
    LAB_TEST_RUN(test_read_v2_and_v3);
    LAB_TEST_RUN(test_parse_accepts_legal_variants);
    LAB_TEST_RUN(test_malformed_corpus);
    LAB_TEST_RUN(test_read_io_errors);
    LAB_TEST_RUN(test_free_accepts_null_and_freed);
    remove_tree_files(tmp_dir);
    LAB_TEST_MAIN_END();
}
