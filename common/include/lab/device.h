/**
 * @file device.h
 * @brief Is there a GPU, which, and why not: device counting, properties, and
 *        the d2l-style fallbacks `try_gpu(i)` / `try_all_gpus()` in C.
 *
 * Everything here works on a machine without a GPU or without a driver: the
 * functions then report zero GPUs, the reason in words a student can act on,
 * and the fallbacks choose the CPU.
 */
#ifndef LAB_DEVICE_H
#define LAB_DEVICE_H

#include <stddef.h>
#include <stdio.h>

#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Where data lives or work runs. */
typedef enum lab_device_kind {
    LAB_DEVICE_CPU = 0, /**< The host CPU. */
    LAB_DEVICE_CUDA = 1 /**< A CUDA device (a GPU, or a simulated one on the sim backend). */
} lab_device_kind;

/** @brief A device: the CPU, or CUDA device number `index`. */
typedef struct lab_device {
    lab_device_kind kind; /**< CPU or CUDA. */
    int index;            /**< CUDA device number; 0 for the CPU. */
} lab_device;

/** @brief Why GPUs are or are not usable. */
typedef enum lab_gpu_status {
    LAB_GPU_OK = 0,             /**< At least one device is usable. */
    LAB_GPU_NO_DRIVER = 1,      /**< No NVIDIA driver is installed or loaded. */
    LAB_GPU_DRIVER_TOO_OLD = 2, /**< The driver is older than the CUDA runtime needs. */
    LAB_GPU_NO_DEVICE = 3,      /**< A driver is loaded but sees no device. */
    LAB_GPU_ERROR = 4           /**< Another error (devices busy, system not ready, ...). */
} lab_gpu_status;

/** @brief Capacity of lab_gpu_availability::reason, terminating NUL included. */
#define LAB_GPU_REASON_MAX 512

/** @brief The answer to "can this program use a GPU?", with its reason. */
typedef struct lab_gpu_availability {
    lab_gpu_status status;           /**< Summary of the answer. */
    int count;                       /**< Usable devices (0 unless status is LAB_GPU_OK). */
    int runtime_version;             /**< CUDA runtime version, 1000*major + 10*minor. */
    int driver_version;              /**< CUDA version the driver supports; 0 with no driver. */
    int cuda_error;                  /**< The cudaError_t cudaGetDeviceCount returned. */
    char reason[LAB_GPU_REASON_MAX]; /**< One or two sentences for a student; "" when OK. */
} lab_gpu_availability;

/** @brief Capacity of lab_device_info::name, terminating NUL included (as cudaDeviceProp). */
#define LAB_DEVICE_NAME_MAX 256

/** @brief Properties of one CUDA device, as a deviceQuery-style report shows them. */
typedef struct lab_device_info {
    int index;                      /**< Device number. */
    char name[LAB_DEVICE_NAME_MAX]; /**< Marketing name ("NVIDIA H100 80GB HBM3"). */
    int cc_major;                   /**< Compute capability, major part. */
    int cc_minor;                   /**< Compute capability, minor part. */
    int sm_count;                   /**< Streaming multiprocessors. */
    int max_threads_per_block;      /**< Largest block (threads). */
    int max_threads_per_sm;         /**< Resident threads per multiprocessor. */
    int max_block_dim[3];           /**< Largest block extent in x, y, z. */
    int max_grid_dim[3];            /**< Largest grid extent in x, y, z. */
    int warp_size;                  /**< Threads per warp. */
    int regs_per_block;             /**< 32-bit registers available to a block. */
    size_t global_mem_bytes;        /**< Total global memory. */
    size_t shared_mem_per_block;    /**< Shared memory a block may use without opting in. */
    size_t const_mem_bytes;         /**< Constant memory. */
    int l2_cache_bytes;             /**< L2 cache size. */
    int clock_khz;                  /**< Peak SM clock, kHz (0 when the device does not say). */
    int memory_clock_khz;           /**< Peak memory clock, kHz (0 when not reported). */
    int memory_bus_width_bits;      /**< Memory bus width, bits. */
    int concurrent_kernels;         /**< Nonzero when kernels may run concurrently. */
    int async_engines;              /**< Copy engines that overlap copies with kernels. */
    int unified_addressing;         /**< Nonzero when host and device share one address space. */
    int integrated;                 /**< Nonzero for a GPU integrated with the host. */
    size_t mem_free_bytes;          /**< Free global memory now (cudaMemGetInfo). */
    size_t mem_total_bytes;         /**< Total global memory as cudaMemGetInfo reports it. */
} lab_device_info;

