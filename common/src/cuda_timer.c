/* CUDA-event timers: see lab/cuda_timer.h. */
#include "lab/cuda_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(GPULAB_BACKEND_SIM)
#include "gpulab_sim/model.h"
#endif

cudaError_t lab_cuda_timer_create(lab_cuda_timer *t)
{
    cudaError_t err;
    memset(t, 0, sizeof(*t));
    err = cudaEventCreate(&t->start);
    if (err != cudaSuccess)
        return err;
    err = cudaEventCreate(&t->stop);
    if (err != cudaSuccess) {
        cudaEventDestroy(t->start);
        memset(t, 0, sizeof(*t));
    }
    return err;
}

void lab_cuda_timer_destroy(lab_cuda_timer *t)
{
    if (!t)
        return;
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    memset(t, 0, sizeof(*t));
}

cudaError_t lab_cuda_timer_start(lab_cuda_timer *t, cudaStream_t stream)
{
    return cudaEventRecord(t->start, stream);
}

cudaError_t lab_cuda_timer_stop(lab_cuda_timer *t, cudaStream_t stream)
{
    return cudaEventRecord(t->stop, stream);
}

cudaError_t lab_cuda_timer_elapsed_ms(lab_cuda_timer *t, float *ms)
{
    cudaError_t err = cudaEventSynchronize(t->stop);
    if (err != cudaSuccess)
        return err;
    return cudaEventElapsedTime(ms, t->start, t->stop);
}

int lab_cuda_time_repeat(lab_time_stats *out, void (*fn)(void *ctx), void *ctx, int warmup,
                         int reps, cudaStream_t stream, lab_error *status)
{
    lab_cuda_timer t;
    double *samples;
    cudaError_t err;
    int rc = LAB_OK;

    if (warmup < 0 || reps < 1 || !fn || !out)
        return lab_error_set(status, LAB_EINVAL,
                             "lab_cuda_time_repeat: needs a function, warmup >= 0 and reps >= 1 "
                             "(got warmup %d, reps %d)",
                             warmup, reps);
    samples = malloc(sizeof(*samples) * (size_t)reps);
    if (!samples)
        return lab_error_set(status, LAB_ENOMEM, "lab_cuda_time_repeat: no memory for %d samples",
                             reps);
    err = lab_cuda_timer_create(&t);
    if (err != cudaSuccess) {
        rc = lab_error_set_cuda(status, (int)err, "lab_cuda_time_repeat: creating its events: %s",
                                cudaGetErrorName(err));
        goto free_samples;
    }
    for (int i = 0; i < warmup; i++)
        fn(ctx);
    for (int i = 0; i < reps && err == cudaSuccess; i++) {
        float ms = 0.0f;
        err = lab_cuda_timer_start(&t, stream);
        if (err != cudaSuccess)
            break;
        fn(ctx);
        err = lab_cuda_timer_stop(&t, stream);
        if (err == cudaSuccess)
            err = lab_cuda_timer_elapsed_ms(&t, &ms);
        samples[i] = ms / 1e3;
    }
    if (err == cudaSuccess)
        rc = lab_time_stats_compute(out, samples, (size_t)reps, status);
    else
        rc = lab_error_set_cuda(status, (int)err, "lab_cuda_time_repeat: timing a call: %s",
                                cudaGetErrorName(err));
    lab_cuda_timer_destroy(&t);
free_samples:
    free(samples);
    return rc;
}

const char *lab_cuda_timer_clock_name(void)
{
#if defined(GPULAB_BACKEND_SIM)
    /* Settled once per run: GPULAB_SIM_MODEL does not change while it runs. */
    static char modeled[96];
    const char *gpu = gpulab_sim_model_gpu();
    if (!gpu)
        return "simulator CPU time";
    if (!modeled[0])
        snprintf(modeled, sizeof(modeled), "modeled %s", gpu);
    return modeled;
#else
    return "CUDA events";
#endif
}

const char *lab_cuda_timer_modeled_gpu(void)
{
#if defined(GPULAB_BACKEND_SIM)
    return gpulab_sim_model_gpu();
#else
    return NULL;
#endif
}
