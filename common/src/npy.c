/*
 * Reading and writing NumPy .npy files: see lab/npy.h. The format (NumPy's
 * numpy/lib/format.py): "\x93NUMPY", major and minor version bytes, the header
 * length (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), the header, the
 * data. The header is an ASCII (3.0: UTF-8) Python dict literal, space-padded
 * and ending in '\n': {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 *
 * This file: element types, shapes, and writing; reading, which trusts
 * nothing, is in npy_read.c.
 */
#define _POSIX_C_SOURCE 200809L /* open, getpid */

#include "lab/npy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy_internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "lab/npy.c supports little-endian hosts only: it stores .npy data as native little-endian"
#endif

/* ---- Element types -------------------------------------------------------------------------- */

static const struct dtype_info {
    const char *name;  /* NumPy's name */
    const char *descr; /* as numpy.save writes it */
    size_t size;
} dtype_table[] = {
    [LAB_DTYPE_F32] = { "float32", "<f4", 4 }, [LAB_DTYPE_F64] = { "float64", "<f8", 8 },
    [LAB_DTYPE_I32] = { "int32", "<i4", 4 },   [LAB_DTYPE_I64] = { "int64", "<i8", 8 },
    [LAB_DTYPE_U8] = { "uint8", "|u1", 1 },
};

#define DTYPE_COUNT (sizeof(dtype_table) / sizeof(dtype_table[0]))

int npy_dtype_valid(lab_dtype dtype)
{
    return (unsigned)dtype < DTYPE_COUNT;
}

size_t lab_dtype_size(lab_dtype dtype)
{
    return npy_dtype_valid(dtype) ? dtype_table[dtype].size : 0;
}

const char *lab_dtype_name(lab_dtype dtype)
{
    return npy_dtype_valid(dtype) ? dtype_table[dtype].name : "unknown";
}

/* Maps a descr to a dtype, accepting the byte-order marks in orders for the
 * multi-byte types ("<=": little-endian or native, which is little-endian
 * here) and any mark for uint8. Returns 0 or -1. */
int npy_dtype_lookup(const char *descr, const char *orders, lab_dtype *dtype)
{
    char order = descr[0];
    if (order == '\0')
        return -1;
    if (strchr("|<=>", order) && strcmp(descr + 1, "u1") == 0) {
        *dtype = LAB_DTYPE_U8;
        return 0;
    }
    for (size_t i = 0; i < DTYPE_COUNT; i++) {
        const char *want = dtype_table[i].descr;
        if (want[0] == '<' && strchr(orders, order) && strcmp(descr + 1, want + 1) == 0) {
            *dtype = (lab_dtype)i;
            return 0;
        }
    }
    return -1;
}

int npy_dtype_error(const char *descr, const char *name, lab_error *err)
{
    lab_dtype swapped;
    if (npy_dtype_lookup(descr, ">", &swapped) == 0)
        return lab_error_set(err, LAB_EUNSUPPORTED,
                             "%s: big-endian data ('%s') is not supported; save it with "
                             "a.astype('<%s') (little-endian) first",
                             name, descr, descr + 1);
    return lab_error_set(err, LAB_EUNSUPPORTED,
                         "%s: unsupported dtype '%s' (supported: float32 <f4, float64 <f8, "
                         "int32 <i4, int64 <i8, uint8 |u1); convert with a.astype(numpy.float32) "
                         "or similar before saving",
                         name, descr);
}

/* ---- Shapes --------------------------------------------------------------------------------- */

/* Element and byte counts of a shape; returns -1 when either overflows size_t. */
int npy_shape_sizes(int ndim, const size_t *shape, size_t itemsize, size_t *count, size_t *nbytes)
{
    size_t n = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            *count = *nbytes = 0;
            return 0;
        }
    }
    for (int i = 0; i < ndim; i++) {
        if (n > SIZE_MAX / shape[i])
            return -1;
        n *= shape[i];
    }
    if (n > SIZE_MAX / itemsize)
        return -1;
    *count = n;
    *nbytes = n * itemsize;
    return 0;
}

/* A shape as Python prints a tuple: "()", "(5,)", "(3, 4)". */
void npy_format_shape(char *buf, size_t cap, int ndim, const size_t *shape)
{
    size_t len = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < ndim && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%zu", i ? ", " : "", shape[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, "%s", ndim == 1 ? ",)" : ")");
}

void lab_npy_free(lab_npy_array *arr)
{
    if (!arr)
        return;
    free(arr->data);
    memset(arr, 0, sizeof(*arr));
}

/* ---- Writing -------------------------------------------------------------------------------- */