/**
 * @brief Finds out whether GPUs are usable, how many, and if none, why.
 * @param[out] out Filled in every case.
 * @return The number of usable devices (out->count), 0 when none.
 */
int lab_gpu_check(lab_gpu_availability *out);

/**
 * @brief Words the reason of an availability whose status is already decided:
 *        the one wording of each "no GPU" status (lab_gpu_check uses it too).
 * @param[in,out] out Reads status, runtime_version, driver_version and
 *                    cuda_error; writes reason ("" for LAB_GPU_OK).
 */
void lab_gpu_explain(lab_gpu_availability *out);

/**
 * @brief The status as one word, as result.json and gpulab-gpu-query name it.
 * @param status Any value.
 * @return "ok", "no_driver", "driver_too_old", "no_device" or "error" (also
 *         for a value outside the enum); a static string.
 */
const char *lab_gpu_status_name(lab_gpu_status status);

/**
 * @brief Number of usable CUDA devices; 0 when there is no driver or no device.
 * @return The device count.
 */
int lab_num_gpus(void);

/**
 * @brief The CPU device.
 * @return `{LAB_DEVICE_CPU, 0}`.
 */
lab_device lab_cpu(void);

/**
 * @brief CUDA device @p i, whether or not it exists.
 * @param i Device number.
 * @return `{LAB_DEVICE_CUDA, i}`.
 */
lab_device lab_gpu(int i);

/**
 * @brief GPU @p i if it exists, otherwise the CPU (d2l's `try_gpu(i)`).
 * @param i Device number; negative numbers give the CPU.
 * @return The device to use.
 */
lab_device lab_try_gpu(int i);

/**
 * @brief All GPUs, or the CPU alone when there are none (d2l's `try_all_gpus()`).
 * @param[out] out Array receiving the devices, in device-number order.
 * @param cap      Capacity of @p out; at most @p cap entries are written.
 * @return The number of entries written (at least 1 when @p cap >= 1).
 */
int lab_try_all_gpus(lab_device *out, int cap);

/**
 * @brief Formats a device as PyTorch names it: "cpu" or "cuda:0".
 * @param[out] buf Receives the NUL-terminated name (truncated to fit).
 * @param len      Capacity of @p buf.
 * @param dev      The device.
 * @return @p buf.
 */
char *lab_device_format(char *buf, size_t len, lab_device dev);

/**
 * @brief Reads the properties of CUDA device @p device, and its free and total memory.
 * @param[out] out Filled on success; zeroed on failure.
 * @param device   Device number.
 * @param[out] err Why it failed, with the failed call's error in
 *                 lab_error::cuda_error (cudaErrorInvalidDevice for a device
 *                 that does not exist); may be NULL.
 * @return LAB_OK, or LAB_ECUDA.
 */
LAB_MUST_CHECK int lab_device_info_query(lab_device_info *out, int device, lab_error *err);

/**
 * @brief Theoretical peak memory bandwidth, from the memory clock and bus width
 *        (double data rate): 2 × clock × bus width / 8.
 * @param info Device properties.
 * @return Gigabytes (1e9 bytes) per second; 0 when the clock is not reported.
 */
double lab_device_peak_bandwidth_gbs(const lab_device_info *info);

/**
 * @brief Name of the backend this library was built for: "cuda" or "sim".
 * @return A static string.
 */
const char *lab_backend_name(void);

/**
 * @brief Whether this library was built for the simulator (the sim backend).
 * @return 1 on the sim backend, 0 on the cuda backend.
 */
int lab_backend_is_sim(void);

/**
 * @brief Whether a program that needs a GPU must skip: when no GPU is usable it
 *        prints "<program>: skipped: ..." and the reason on stderr and returns 1, and
 *        the program exits with LAB_EXIT_SKIP (77); otherwise it returns 0.
 * @code
 * if (lab_skip_without_gpu(argv[0]))
 *     return LAB_EXIT_SKIP;
 * @endcode
 * @param program Name printed at the start of the message.
 * @return 1 when the program must skip, 0 when a GPU is usable.
 */
LAB_MUST_CHECK int lab_skip_without_gpu(const char *program);

#ifdef __cplusplus
}
#endif

#endif /* LAB_DEVICE_H */
