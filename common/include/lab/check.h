/**
 * @file check.h
 * @brief Error-checking macros for CUDA runtime calls, kernel launches and cuBLAS.
 *
 * Wrap every CUDA call whose failure the program cannot handle:
 *
 * @code
 * LAB_CHECK(cudaMalloc(&d_x, bytes));
 * vec_add_kernel<<<blocks, threads>>>(d_a, d_b, d_c, n);
 * LAB_CHECK_LAUNCH();
 * LAB_CHECK_CUBLAS(cublasSgemv(handle, CUBLAS_OP_T, m, n, &one, d_A, m, d_x, 1, &zero, d_y, 1));
 * @endcode
 *
 * On failure each prints one line to stderr,
 * `file:line: <the call as text> failed: <error name> (<code>): <description>`,
 * then, for the errors students meet most, a line starting `hint:` that says
 * what to check, and exits the program with status 1. The argument is evaluated
 * exactly once.
 */
#ifndef LAB_CHECK_H
#define LAB_CHECK_H

#include <cuda_runtime.h>

#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Marks a function that never returns (it exits the program). */
#if defined(__GNUC__)
#define LAB_NORETURN __attribute__((noreturn))
#else
#define LAB_NORETURN
#endif

/**
 * @brief Checks a CUDA runtime call; on any result but cudaSuccess reports it
 *        and exits with status 1.
 * @param call An expression of type cudaError_t, evaluated once.
 */
#define LAB_CHECK(call)                                                                            \
    do {                                                                                           \
        cudaError_t lab_check_err_ = (call);                                                       \
        if (lab_check_err_ != cudaSuccess)                                                         \
            lab_check_cuda_failed(lab_check_err_, #call, __FILE__, __LINE__);                      \
    } while (0)

/**
 * @brief Checks the most recent kernel launch (`cudaGetLastError`), and clears
 *        the launch error. Catches bad launch configurations at once; errors a
 *        running kernel makes show up at the next synchronizing call.
 */
#define LAB_CHECK_LAUNCH()                                                                         \
    do {                                                                                           \
        cudaError_t lab_check_err_ = cudaGetLastError();                                           \
        if (lab_check_err_ != cudaSuccess)                                                         \
            lab_check_cuda_failed(lab_check_err_, "kernel launch", __FILE__, __LINE__);            \
    } while (0)

/**
 * @brief Checks a cuBLAS call; on any status but CUBLAS_STATUS_SUCCESS (0)
 *        reports it and exits with status 1.
 * @param call An expression of type cublasStatus_t, evaluated once.
 */
#define LAB_CHECK_CUBLAS(call)                                                                     \
    do {                                                                                           \
        int lab_check_status_ = (int)(call);                                                       \
        if (lab_check_status_ != 0)                                                                \
            lab_check_cublas_failed(lab_check_status_, #call, __FILE__, __LINE__);                 \
    } while (0)

/**
 * @brief Checks a call of the kit's library: an int status (LAB_OK or a lab_status) with
 *        its lab_error record; on any status but LAB_OK reports the record's message (and
 *        for a failed CUDA call its hint) and exits with status 1.
 * @param call An expression of type int, evaluated once.
 * @param err  The lab_error * the call was given.
 */
#define LAB_CHECK_STATUS(call, err)                                                                \
    do {                                                                                           \
        int lab_check_rc_ = (call);                                                                \
        if (lab_check_rc_ != 0)                                                                    \
            lab_check_status_failed(lab_check_rc_, (err), #call, __FILE__, __LINE__);              \
    } while (0)

/**
 * @brief Reports a failed call of the kit's library and exits with status 1. Called by
 *        LAB_CHECK_STATUS.
 * @param status The lab_status the call returned.
 * @param err    Its error record (may be NULL).
 * @param call   The call as source text.
 * @param file   Source file of the call.
 * @param line   Source line of the call.
 */
LAB_NORETURN void lab_check_status_failed(int status, const lab_error *err, const char *call,
                                          const char *file, int line);

/**
 * @brief Reports a failed CUDA runtime call and exits with status 1.
 *        Called by LAB_CHECK and LAB_CHECK_LAUNCH.
 * @param err  The error the call returned.
 * @param call The call as source text.
 * @param file Source file of the call.
 * @param line Source line of the call.
 */
LAB_NORETURN void lab_check_cuda_failed(cudaError_t err, const char *call, const char *file,
                                        int line);

/**
 * @brief Reports a failed cuBLAS call and exits with status 1. Called by LAB_CHECK_CUBLAS.
 * @param status The cublasStatus_t the call returned, as int.
 * @param call   The call as source text.
 * @param file   Source file of the call.
 * @param line   Source line of the call.
 */
LAB_NORETURN void lab_check_cublas_failed(int status, const char *call, const char *file, int line);

/**
 * @brief Name of a cuBLAS status ("CUBLAS_STATUS_INVALID_VALUE").
 * @param status A cublasStatus_t value, as int.
 * @return A static string; "CUBLAS_STATUS_UNKNOWN" for a value cuBLAS does not define.
 */
const char *lab_cublas_status_name(int status);

/**
 * @brief What a cuBLAS status means, in a sentence.
 * @param status A cublasStatus_t value, as int.
 * @return A static string.
 */
const char *lab_cublas_status_string(int status);

/**
 * @brief A hint for a student about a CUDA error: what usually causes it and what to check.
 * @param err A CUDA runtime error.
 * @return A static string, or NULL when there is no specific advice.
 */
const char *lab_cuda_error_hint(cudaError_t err);

#ifdef __cplusplus
}
#endif

#endif /* LAB_CHECK_H */
