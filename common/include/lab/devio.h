/**
 * @file devio.h
 * @brief Moving a harness's arrays to the device and back, and catching a
 *        kernel that wrote nothing.
 *
 * The copies every harness makes around a student's kernel, one call each:
 *
 * @code
 * lab_npy_array A, v;
 * float *d_A = lab_input_to_device(&A, args, "A", LAB_DTYPE_F32, 2); // read A.npy, upload
 * float *d_v = lab_input_to_device(&v, args, "v", LAB_DTYPE_F32, 1);
 * float *d_u = lab_device_output(sizeof(float) * N);                  // every byte 0xff
 * matvec(version, d_u, d_A, d_v, N, M);
 * lab_output_from_device(args, "u", LAB_DTYPE_F32, 1, u_shape, d_u,
 *                        "is matvec_kernel1 in matvec.cu still the TODO?");
 * lab_device_free(d_A);
 * @endcode
 *
 * An output buffer starts with every byte 0xff (LAB_UNWRITTEN_BYTE; as a
 * float that is a NaN), so an element no thread wrote shows, and an output
 * nobody wrote at all is reported as such instead of as a wrong answer.
 *
 * These are for lab programs: like LAB_CHECK they never return an error.
 * A failing CUDA call is reported as LAB_CHECK reports it, with the file and
 * line of the helper's caller, and the program exits with status 1. The
 * names are macros that pass that place to the `_at` functions below.
 */
#ifndef LAB_DEVIO_H
#define LAB_DEVIO_H

#include <stddef.h>

#include "lab/npy.h"
#include "lab/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The byte an output buffer is filled with before the kernel runs. */
#define LAB_UNWRITTEN_BYTE 0xff

/**
 * @brief Allocates device memory and copies @p bytes of host memory into it
 *        (cudaMalloc, then cudaMemcpy host to device).
 * @param host  The data; may be NULL only when @p bytes is 0.
 * @param bytes How many bytes; 0 gives a valid one-byte allocation.
 * @return The device pointer; release it with lab_device_free().
 */
#define lab_to_device(host, bytes) lab_to_device_at((host), (bytes), __FILE__, __LINE__)

/**
 * @brief Allocates device memory for an output with every byte set to
 *        LAB_UNWRITTEN_BYTE (cudaMalloc, then cudaMemset), so that what a
 *        kernel leaves unwritten can be told from what it wrote.
 * @param bytes How many bytes; 0 gives a valid one-byte allocation.
 * @return The device pointer; release it with lab_device_free().
 */
#define lab_device_output(bytes) lab_device_output_at((bytes), __FILE__, __LINE__)

/**
 * @brief Copies @p bytes of device memory to the host (cudaMemcpy device to
 *        host). This is where an error a kernel made usually surfaces: it is
 *        reported with the caller's file and line.
 * @param[out] host Destination, @p bytes long.
 * @param dev       Source on the device.
 * @param bytes     How many bytes; 0 copies nothing.
 */
#define lab_from_device(host, dev, bytes)                                                          \
    lab_from_device_at((host), (dev), (bytes), __FILE__, __LINE__)

/**
 * @brief Releases device memory (cudaFree).
 * @param dev From lab_to_device(), lab_device_output() or
 *            lab_input_to_device(); NULL is allowed.
 */
#define lab_device_free(dev) lab_device_free_at((dev), __FILE__, __LINE__)

/**
 * @brief Graded mode: reads input `<in_dir>/<name>.npy` as lab_input() does
 *        (a wrong dtype or number of dimensions exits LAB_EXIT_USAGE with a
 *        message naming the file) and copies its elements to the device.
 * @param[out] arr The array as read: its shape, and its data on the host;
 *                 free it with lab_npy_free().
 * @param args     From lab_args_parse(), in graded mode.
 * @param name     Input name, without `.npy`.
 * @param dtype    Required element type.
 * @param ndim     Required number of dimensions, or -1 for any.
 * @return The elements on the device; release them with lab_device_free().
 */
#define lab_input_to_device(arr, args, name, dtype, ndim)                                          \
    lab_input_to_device_at((arr), (args), (name), (dtype), (ndim), __FILE__, __LINE__)

