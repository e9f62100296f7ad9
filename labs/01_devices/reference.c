/*
 * lab01-<backend>-reference: the grader's answer key for lab 01. It reads
 * the same facts as the lab program, but with the kit's own query
 * (lab/device.h: lab_gpu_check, lab_device_info_query), and writes them to
 * reference.json in the current directory. The grader runs it under the same
 * environment as the student's program (GPULAB_SIM_DEVICES=1, 2, 4, 0 ...)
 * and compares result.json with it key by key. No student code is linked in.
 */
#include "facts.h"

#include "lab/device.h"
#include "lab/error.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "reference.json";
    lab_gpu_availability a;
    dev_status st;
    static dev_info infos[LAB01_MAX_DEVICES];
    int rc[LAB01_MAX_DEVICES] = { 0 };
    lab_error err;

    lab_gpu_check(&a);
    memset(&st, 0, sizeof(st));
    st.code = (dev_status_code)a.status;
    st.count = a.count;
    st.runtime_version = a.runtime_version;
    st.driver_version = a.driver_version;
    snprintf(st.reason, sizeof(st.reason), "%s", a.reason);

    int n = st.count < LAB01_MAX_DEVICES ? st.count : LAB01_MAX_DEVICES;
    for (int i = 0; i < n; i++) {
        lab_device_info k;
        dev_info *d = &infos[i];
        rc[i] = lab_device_info_query(&k, i, &err) == LAB_OK ? 0 : err.cuda_error;
        d->index = i;
        snprintf(d->name, sizeof(d->name), "%s", k.name);
        d->cc_major = k.cc_major;
        d->cc_minor = k.cc_minor;
        d->sm_count = k.sm_count;
        d->max_threads_per_block = k.max_threads_per_block;
        d->warp_size = k.warp_size;
        d->global_mem_bytes = k.global_mem_bytes;
        d->shared_mem_per_block = k.shared_mem_per_block;
        d->l2_cache_bytes = k.l2_cache_bytes;
        d->memory_clock_khz = k.memory_clock_khz;
        d->memory_bus_width_bits = k.memory_bus_width_bits;
        d->mem_free_bytes = k.mem_free_bytes;
        d->mem_total_bytes = k.mem_total_bytes;
    }
    lab_result *r = lab_result_create();
    lab01_facts(r, &st, infos, rc, n);
    int status = lab_result_write(path, r, &err);
    lab_result_destroy(r);
    if (status != LAB_OK) {
        fprintf(stderr, "lab01 reference: cannot write %s: %s\n", path, err.msg);
        return 1;
    }
    return 0;
}
