/**
 * @file protocol.h
 * @brief The lab program protocol: demo and graded modes, `.npy` inputs and
 *        outputs, `result.json`, and the exit statuses the grader reads.
 *
 * Every lab harness starts with lab_args_parse():
 *
 * - no arguments: **demo** mode — the program makes its own inputs, checks
 *   its results against the CPU reference, prints what the handout promises
 *   and ends with one `PASS` or `FAIL` line;
 * - `--in DIR --out DIR`: **graded** mode — inputs come from `DIR/<name>.npy`
 *   (lab_input()), outputs go to `OUT/<name>.npy` (lab_output()) with a
 *   `result.json` of facts (lab_result); the program never computes or reads
 *   the expected outputs;
 * - `--help`: usage, exit 0.
 *
 * Exit statuses: LAB_EXIT_PASS (0), LAB_EXIT_FAIL (1), LAB_EXIT_USAGE (2: bad
 * usage or unreadable input, with a message naming the flag or file),
 * LAB_EXIT_SKIP (77: no usable device for this backend).
 */
#ifndef LAB_PROTOCOL_H
#define LAB_PROTOCOL_H

#include <stddef.h>

#include "lab/error.h"
#include "lab/npy.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Exit statuses of lab programs. */
enum lab_exit {
    LAB_EXIT_PASS = 0,  /**< Demo: the results match the reference. Graded: outputs written. */
    LAB_EXIT_FAIL = 1,  /**< Demo: the results do not match. */
    LAB_EXIT_USAGE = 2, /**< Bad command line or unreadable input; a message says which. */
    LAB_EXIT_SKIP = 77  /**< No usable device for this backend. */
};

/** @brief Capacity of the directory names in lab_args. */
#define LAB_ARGS_PATH_MAX 4096

/** @brief How the program was asked to run. */
typedef struct lab_args {
    int graded;                      /**< 1 in graded mode, 0 in demo mode. */
    char in_dir[LAB_ARGS_PATH_MAX];  /**< Graded mode: where the inputs are. */
    char out_dir[LAB_ARGS_PATH_MAX]; /**< Graded mode: where outputs go. */
    const char *program;             /**< argv[0], for messages. */
} lab_args;

/**
 * @brief Parses the command line. On `--help` prints the usage and exits 0;
 *        on anything it does not know, prints what is wrong and the usage to
 *        stderr and exits LAB_EXIT_USAGE.
 * @param[out] out     The mode and directories.
 * @param argc         From main.
 * @param argv         From main.
 * @param description  One line saying what the program does, for `--help`.
 */
void lab_args_parse(lab_args *out, int argc, char **argv, const char *description);

/**
 * @brief A demo-mode option of one lab program (`--big`, `--data DIR`).
 *
 * Graded mode takes no options besides `--in` and `--out`: everything a check
 * varies comes as an input file.
 */
typedef struct lab_flag {
    const char *name;       /**< The option as typed, e.g. "--big". */
    const char *value_name; /**< NULL for a switch; else what its value is, e.g. "DIR". */
    const char *help;       /**< One line for `--help`. */
    int *given;             /**< Set to 1 when the option is present (may be NULL). */
    const char **value;     /**< Set to the value when the option takes one (may be NULL). */
} lab_flag;

/**
 * @brief lab_args_parse() for a program with demo options of its own: each
 *        option of flags may appear once; `--help` lists them. A value goes
 *        after a space or an `=` (`--images 512`, `--images=512`; also
 *        `--in=DIR`). An option not in the table, one missing its value
 *        (the next argument being an option counts as missing), or a switch
 *        given a value (`--big=1`) is reported by name and exits
 *        LAB_EXIT_USAGE. Options together with `--in`/`--out` are an
 *        error too (graded runs are the grader's, and take no options).
 * @param[out] out     The mode and directories.
 * @param argc         From main.
 * @param argv         From main.
 * @param description  One line saying what the program does, for `--help`.
 * @param flags        The program's options.
 * @param n_flags      How many there are.
 */
void lab_args_parse_flags(lab_args *out, int argc, char **argv, const char *description,
                          const lab_flag *flags, size_t n_flags);

/**
 * @brief Reads input `<in_dir>/<name>.npy`, which must have the given dtype
 *        and number of dimensions; exits LAB_EXIT_USAGE with a message naming
 *        the file and the problem otherwise.
 * @param[out] arr Receives the array; free it with lab_npy_free().
 * @param args     From lab_args_parse(), in graded mode.
 * @param name     Input name, without `.npy`.
 * @param dtype    Required element type.
 * @param ndim     Required number of dimensions, or -1 for any.
 */
void lab_input(lab_npy_array *arr, const lab_args *args, const char *name, lab_dtype dtype,
               int ndim);

/**
 * @brief Writes output `<out_dir>/<name>.npy`; exits LAB_EXIT_USAGE with a
 *        message naming the file when it cannot be written.
 * @param args  From lab_args_parse(), in graded mode.
 * @param name  Output name, without `.npy`.
 * @param dtype Element type of @p data.
 * @param ndim  Number of dimensions (0 to 8).
 * @param shape Extent of each dimension.
 * @param data  The elements, C order.
 */
void lab_output(const lab_args *args, const char *name, lab_dtype dtype, int ndim,
                const size_t *shape, const void *data);

/**
 * @brief The facts of one run, written as `result.json` (an opaque JSON object).
 *
 * An object of lab programs only: creating it and setting facts cannot fail
 * (out of memory, they print a message and exit 1, as lab_xmalloc() does), so
 * there is no status to check.
 */
typedef struct lab_result lab_result;

/**
 * @brief Creates an empty result.
 * @return The result; never NULL.
 */
lab_result *lab_result_create(void);

/**
 * @brief Destroys a result.
 * @param r Result; NULL is allowed.
 */
void lab_result_destroy(lab_result *r);

/**
 * @brief Sets a string fact (replacing an earlier value of the key).
 * @param r     The result.
 * @param key   Fact name.
 * @param value Text; any bytes, escaped as JSON requires; NULL is written as "".
 */
void lab_result_set_string(lab_result *r, const char *key, const char *value);

/**
 * @brief Sets an integer fact.
 * @param r     The result.
 * @param key   Fact name.
 * @param value The number.
 */
void lab_result_set_int(lab_result *r, const char *key, long long value);

/**
 * @brief Sets a number fact (NaN and infinities are written as null: JSON has neither).
 * @param r     The result.
 * @param key   Fact name.
 * @param value The number.
 */
void lab_result_set_number(lab_result *r, const char *key, double value);

/**
 * @brief Sets a true/false fact.
 * @param r     The result.
 * @param key   Fact name.
 * @param value Nonzero for true.
 */
void lab_result_set_bool(lab_result *r, const char *key, int value);

/**
 * @brief Writes the result as a JSON object, keys in the order first set.
 * @param path      File to write (replaced atomically).
 * @param r         The result.
 * @param[out] err  Why it failed; may be NULL.
 * @return LAB_OK, LAB_EIO (the file cannot be written; it is left as it was)
 *         or LAB_EINVAL (a NULL argument).
 */
LAB_MUST_CHECK int lab_result_write(const char *path, const lab_result *r, lab_error *err);

/**
 * @brief Writes `<out_dir>/result.json`; exits LAB_EXIT_USAGE with a message
 *        when it cannot.
 * @param args From lab_args_parse(), in graded mode.
 * @param r    The result.
 */
void lab_result_save(const lab_args *args, const lab_result *r);

#ifdef __cplusplus
}
#endif

#endif /* LAB_PROTOCOL_H */
