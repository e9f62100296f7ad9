/**
 * @file error.h
 * @brief Status codes and the error record filled by fallible `lab_` functions.
 *
 * Every fallible function of the common library returns an `int` status:
 * `LAB_OK` (0) on success, one of the negative `lab_status` values on failure.
 * Functions that can fail for a reason a person must read (a malformed file, a
 * bad argument) also take a `lab_error *` and write a one-line message into it
 * that names the thing at fault ("data.npy: truncated header: ...").
 * Passing NULL for the error record is allowed; the message is then dropped.
 */
#ifndef LAB_ERROR_H
#define LAB_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Status codes returned by the library (0 ok, negative error). */
typedef enum lab_status {
    LAB_OK = 0,           /**< Success. */
    LAB_EIO = -1,         /**< The operating system refused a read, write or open. */
    LAB_EFORMAT = -2,     /**< Input exists but is malformed. */
    LAB_ENOMEM = -3,      /**< Out of memory. */
    LAB_EINVAL = -4,      /**< An argument is out of its documented range. */
    LAB_EUNSUPPORTED = -5 /**< Well-formed input that this library does not handle. */
} lab_status;

/** @brief Capacity of lab_error::msg, terminating NUL included. */
#define LAB_ERROR_MSG_MAX 512

/** @brief An error's status and its human-readable one-line message. */
typedef struct lab_error {
    int code;                    /**< A lab_status value; LAB_OK when no error was recorded. */
    char msg[LAB_ERROR_MSG_MAX]; /**< NUL-terminated message, truncated to fit. */
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
