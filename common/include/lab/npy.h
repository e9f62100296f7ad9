/**
 * @file npy.h
 * @brief Reading and writing NumPy `.npy` files: the lab programs' input and
 *        output format.
 *
 * A graded lab program reads its inputs from `.npy` files written by
 * `numpy.save` (or by the grader through lab_npy_write) and writes its outputs
 * the same way, so instructors and students can inspect every file with
 * `numpy.load`.
 *
 * Supported: format versions 1.0, 2.0 and 3.0; C-order arrays of up to
 * #LAB_NPY_MAX_DIMS dimensions of the five lab_dtype element types, stored
 * little-endian (descr `<f4`, `<f8`, `<i4`, `<i8`, `|u1`). Anything else
 * (Fortran order, big-endian data, complex or structured dtypes) is refused
 * with a message that says how to re-save the array.
 *
 * The reader trusts nothing in the file: every length and the shape are
 * checked against the real file size before memory is allocated, so a
 * malformed file gives an error, never a crash or an over-read.
 *
 * On error every function here leaves its output zeroed, holds no memory,
 * leaves no file behind, and writes a one-line message naming the file into
 * the lab_error record (see lab/error.h).
 */
#ifndef LAB_NPY_H
#define LAB_NPY_H

#include "lab/error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Element type of an array; all are stored little-endian. */
typedef enum lab_dtype {
    LAB_DTYPE_F32, /**< 32-bit IEEE float, NumPy `float32` (descr `<f4`). */
    LAB_DTYPE_F64, /**< 64-bit IEEE float, NumPy `float64` (descr `<f8`). */
    LAB_DTYPE_I32, /**< 32-bit signed integer, NumPy `int32` (descr `<i4`). */
    LAB_DTYPE_I64, /**< 64-bit signed integer, NumPy `int64` (descr `<i8`). */
    LAB_DTYPE_U8   /**< 8-bit unsigned integer, NumPy `uint8` (descr `|u1`). */
} lab_dtype;

/** @brief Most dimensions an array read or written by this module may have. */
#define LAB_NPY_MAX_DIMS 8

/** @brief An n-dimensional array as stored in a `.npy` file. */
typedef struct lab_npy_array {
    lab_dtype dtype;                /**< Element type. */
    int ndim;                       /**< Number of dimensions, 0 (a scalar) to 8. */
    size_t shape[LAB_NPY_MAX_DIMS]; /**< Extent of each dimension; entries past ndim are 0. */
    size_t count;                   /**< Number of elements: product of shape, 1 for ndim 0. */
    void *data; /**< count * lab_dtype_size(dtype) bytes from malloc, C order (last index
                     fastest), native little-endian; never NULL after a successful read,
                     even when count is 0. Release with lab_npy_free. */
} lab_npy_array;

/**
 * @brief Size of one element.
 * @param dtype An element type.
 * @return Bytes per element (4, 8, 4, 8, 1); 0 for a value that is not a lab_dtype.
 */
size_t lab_dtype_size(lab_dtype dtype);

/**
 * @brief NumPy's name of an element type.
 * @param dtype An element type.
 * @return A static string: "float32", "float64", "int32", "int64" or "uint8";
 *         "unknown" for a value that is not a lab_dtype.
 */
const char *lab_dtype_name(lab_dtype dtype);

/**
 * @brief Reads a whole `.npy` file into memory.
 * @param[out] out Filled on success; zeroed on error. Free with lab_npy_free.
 * @param path     File to read.
 * @param[out] err Receives a one-line message naming @p path on error; may be NULL.
 * @return LAB_OK; LAB_EIO when the file cannot be opened or read (missing, a
 *         directory, no permission); LAB_EFORMAT when it is not a well-formed
 *         `.npy` file (bad magic, malformed header, size that disagrees with
 *         the shape); LAB_EUNSUPPORTED for a well-formed file this module does
 *         not handle (dtype, byte order, Fortran order, more than 8 dimensions,
 *         format version); LAB_ENOMEM; LAB_EINVAL when @p out or @p path is NULL.
 */
LAB_MUST_CHECK int lab_npy_read(lab_npy_array *out, const char *path, lab_error *err);

/**
 * @brief Parses a `.npy` file already in memory; the same checks as lab_npy_read.
 * @param[out] out Filled on success with a copy of the data; zeroed on error.
 * @param buf      The file's bytes; may be NULL when @p len is 0.
 * @param len      Number of bytes in @p buf.
 * @param name     What to call the buffer in messages (a file name); NULL for "(memory)".
 * @param[out] err Receives a one-line message naming @p name on error; may be NULL.
 * @return LAB_OK, LAB_EFORMAT, LAB_EUNSUPPORTED or LAB_ENOMEM as for lab_npy_read;
 *         LAB_EINVAL when @p out is NULL, or @p buf is NULL with @p len > 0.
 */
LAB_MUST_CHECK int lab_npy_parse(lab_npy_array *out, const void *buf, size_t len, const char *name,
                                 lab_error *err);

/**
 * @brief Writes an array as a `.npy` file that `numpy.load` reads.
 *
 * The file gets format version 1.0 (2.0 only if the header outgrew 65535
 * bytes), NumPy's own header text, and a header padded so the data starts at a
 * multiple of 64 bytes. It is written to a temporary file in the same
 * directory and renamed over @p path, so readers never see a partial file and
 * a failed write leaves no file (an existing @p path is then untouched).
 * @param path     File to create or replace (the output).
 * @param dtype    Element type of @p data.
 * @param ndim     Number of dimensions, 0 to #LAB_NPY_MAX_DIMS.
 * @param shape    @p ndim extents; may be NULL when @p ndim is 0.
 * @param data     Elements in C order, native little-endian; may be NULL only
 *                 when the shape holds no element.
 * @param[out] err Receives a one-line message naming @p path on error; may be NULL.
 * @return LAB_OK; LAB_EINVAL for an argument out of range (NULL path, unknown
 *         dtype, ndim, NULL shape or data, a shape whose size overflows);
 *         LAB_EIO when the file cannot be created, written or renamed; LAB_ENOMEM.
 */
LAB_MUST_CHECK int lab_npy_write(const char *path, lab_dtype dtype, int ndim, const size_t *shape,
                                 const void *data, lab_error *err);

/**
 * @brief Frees an array's data and zeroes the struct.
 * @param arr Array to release; may be NULL, or already freed.
 */
void lab_npy_free(lab_npy_array *arr);

#ifdef __cplusplus
}
#endif

#endif /* LAB_NPY_H */
