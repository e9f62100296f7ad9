/**
 * @file rewrite.h
 * @brief The launch rewriter of the CPU simulator (internal to the sim build).
 *
 * The sim backend compiles unchanged CUDA C files with the host C++ compiler.
 * Before that, this rewriter turns every kernel launch
 *
 *     K<<<A, B>>>(ARGS)   K<<<A, B, C>>>(ARGS)   K<<<A, B, C, D>>>(ARGS)
 *
 * into the ordinary calls
 *
 *     GPULAB_SIM_LAUNCH((K), "K", L, "ARGS")(A, B[, C[, D]])(ARGS)
 *
 * where only the configuration arguments written appear, L is the line of the
 * `<<<`, "K" is the callee's text as a string literal and "ARGS" the
 * arguments' tokens on one line (a space between two words and after each
 * comma, string and character literals shown as `...`), which the simulator
 * uses to name an argument in its reports. K, A, B, C, D and ARGS are copied
 * verbatim. Every newline of the input stays where it was, so after the
 * leading `#line 1 "file"` all compiler messages point at the `.cu` file's own
 * lines. Launches inside comments, string and character literals are left
 * alone; launches in macro arguments and `#define` bodies are rewritten.
 *
 * A declaration of dynamic shared memory, `extern __shared__ T name[];` or
 * `extern T __shared__ name[];`, becomes
 * `extern __thread T name[] GPULAB_SIM_DYNAMIC_SHARED;` (its `;` must
 * be on the same line kind: code, or the same directive). A static one in a
 * function body, `[static] __shared__ T a[N], b;`, becomes
 * `typedef T gpulab_sim_shared_a[N], gpulab_sim_shared_b;` followed, on the
 * line of its `;`, by `GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_a, a, L);`
 * per name (L: the line of the name), a reference to the variable's place in
 * the simulator's shared-memory window. Other `__shared__` declarations (at
 * file, namespace or class scope, in directives, with an initializer or a
 * declarator it cannot read) and other `extern` declarations are left as
 * they are.
 *
 * It also works out which `__global__` kernels of the file can reach a
 * barrier or a warp-level function (`__syncthreads`, `__shfl_down_sync`, ...),
 * directly or through `__device__` functions defined in the same file. With
 * #GPULAB_RW_TRAITS the result ends with one `GPULAB_SIM_KERNEL_TRAITS(name, 0|1);`
 * line per kernel, which the simulator uses to run barrier-free kernels as
 * plain loops.
 */
#ifndef GPULAB_RW_REWRITE_H
#define GPULAB_RW_REWRITE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Flag of gpulab_rw_rewrite(): append the kernel traits lines. */
#define GPULAB_RW_TRAITS 1u

/** @brief Status of gpulab_rw_rewrite() when memory runs out (launch errors are positive). */
#define GPULAB_RW_ENOMEM (-3)

/** @brief A `__global__` kernel defined in the rewritten file. */
typedef struct gpulab_rw_kernel {
    char *name;      /**< Its name, with enclosing namespaces ("ns::k"). */
    unsigned line;   /**< Line of its name. */
    int sync;        /**< 1 when it can reach a barrier or warp-level function, else 0. */
    int is_template; /**< 1 for a template kernel (no traits line is emitted for it). */
} gpulab_rw_kernel;

/** @brief What gpulab_rw_rewrite() produces. */
typedef struct gpulab_rw_result {
    char *text;                /**< The rewritten source, NUL-terminated. */
    size_t len;                /**< Its length in bytes, without the NUL. */
    char *errors;              /**< "file:line: message\n" per error; "" when none. */
    int error_count;           /**< Number of lines in @c errors. */
    gpulab_rw_kernel *kernels; /**< The kernels defined in the file, in source order. */
    size_t kernel_count;       /**< Number of entries in @c kernels. */
} gpulab_rw_result;

/**
 * @brief Rewrites the kernel launches of one CUDA source text.
 *
 * A malformed launch (fewer than 2 or more than 4 configuration arguments, a
 * `<<<` without `>>>`, a `>>>` not followed by `(`) is reported in
 * @c res->errors and left as it was; the rest of the text is still rewritten,
 * so one call reports every bad launch.
 *
 * @param src      The source text; need not be NUL-terminated; may hold any bytes.
 * @param len      Its length in bytes (less than 4 GiB).
 * @param filename Name used in the `#line` directives and in error messages.
 * @param flags    0, or #GPULAB_RW_TRAITS.
 * @param[out] res Filled on return 0 and on a positive return; release it with
 *                 gpulab_rw_result_free(). On #GPULAB_RW_ENOMEM it is left empty.
 * @return 0 when every launch was rewritten, the number of errors when some
 *         were malformed, #GPULAB_RW_ENOMEM when memory ran out.
 */
int gpulab_rw_rewrite(const char *src, size_t len, const char *filename, unsigned flags,
                      gpulab_rw_result *res);

/**
 * @brief Frees what gpulab_rw_rewrite() allocated and empties @p res.
 * @param res A result, or NULL.
 */
void gpulab_rw_result_free(gpulab_rw_result *res);

/**
 * @brief The files of one rewrite, gathered for nvcc's execution-space checks
 * (see gpulab_rw_spaces_check()).
 */
typedef struct gpulab_rw_spaces gpulab_rw_spaces;

/**
 * @brief An empty set of files for gpulab_rw_spaces_add().
 * @return The set, or NULL when out of memory; free it with gpulab_rw_spaces_free().
 */
gpulab_rw_spaces *gpulab_rw_spaces_new(void);

/**
 * @brief Adds one file (a .cu file, or a header rewritten with it): its
 * function declarations and definitions, with their execution spaces.
 * @param s        The set.
 * @param src      The file's text; need not be NUL-terminated.
 * @param len      Its length in bytes (less than 4 GiB).
 * @param filename Its name, as messages will show it.
 * @return 0, or -1 when out of memory.
 */
int gpulab_rw_spaces_add(gpulab_rw_spaces *s, const char *src, size_t len, const char *filename);

/**
 * @brief The errors nvcc gives for the files added: a `__host__` function
 * that calls a `__device__` one, a `__global__` or `__device__` function that
 * calls a host one (each as nvcc words it, `file(line): error: calling a
 * __device__ function("f(float)") from a __host__ function("main") is not
 * allowed`), and, when @p rdc is 0, a `__device__` function that device code
 * calls but no added file defines (`ptxas fatal   : Unresolved extern
 * function 'f(float)'`, then where it is called). Only what is certain is
 * reported: names with declarations in both spaces, declarations a macro may
 * qualify, constexpr functions, members and functions known only from other
 * headers are left alone.
 * @param s          The set.
 * @param rdc        1 when compiling with relocatable device code (-rdc=true, -dc).
 * @param[out] errors The messages, one per line, NUL-terminated and malloc'd
 *                   (NULL when there are none or on failure); free() it.
 * @return The number of errors (0 when the files are clean), or -1 when out of memory.
 */
int gpulab_rw_spaces_check(gpulab_rw_spaces *s, int rdc, char **errors);

/**
 * @brief Frees a set of files.
 * @param s The set, or NULL.
 */
void gpulab_rw_spaces_free(gpulab_rw_spaces *s);

#ifdef __cplusplus
}
#endif

#endif /* GPULAB_RW_REWRITE_H */
