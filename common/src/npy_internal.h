/*
 * What the .npy reader (npy_read.c) and the rest of the module (npy.c: element
 * types, shapes, writing) share. Not a public header.
 */
#ifndef LAB_NPY_INTERNAL_H
#define LAB_NPY_INTERNAL_H

#include <stddef.h>

#include "lab/error.h"
#include "lab/npy.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_PREAMBLE_MAX 12 /* magic, 2 version bytes, 4-byte header length */
#define NPY_ALIGN 64        /* numpy.save starts the data at a multiple of this */
#define SHAPE_STR_MAX 192   /* "(" 8 x 20 digits, 7 x ", " ")" and NUL fit */
#define HEADER_MAX 512      /* preamble + dict + padding written by lab_npy_write */
#define DESCR_MAX 32

/* Whether dtype is one of the lab_dtype values. */
int npy_dtype_valid(lab_dtype dtype);

/* Maps a descr to a dtype, accepting the byte-order marks in orders for the
 * multi-byte types ("<=": little-endian or native, which is little-endian
 * here) and any mark for uint8. Returns 0 or -1. */
int npy_dtype_lookup(const char *descr, const char *orders, lab_dtype *dtype);

/* Records why descr (of file name) is not supported; returns LAB_EUNSUPPORTED. */
int npy_dtype_error(const char *descr, const char *name, lab_error *err);

/* Element and byte counts of a shape; returns -1 when either overflows size_t. */
int npy_shape_sizes(int ndim, const size_t *shape, size_t itemsize, size_t *count, size_t *nbytes);

/* A shape as Python prints a tuple: "()", "(5,)", "(3, 4)". */
void npy_format_shape(char *buf, size_t cap, int ndim, const size_t *shape);

#endif /* LAB_NPY_INTERNAL_H */
