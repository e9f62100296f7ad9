/* Lab 01: result.json facts, shared by the lab program and the reference tool. */
#include "facts.h"

#include <cuda_runtime.h>

#include <stdio.h>

static void set_dev_int(lab_result *r, int i, const char *field, long long v)
{
    char key[64];
    snprintf(key, sizeof(key), "device%d_%s", i, field);
    lab_result_set_int(r, key, v);
}

void lab01_facts(lab_result *r, const lab_gpu_availability *st, const lab_device_info *infos,
                 const int *query_rc, int n)
{
    char key[64];
    lab_result_set_string(r, "backend", lab_backend_name());
    lab_result_set_bool(r, "gpu_usable", st->status == LAB_GPU_OK && st->count > 0);
    lab_result_set_string(r, "status", lab_gpu_status_name(st->status));
    lab_result_set_string(r, "reason", st->reason);
    lab_result_set_int(r, "device_count", st->count);
    lab_result_set_int(r, "runtime_version", st->runtime_version);
    lab_result_set_int(r, "driver_version", st->driver_version);
    for (int i = 0; i < n && i < LAB01_MAX_DEVICES; i++) {
        const lab_device_info *d = &infos[i];
        if (query_rc[i] != 0) {
            snprintf(key, sizeof(key), "device%d_error", i);
            lab_result_set_string(r, key, cudaGetErrorName((cudaError_t)query_rc[i]));
            continue;
        }
        snprintf(key, sizeof(key), "device%d_name", i);
        lab_result_set_string(r, key, d->name);
        set_dev_int(r, i, "cc_major", d->cc_major);
        set_dev_int(r, i, "cc_minor", d->cc_minor);
        set_dev_int(r, i, "sm_count", d->sm_count);
        set_dev_int(r, i, "max_threads_per_block", d->max_threads_per_block);
        set_dev_int(r, i, "warp_size", d->warp_size);
        set_dev_int(r, i, "global_mem_bytes", (long long)d->global_mem_bytes);
        set_dev_int(r, i, "shared_mem_per_block", (long long)d->shared_mem_per_block);
        set_dev_int(r, i, "l2_cache_bytes", d->l2_cache_bytes);
        set_dev_int(r, i, "memory_clock_khz", d->memory_clock_khz);
        set_dev_int(r, i, "memory_bus_width_bits", d->memory_bus_width_bits);
        set_dev_int(r, i, "mem_total_bytes", (long long)d->mem_total_bytes);
        set_dev_int(r, i, "mem_free_bytes", (long long)d->mem_free_bytes);
        set_dev_int(r, i, "mem_used_bytes", (long long)(d->mem_total_bytes - d->mem_free_bytes));
    }
}
