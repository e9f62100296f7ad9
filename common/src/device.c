/* Device counting, properties and fallbacks: see lab/device.h. */
#include "lab/device.h"

#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

#ifndef GPULAB_BACKEND_NAME
#error "GPULAB_BACKEND_NAME must be defined by the build (gpulab_backend_<name>)"
#endif

static void format_version(char *buf, size_t len, int v)
{
    snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

const char *lab_gpu_status_name(lab_gpu_status status)
{
    switch (status) {
    case LAB_GPU_OK:
        return "ok";
    case LAB_GPU_NO_DRIVER:
        return "no_driver";
    case LAB_GPU_DRIVER_TOO_OLD:
        return "driver_too_old";
    case LAB_GPU_NO_DEVICE:
        return "no_device";
    case LAB_GPU_ERROR:
        break;
    }
    return "error";
}

void lab_gpu_explain(lab_gpu_availability *out)
{
    char rt[16], drv[16];
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    cudaError_t err = (cudaError_t)out->cuda_error;
    format_version(rt, sizeof(rt), out->runtime_version);
    format_version(drv, sizeof(drv), out->driver_version);

    switch (out->status) {
    case LAB_GPU_OK:
        out->reason[0] = '\0';
        break;
    case LAB_GPU_NO_DRIVER:
        snprintf(out->reason, sizeof(out->reason),
                 "no NVIDIA driver is installed or loaded (cudaGetDeviceCount: %s); "
                 "install the driver on a machine with an NVIDIA GPU, or use the sim backend",
                 cudaGetErrorName(err));
        break;
    case LAB_GPU_DRIVER_TOO_OLD:
        snprintf(out->reason, sizeof(out->reason),
                 "the NVIDIA driver supports CUDA %s but this program uses CUDA runtime %s; "
                 "update the driver, or build with a CUDA toolkit no newer than %s",
                 drv, rt, drv);
        break;
    case LAB_GPU_NO_DEVICE:
        snprintf(out->reason, sizeof(out->reason),
                 "the NVIDIA driver (CUDA %s) is loaded but sees no CUDA-capable device%s%s%s; "
                 "check nvidia-smi",
                 drv, visible ? " (CUDA_VISIBLE_DEVICES is set to \"" : "", visible ? visible : "",
                 visible ? "\")" : "");
        break;
    default:
        snprintf(out->reason, sizeof(out->reason), "cudaGetDeviceCount failed: %s (%d): %s",
                 cudaGetErrorName(err), (int)err, cudaGetErrorString(err));
        break;
    }
}

int lab_gpu_check(lab_gpu_availability *out)
{
    int n = 0;
    memset(out, 0, sizeof(*out));
    cudaRuntimeGetVersion(&out->runtime_version);
    cudaDriverGetVersion(&out->driver_version);
    cudaError_t err = cudaGetDeviceCount(&n);
    out->cuda_error = (int)err;
    if (err == cudaSuccess && n > 0) {
        out->status = LAB_GPU_OK;
        out->count = n;
        return n;
    }
    cudaGetLastError(); /* a failed count must not linger as the last error */
    if (out->driver_version == 0)
        out->status = LAB_GPU_NO_DRIVER;
    else if (err == cudaErrorInsufficientDriver)
        out->status = LAB_GPU_DRIVER_TOO_OLD;
    else if (err == cudaErrorNoDevice || err == cudaSuccess)
        out->status = LAB_GPU_NO_DEVICE;
    else
        out->status = LAB_GPU_ERROR;
    lab_gpu_explain(out);
    return 0;
}

int lab_num_gpus(void)
{
    lab_gpu_availability a;
    return lab_gpu_check(&a);
}

lab_device lab_cpu(void)
{
    lab_device d = { LAB_DEVICE_CPU, 0 };
    return d;
}

lab_device lab_gpu(int i)
{
    lab_device d = { LAB_DEVICE_CUDA, i };
    return d;
}

lab_device lab_try_gpu(int i)
{
    if (i >= 0 && i < lab_num_gpus())
        return lab_gpu(i);
    return lab_cpu();
}

int lab_try_all_gpus(lab_device *out, int cap)
{
    int n = lab_num_gpus();
    int written = 0;
    if (cap <= 0)
        return 0;
    if (n == 0) {
        out[0] = lab_cpu();
        return 1;
    }
    for (int i = 0; i < n && written < cap; i++)
        out[written++] = lab_gpu(i);
    return written;
}

char *lab_device_format(char *buf, size_t len, lab_device dev)
{
    if (dev.kind == LAB_DEVICE_CPU)
        snprintf(buf, len, "cpu");
    else
        snprintf(buf, len, "cuda:%d", dev.index);
    return buf;
}

/* Fields of cudaDeviceProp that every CUDA version has. */
static void copy_props(lab_device_info *out, const struct cudaDeviceProp *p)
{
    snprintf(out->name, sizeof(out->name), "%s", p->name);
    out->cc_major = p->major;
    out->cc_minor = p->minor;
    out->sm_count = p->multiProcessorCount;
    out->max_threads_per_block = p->maxThreadsPerBlock;
    out->max_threads_per_sm = p->maxThreadsPerMultiProcessor;
    for (int k = 0; k < 3; k++) {
        out->max_block_dim[k] = p->maxThreadsDim[k];
        out->max_grid_dim[k] = p->maxGridSize[k];
    }
    out->warp_size = p->warpSize;
    out->regs_per_block = p->regsPerBlock;
    out->global_mem_bytes = p->totalGlobalMem;
    out->shared_mem_per_block = p->sharedMemPerBlock;
    out->const_mem_bytes = p->totalConstMem;
    out->l2_cache_bytes = p->l2CacheSize;
    out->memory_bus_width_bits = p->memoryBusWidth;
    out->concurrent_kernels = p->concurrentKernels;
    out->async_engines = p->asyncEngineCount;
    out->unified_addressing = p->unifiedAddressing;
    out->integrated = p->integrated;
}

static int query_failed(lab_device_info *out, lab_error *err, cudaError_t e, const char *call,
                        int device)
{
    memset(out, 0, sizeof(*out));
    return lab_error_set_cuda(err, (int)e, "%s for device %d: %s: %s", call, device,
                              cudaGetErrorName(e), cudaGetErrorString(e));
}

int lab_device_info_query(lab_device_info *out, int device, lab_error *err)
{
    struct cudaDeviceProp p;
    int previous = 0;
    cudaError_t e;

    memset(out, 0, sizeof(*out));
    if (device < 0 || device >= lab_num_gpus())
        return query_failed(out, err, cudaErrorInvalidDevice, "lab_device_info_query", device);
    e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return query_failed(out, err, e, "cudaGetDeviceProperties", device);
    out->index = device;
    copy_props(out, &p);
    /* The clock rates left cudaDeviceProp in CUDA 13; attributes have them in every version. */
    if (cudaDeviceGetAttribute(&out->clock_khz, cudaDevAttrClockRate, device) != cudaSuccess)
        out->clock_khz = 0;
    if (cudaDeviceGetAttribute(&out->memory_clock_khz, cudaDevAttrMemoryClockRate, device) !=
        cudaSuccess)
        out->memory_clock_khz = 0;
    cudaGetLastError();

    e = cudaGetDevice(&previous);
    if (e == cudaSuccess)
        e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = cudaMemGetInfo(&out->mem_free_bytes, &out->mem_total_bytes);
    cudaSetDevice(previous);
    if (e != cudaSuccess)
        return query_failed(out, err, e, "cudaMemGetInfo", device);
    return LAB_OK;
}

double lab_device_peak_bandwidth_gbs(const lab_device_info *info)
{
    return 2.0 * info->memory_clock_khz * 1e3 * (info->memory_bus_width_bits / 8.0) / 1e9;
}

const char *lab_backend_name(void)
{
    return GPULAB_BACKEND_NAME;
}

int lab_backend_is_sim(void)
{
    return strcmp(GPULAB_BACKEND_NAME, "sim") == 0;
}

int lab_skip_without_gpu(const char *program)
{
    lab_gpu_availability a;
    if (lab_gpu_check(&a) > 0)
        return 0;
    fflush(stdout);
    fprintf(stderr, "%s: skipped: no usable GPU for the %s backend: %s\n", program,
            lab_backend_name(), a.reason);
    return 1;
}