/**
 * @brief Graded mode: copies an output from the device and writes it as
 *        `<out_dir>/<name>.npy` (lab_output()). When every byte still holds
 *        LAB_UNWRITTEN_BYTE, the file is written all the same, then
 *        `<program>: nothing was written to <name>.npy (...): <why>` goes to
 *        stderr and the program exits LAB_EXIT_FAIL.
 * @param args  From lab_args_parse(), in graded mode.
 * @param name  Output name, without `.npy`.
 * @param dtype Element type.
 * @param ndim  Number of dimensions (0 to 8).
 * @param shape Extent of each dimension.
 * @param dev   The elements on the device, from lab_device_output().
 * @param why   What to check when nothing was written, e.g. "is
 *              matmul_cublas in matmul.c still the TODO?"; may be NULL.
 */
#define lab_output_from_device(args, name, dtype, ndim, shape, dev, why)                           \
    lab_output_from_device_at((args), (name), (dtype), (ndim), (shape), (dev), (why), __FILE__,    \
                              __LINE__)

/**
 * @brief Whether a kernel left a buffer untouched: every one of its @p bytes
 *        still holds LAB_UNWRITTEN_BYTE.
 * @param host  A copy of the buffer on the host.
 * @param bytes Its size.
 * @return 1 when @p bytes > 0 and no byte differs from LAB_UNWRITTEN_BYTE;
 *         0 otherwise (an empty buffer counts as written).
 */
int lab_unwritten(const void *host, size_t bytes);

/* The functions behind the macros. Each takes the caller's place last
 * (@p file, @p line: where a failing CUDA call is reported); the other
 * parameters are the macro's. */

/**
 * @brief lab_to_device() with the caller's place given.
 * @param host  The data.
 * @param bytes How many bytes.
 * @param file  Caller's source file, for messages.
 * @param line  Caller's source line.
 * @return The device pointer.
 */
void *lab_to_device_at(const void *host, size_t bytes, const char *file, int line);

/**
 * @brief lab_device_output() with the caller's place given.
 * @param bytes How many bytes.
 * @param file  Caller's source file, for messages.
 * @param line  Caller's source line.
 * @return The device pointer.
 */
void *lab_device_output_at(size_t bytes, const char *file, int line);

/**
 * @brief lab_from_device() with the caller's place given.
 * @param[out] host Destination.
 * @param dev       Source on the device.
 * @param bytes     How many bytes.
 * @param file      Caller's source file, for messages.
 * @param line      Caller's source line.
 */
void lab_from_device_at(void *host, const void *dev, size_t bytes, const char *file, int line);

/**
 * @brief lab_device_free() with the caller's place given.
 * @param dev  Device memory, or NULL.
 * @param file Caller's source file, for messages.
 * @param line Caller's source line.
 */
void lab_device_free_at(void *dev, const char *file, int line);

/**
 * @brief lab_input_to_device() with the caller's place given.
 * @param[out] arr The array as read.
 * @param args     From lab_args_parse().
 * @param name     Input name, without `.npy`.
 * @param dtype    Required element type.
 * @param ndim     Required number of dimensions, or -1.
 * @param file     Caller's source file, for messages.
 * @param line     Caller's source line.
 * @return The elements on the device.
 */
void *lab_input_to_device_at(lab_npy_array *arr, const lab_args *args, const char *name,
                             lab_dtype dtype, int ndim, const char *file, int line);

/**
 * @brief lab_output_from_device() with the caller's place given.
 * @param args  From lab_args_parse().
 * @param name  Output name, without `.npy`.
 * @param dtype Element type.
 * @param ndim  Number of dimensions.
 * @param shape Extent of each dimension.
 * @param dev   The elements on the device.
 * @param why   What to check when nothing was written; may be NULL.
 * @param file  Caller's source file, for messages.
 * @param line  Caller's source line.
 */
void lab_output_from_device_at(const lab_args *args, const char *name, lab_dtype dtype, int ndim,
                               const size_t *shape, const void *dev, const char *why,
                               const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif /* LAB_DEVIO_H */
