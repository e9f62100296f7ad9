/*
 * Lab 01 — "Do I have a GPU?": your code. The harness (main.c) calls these
 * four functions, prints a deviceQuery-style report, and compares what you
 * read with the kit's own query (lab/device.h).
 *
 * The question, usually answered with one bool, in plain C, with the number
 * of usable GPUs taken as given:
 *
 *   int n = number of usable GPUs;             n == 0: "Got GPU? False"
 *   try_gpu(i)      = 0 <= i && i < n ? cuda:i : cpu
 *   try_all_gpus()  = n > 0 ? [cuda:0, ..., cuda:n-1] : [cpu]
 *
 * Here n comes from the CUDA runtime, and when it is 0 you say why.
 *
 * Build and run (from the repository root):
 *   cmake --build build --target lab01
 *   build/bin/lab01-sim-student                      # on the simulator
 *   GPULAB_SIM_DEVICES=4 build/bin/lab01-sim-student # four simulated GPUs
 *   build/bin/lab01-cuda-student                     # on an NVIDIA GPU
 *
 * There are four TODOs, one per function. Use only the CUDA runtime API
 * (cuda_runtime.h) and lab_gpu_explain(); the kit's lab_gpu_check() and
 * friends are the answer key.
 */
#include "devices.h"

#include "lab/todo.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * TODO 1: is a GPU usable, and if not, why?
 */
int gpu_check(lab_gpu_availability *out)
{
    memset(out, 0, sizeof(*out));
    /* TODO 1: ask the runtime.
     *  - cudaRuntimeGetVersion(&out->runtime_version) and
     *    cudaDriverGetVersion(&out->driver_version) (0 means: no driver);
     *  - cudaGetDeviceCount(&n), its error kept in out->cuda_error: success
     *    with n > 0 means status LAB_GPU_OK, count n;
     *  - otherwise clear the error (cudaGetLastError) and decide why:
     *    driver version 0 -> LAB_GPU_NO_DRIVER; cudaErrorInsufficientDriver ->
     *    LAB_GPU_DRIVER_TOO_OLD; cudaErrorNoDevice -> LAB_GPU_NO_DEVICE; else
     *    LAB_GPU_ERROR; then lab_gpu_explain(out) writes out->reason.
     * As it stands it claims there is no GPU and gives no reason. */
    out->status = LAB_GPU_NO_DEVICE;
    return 0;
}

/* ---------------------------------------------------------------------------
 * TODO 2: the properties of one device, and its memory free now.
 */
int device_query(lab_device_info *out, int device)
{
    memset(out, 0, sizeof(*out));
    /* TODO 2: fill the fields devices.h lists for `device`.
     *  - cudaGetDeviceProperties(&p, device) (struct cudaDeviceProp p) has the
     *    name, major/minor (compute capability), multiProcessorCount,
     *    maxThreadsPerBlock, warpSize, totalGlobalMem, sharedMemPerBlock,
     *    l2CacheSize and memoryBusWidth;
     *  - the memory clock (kHz): cudaDeviceGetAttribute(&v,
     *    cudaDevAttrMemoryClockRate, device);
     *  - free and total memory: cudaMemGetInfo, which answers for the
     *    *current* device, so cudaSetDevice(device) first and restore the
     *    previous one (cudaGetDevice) afterwards.
     * Return 0, or the failing call's cudaError_t (with *out zeroed).
     * As it stands it reports an unnamed device with nothing in it. */
    out->index = device;
    return 0;
}

/* ---------------------------------------------------------------------------
 * TODO 3 and 4: fall back to the CPU when the GPU asked for is not there.
 */
lab_device try_gpu(int i)
{
    lab_device d = { LAB_DEVICE_CPU, 0 };
    /* TODO 3: when 0 <= i < the number of usable GPUs (gpu_check), return
     * {LAB_DEVICE_CUDA, i}; otherwise the CPU. As it stands it always picks the CPU. */
    LAB_TODO_UNUSED(i);
    return d;
}

int try_all_gpus(lab_device *out, int cap)
{
    if (cap <= 0)
        return 0;
    /* TODO 4: write {LAB_DEVICE_CUDA, 0}, {LAB_DEVICE_CUDA, 1}, ... for every
     * usable GPU (at most cap), or the CPU alone when there is none; return
     * how many entries you wrote. As it stands it always answers "the CPU". */
    out[0].kind = LAB_DEVICE_CPU;
    out[0].index = 0;
    return 1;
}