static int check_write_args(size_t *nbytes, const char *path, lab_dtype dtype, int ndim,
                            const size_t *shape, const void *data, lab_error *err)
{
    char shp[SHAPE_STR_MAX];
    size_t count;
    if (!path)
        return lab_error_set(err, LAB_EINVAL, "lab_npy_write: path is NULL");
    if (!npy_dtype_valid(dtype))
        return lab_error_set(err, LAB_EINVAL, "%s: cannot write: %d is not a lab_dtype", path,
                             (int)dtype);
    if (ndim < 0 || ndim > LAB_NPY_MAX_DIMS)
        return lab_error_set(err, LAB_EINVAL, "%s: cannot write: ndim %d is outside 0..%d", path,
                             ndim, LAB_NPY_MAX_DIMS);
    if (ndim > 0 && !shape)
        return lab_error_set(err, LAB_EINVAL, "%s: cannot write: shape is NULL with ndim %d", path,
                             ndim);
    npy_format_shape(shp, sizeof(shp), ndim, shape);
    if (npy_shape_sizes(ndim, shape, dtype_table[dtype].size, &count, nbytes) != 0)
        return lab_error_set(err, LAB_EINVAL, "%s: cannot write: shape %s overflows size_t", path,
                             shp);
    if (count > 0 && !data)
        return lab_error_set(err, LAB_EINVAL,
                             "%s: cannot write: data is NULL but shape %s holds %zu elements", path,
                             shp, count);
    return LAB_OK;
}

/* Preamble and header as numpy.save writes them; returns their length. */
static size_t build_header(char *buf, lab_dtype dtype, int ndim, const size_t *shape)
{
    char shp[SHAPE_STR_MAX], dict[HEADER_MAX - NPY_PREAMBLE_MAX - NPY_ALIGN];
    npy_format_shape(shp, sizeof(shp), ndim, shape);
    size_t n = (size_t)snprintf(dict, sizeof(dict),
                                "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                                dtype_table[dtype].descr, shp);
    /* Version 1.0 has a 2-byte header length; 2.0 (needed past 65535 bytes) a 4-byte one. */
    size_t pre = n + 1 + NPY_ALIGN > 0xffff ? 12 : 10;
    size_t pad = NPY_ALIGN - (pre + n + 1) % NPY_ALIGN, hlen = n + pad + 1;
    memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
    buf[6] = pre == 10 ? 1 : 2;
    buf[7] = 0;
    for (size_t i = 0; i < pre - 8; i++)
        buf[8 + i] = (char)(hlen >> (8 * i) & 0xff);
    memcpy(buf + pre, dict, n);
    memset(buf + pre + n, ' ', pad);
    buf[pre + hlen - 1] = '\n';
    return pre + hlen;
}

static int write_all(int fd, const void *buf, size_t n, const char *path, lab_error *err)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put < 0)
            return lab_error_set(err, LAB_EIO, "%s: cannot write: %s", path, strerror(errno));
        p += put;
        n -= (size_t)put;
    }
    return LAB_OK;
}

/* Creates "<path>.tmp.<pid>.<n>" exclusively; returns its descriptor or -1. */
static int create_temp(char *tmp, size_t cap, const char *path)
{
    static atomic_uint counter;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(tmp, cap, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

static int write_atomically(const char *path, const char *head, size_t head_len, const void *data,
                            size_t nbytes, lab_error *err)
{
    size_t cap = strlen(path) + 48;
    char *tmp = malloc(cap);
    int rc = LAB_OK;
    if (!tmp)
        return lab_error_set(err, LAB_ENOMEM, "%s: out of memory", path);
    int fd = create_temp(tmp, cap, path);
    if (fd < 0) {
        rc = lab_error_set(err, LAB_EIO,
                           "%s: cannot create: %s (is the directory there and writable?)", path,
                           strerror(errno));
        goto free_tmp_name;
    }
    rc = write_all(fd, head, head_len, path, err);
    if (!rc)
        rc = write_all(fd, data, nbytes, path, err);
    if (close(fd) != 0 && !rc)
        rc = lab_error_set(err, LAB_EIO, "%s: cannot write: %s", path, strerror(errno));
    if (!rc && rename(tmp, path) != 0)
        rc = lab_error_set(err, LAB_EIO, "%s: cannot replace it with the finished file: %s", path,
                           strerror(errno));
    if (rc)
        unlink(tmp);
free_tmp_name:
    free(tmp);
    return rc;
}

int lab_npy_write(const char *path, lab_dtype dtype, int ndim, const size_t *shape,
                  const void *data, lab_error *err)
{
    char head[HEADER_MAX];
    size_t nbytes = 0;
    int rc = check_write_args(&nbytes, path, dtype, ndim, shape, data, err);
    if (rc)
        return rc;
    size_t head_len = build_header(head, dtype, ndim, shape);
    return write_atomically(path, head, head_len, data, nbytes, err);
}
