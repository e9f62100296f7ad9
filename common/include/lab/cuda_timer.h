/**
 * @file cuda_timer.h
 * @brief Timing device work with CUDA events.
 *
 * Events are recorded into a stream and timed by the device, so a timer
 * measures the work queued between start and stop, not the time the host
 * spent queueing it (launches return before their kernels finish). Every
 * function returns a cudaError_t so calls can be wrapped in LAB_CHECK:
 *
 * @code
 * lab_cuda_timer t;
 * float ms;
 * LAB_CHECK(lab_cuda_timer_create(&t));
 * LAB_CHECK(lab_cuda_timer_start(&t, 0));
 * kernel<<<grid, block>>>(...);
 * LAB_CHECK(lab_cuda_timer_stop(&t, 0));
 * LAB_CHECK(lab_cuda_timer_elapsed_ms(&t, &ms));   // waits for the stop event
 * printf("kernel: %.3f ms (%s)\n", ms, lab_cuda_timer_clock_name());
 * lab_cuda_timer_destroy(&t);
 * @endcode
 */
#ifndef LAB_CUDA_TIMER_H
#define LAB_CUDA_TIMER_H

#include <cuda_runtime.h>

#include "lab/timer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A pair of CUDA events bracketing device work. */
typedef struct lab_cuda_timer {
    cudaEvent_t start; /**< Recorded by lab_cuda_timer_start. */
    cudaEvent_t stop;  /**< Recorded by lab_cuda_timer_stop. */
} lab_cuda_timer;

/**
 * @brief Creates the timer's two events on the current device.
 * @param[out] t Timer to initialize; on error it holds no events.
 * @return cudaSuccess, or the error of cudaEventCreate.
 */
cudaError_t lab_cuda_timer_create(lab_cuda_timer *t);

/**
 * @brief Destroys the timer's events.
 * @param t Timer made by lab_cuda_timer_create; NULL is allowed.
 */
void lab_cuda_timer_destroy(lab_cuda_timer *t);

/**
 * @brief Records the start event into @p stream.
 * @param t      The timer.
 * @param stream Stream whose work is timed (0: the default stream).
 * @return cudaSuccess or the error of cudaEventRecord.
 */
cudaError_t lab_cuda_timer_start(lab_cuda_timer *t, cudaStream_t stream);

/**
 * @brief Records the stop event into @p stream.
 * @param t      The timer.
 * @param stream The stream given to lab_cuda_timer_start.
 * @return cudaSuccess or the error of cudaEventRecord.
 */
cudaError_t lab_cuda_timer_stop(lab_cuda_timer *t, cudaStream_t stream);

/**
 * @brief Waits for the stop event and reads the time between the two events.
 * @param t       The timer, started and stopped.
 * @param[out] ms Milliseconds between start and stop.
 * @return cudaSuccess, or the error of cudaEventSynchronize / cudaEventElapsedTime.
 */
cudaError_t lab_cuda_timer_elapsed_ms(lab_cuda_timer *t, float *ms);

/**
 * @brief Times @p fn with events: @p warmup untimed calls, then @p reps calls
 *        each timed on its own.
 * @param[out] out Statistics of the @p reps samples, in seconds.
 * @param fn       Function that queues device work on @p stream.
 * @param ctx      Passed to @p fn.
 * @param warmup   Untimed calls first (>= 0).
 * @param reps     Timed calls (>= 1).
 * @param stream   Stream the events are recorded into.
 * @param[out] err Why it failed; may be NULL.
 * @return LAB_OK; LAB_EINVAL for bad counts or a NULL @p fn, LAB_ENOMEM, or LAB_ECUDA for the
 *         first CUDA call that failed (its error in err->cuda_error).
 */
LAB_MUST_CHECK int lab_cuda_time_repeat(lab_time_stats *out, void (*fn)(void *ctx), void *ctx,
                                        int warmup, int reps, cudaStream_t stream, lab_error *err);

/**
 * @brief What the event timers of this build measure, for labelling printed times:
 *        "CUDA events" on the cuda backend; on the sim backend "simulator CPU
 *        time", or "modeled " and the GPU's name ("modeled NVIDIA T4") when the run has
 *        the simulator's performance model on (GPULAB_SIM_MODEL set to a GPU, see
 *        docs/model.md): then events read the modeled clock.
 * @return A static string.
 */
const char *lab_cuda_timer_clock_name(void);

/**
 * @brief The GPU whose modeled clock the event timers read, for the labels of
 *        a modeled figure ("modeled NVIDIA T4") and to decide whether to show
 *        one: the sim backend with the performance model on (docs/model.md).
 * @return The GPU's name ("NVIDIA T4", a static string), or NULL when the times
 *         are not modeled: the sim backend with the model off, or a real GPU.
 */
const char *lab_cuda_timer_modeled_gpu(void);

#ifdef __cplusplus
}
#endif

#endif /* LAB_CUDA_TIMER_H */
