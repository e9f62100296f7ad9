/**
 * @file tensor.h
 * @brief A device-tagged tensor: float data, a shape, and the device it lives
 *        on ("cpu" or "cuda:i"), with operations that refuse operands on
 *        different devices, as PyTorch's do.
 *
 * Data never moves by itself. lab_tensor_to() is the only way from one
 * device to another, and it is a no-op when the tensor is already there: it
 * returns the same object, with no copy and no new memory (PyTorch's
 * `Z.cuda(1) is Z`). lab_tensor_add() and lab_tensor_matmul() fail when their
 * operands are on different devices, with the message PyTorch users know:
 *
 * @code
 * lab_tensor *x, *y, *z, *sum;
 * lab_error err;
 * size_t shape[1] = { 3 };
 * float h[3] = { 1, 2, 3 };
 * lab_tensor_create(&x, "cpu", 1, shape, h, &err);
 * lab_tensor_create(&y, "cuda:0", 1, shape, h, &err);
 * if (lab_tensor_add(&sum, x, y, &err) != LAB_OK)
 *     puts(err.msg); // expected all tensors to be on the same device, but found
 *                    // at least two devices, cuda:0 and cpu
 * lab_tensor_to(&z, x, "cuda:0", &err);  // the copy, asked for
 * lab_tensor_add(&sum, z, y, &err);      // on cuda:0
 * @endcode
 *
 * Tensors are reference counted: every tensor a function hands out (create,
 * to, add, matmul) is released with lab_tensor_destroy(), also when
 * lab_tensor_to() handed back its own argument. Elements are stored in C
 * (row-major) order. CUDA work runs on the tensor's device; the calling
 * thread's current device (cudaGetDevice) is restored before returning.
 * On error the output is set to NULL and @p err says what went wrong.
 */
#ifndef LAB_TENSOR_H
#define LAB_TENSOR_H

#include <stddef.h>

#include "lab/device.h"
#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Most dimensions a tensor may have. */
#define LAB_TENSOR_MAX_DIMS 4

/** @brief A float tensor on one device (opaque). */
typedef struct lab_tensor lab_tensor;

/**
 * @brief Parses a device name: "cpu", "cuda" (device 0) or "cuda:N" for a
 *        device N that exists on this machine.
 * @param[out] out The device; untouched on error.
 * @param text     The name, e.g. "cuda:1".
 * @param[out] err On error, a message naming @p text and listing the valid
 *                 devices of this machine ("valid devices here: cpu, cuda:0").
 * @return LAB_OK, or LAB_EINVAL for a malformed name ("cuda0", "random") or a
 *         device that does not exist ("cuda:7" on a one-GPU machine).
 */
LAB_MUST_CHECK int lab_tensor_device_parse(lab_device *out, const char *text, lab_error *err);

/**
 * @brief Creates a tensor on a device.
 * @param[out] out New tensor; NULL on error.
 * @param device   Device name, as lab_tensor_device_parse() reads it.
 * @param ndim     Number of dimensions, 0 (a scalar) to LAB_TENSOR_MAX_DIMS.
 * @param shape    Extent of each dimension (may be NULL when @p ndim is 0).
 * @param data     Host array of all elements, C order, copied in; NULL for zeros.
 * @param[out] err Why it failed (may be NULL).
 * @return LAB_OK; LAB_EINVAL for a bad device or shape; LAB_ENOMEM; or
 *         LAB_ECUDA when device memory cannot be had.
 */
LAB_MUST_CHECK int lab_tensor_create(lab_tensor **out, const char *device, int ndim,
                                     const size_t *shape, const float *data, lab_error *err);

/**
 * @brief Releases one reference; frees the memory with the last one.
 * @param t Tensor; NULL is allowed.
 */
void lab_tensor_destroy(lab_tensor *t);

/**
 * @brief The tensor on another device: a copy there, or @p t itself (one more
 *        reference, no copy, no new memory) when it is already there.
 *        Copies between two CUDA devices go device to device (cudaMemcpyPeer).
 * @param[out] out The tensor on @p device; release it with lab_tensor_destroy().
 * @param t        The tensor.
 * @param device   Device name, as lab_tensor_device_parse() reads it.
 * @param[out] err Why it failed (may be NULL).
 * @return LAB_OK, LAB_EINVAL, LAB_ENOMEM or LAB_ECUDA.
 */
LAB_MUST_CHECK int lab_tensor_to(lab_tensor **out, lab_tensor *t, const char *device,
                                 lab_error *err);

/**
 * @brief Copies all elements to a host array, from whatever device holds them.
 * @param[out] dst Host array of lab_tensor_numel() floats.
 * @param t        The tensor.
 * @param[out] err Why it failed (may be NULL).
 * @return LAB_OK, LAB_EINVAL or LAB_ECUDA.
 */
LAB_MUST_CHECK int lab_tensor_copy_to_host(float *dst, const lab_tensor *t, lab_error *err);

/**
 * @brief Element-wise sum of two tensors of the same shape on the same device;
 *        the result is on that device.
 * @param[out] out The sum; NULL on error.
 * @param a        First operand.
 * @param b        Second operand.
 * @param[out] err On operands on two devices: "expected all tensors to be on
 *                 the same device, but found at least two devices, cuda:0 and
 *                 cpu" (the CUDA device named first, as PyTorch does).
 * @return LAB_OK; LAB_EINVAL for different devices or shapes; LAB_ENOMEM or
 *         LAB_ECUDA.
 */
LAB_MUST_CHECK int lab_tensor_add(lab_tensor **out, const lab_tensor *a, const lab_tensor *b,
                                  lab_error *err);

/**
 * @brief Matrix product of an (m, k) and a (k, n) tensor on the same device:
 *        an (m, n) tensor there (cuBLAS Sgemm on a CUDA device).
 * @param[out] out The product; NULL on error.
 * @param a        Left operand, 2-D.
 * @param b        Right operand, 2-D.
 * @param[out] err Why it failed; the message for two devices is lab_tensor_add()'s.
 * @return LAB_OK; LAB_EINVAL for different devices or shapes that do not
 *         multiply; LAB_ENOMEM or LAB_ECUDA.
 */
LAB_MUST_CHECK int lab_tensor_matmul(lab_tensor **out, const lab_tensor *a, const lab_tensor *b,
                                     lab_error *err);

/**
 * @brief The device a tensor lives on.
 * @param t The tensor.
 * @return Its device.
 */
lab_device lab_tensor_device(const lab_tensor *t);

/**
 * @brief The elements: host memory for a CPU tensor, device memory (usable in
 *        kernels and cudaMemcpy, not by host code) for a CUDA tensor.
 * @param t The tensor.
 * @return Pointer to lab_tensor_numel() floats, C order (NULL for an empty tensor).
 */
float *lab_tensor_data(const lab_tensor *t);

/**
 * @brief Number of dimensions.
 * @param t The tensor.
 * @return 0 to LAB_TENSOR_MAX_DIMS.
 */
int lab_tensor_ndim(const lab_tensor *t);

/**
 * @brief Extent of one dimension.
 * @param t   The tensor.
 * @param dim Dimension, 0 to lab_tensor_ndim() - 1.
 * @return The extent; 0 for a dimension the tensor does not have.
 */
size_t lab_tensor_dim(const lab_tensor *t, int dim);

/**
 * @brief Number of elements (the product of the extents; 1 for a scalar).
 * @param t The tensor.
 * @return The count.
 */
size_t lab_tensor_numel(const lab_tensor *t);

#ifdef __cplusplus
}
#endif

#endif /* LAB_TENSOR_H */
