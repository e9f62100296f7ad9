/**
 * @file error.h
 * @brief Status codes and the error record filled by fallible `lab_` functions.
 *
 * Every fallible function of the common library returns an `int` status:
 * `LAB_OK` (0) on success, one of the negative `lab_status` values on failure.
 * Its outputs come first in the parameter list and its `lab_error *err` last;
 * on failure the record gets a one-line message that names the thing at fault
 * ("data.npy: truncated header: ..."). A CUDA call that failed is LAB_ECUDA,
 * with the call's `cudaError_t` kept in lab_error::cuda_error. Passing NULL
 * for the error record is allowed; the message is then dropped.
 */
#ifndef LAB_ERROR_H
#define LAB_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Marks a fallible function: a caller that ignores its status gets a
 *        warning (an error under -Werror, as in `make test`).
 */
#if defined(__GNUC__) || defined(__clang__)
#define LAB_MUST_CHECK __attribute__((warn_unused_result))
#else
#define LAB_MUST_CHECK
#endif

/** @brief Status codes returned by the library (0 ok, negative error). */
typedef enum lab_status {
    LAB_OK = 0,            /**< Success. */
    LAB_EIO = -1,          /**< The operating system refused a read, write or open. */
    LAB_EFORMAT = -2,      /**< Input exists but is malformed. */
    LAB_ENOMEM = -3,       /**< Out of memory. */
    LAB_EINVAL = -4,       /**< An argument is out of its documented range. */
    LAB_EUNSUPPORTED = -5, /**< Well-formed input that this library does not handle. */
    LAB_ECUDA = -6         /**< A CUDA runtime or cuBLAS call failed; the message names it, and
                                lab_error::cuda_error holds a runtime call's error. */
} lab_status;

/** @brief Capacity of lab_error::msg, terminating NUL included. */
#define LAB_ERROR_MSG_MAX 512

/** @brief An error's status and its human-readable one-line message. */
typedef struct lab_error {
    int code;                    /**< A lab_status value; LAB_OK when no error was recorded. */
    char msg[LAB_ERROR_MSG_MAX]; /**< NUL-terminated message, truncated to fit. */
    int cuda_error; /**< With LAB_ECUDA: the failed runtime call's cudaError_t (positive);
                         0 for a cuBLAS status and for every other code. */
} lab_error;

/**
 * @brief Records an error and returns its code, so callers can write
 *        `return lab_error_set(err, LAB_EFORMAT, "%s: bad magic", path);`.
 * @param[out] err   Record to fill; may be NULL (then only @p code is returned).
 * @param code       A negative lab_status value.
 * @param fmt        printf-style format of the message.
 * @return @p code.
 */
int lab_error_set(lab_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/**
 * @brief Records a failed CUDA call: LAB_ECUDA, the call's error, and a
 *        message; returns LAB_ECUDA.
 * @param[out] err   Record to fill; may be NULL (then only LAB_ECUDA is returned).
 * @param cuda_error The cudaError_t the call returned, as int.
 * @param fmt        printf-style format of the message (say which call and
 *                   the error's name: "cudaMalloc of 4096 bytes: cudaErrorMemoryAllocation").
 * @return LAB_ECUDA.
 */
int lab_error_set_cuda(lab_error *err, int cuda_error, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/**
 * @brief Resets an error record to "no error".
 * @param[out] err Record to clear; may be NULL.
 */
void lab_error_clear(lab_error *err);

/**
 * @brief Short name of a status code ("LAB_EFORMAT").
 * @param code A lab_status value.
 * @return A static string; "LAB_E?" for an unknown code.
 */
const char *lab_status_name(int code);

#ifdef __cplusplus
}
#endif

#endif /* LAB_ERROR_H */
