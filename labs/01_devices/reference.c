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

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "reference.json";
    lab_gpu_availability a;
    static lab_device_info infos[LAB01_MAX_DEVICES];
    int rc[LAB01_MAX_DEVICES] = { 0 };
    lab_error err;

    lab_gpu_check(&a);
    int n = a.count < LAB01_MAX_DEVICES ? a.count : LAB01_MAX_DEVICES;
    for (int i = 0; i < n; i++)
        rc[i] = lab_device_info_query(&infos[i], i, &err) == LAB_OK ? 0 : err.cuda_error;
    lab_result *r = lab_result_create();
    lab01_facts(r, &a, infos, rc, n);
    int status = lab_result_write(path, r, &err);
    lab_result_destroy(r);
    if (status != LAB_OK) {
        fprintf(stderr, "lab01 reference: cannot write %s: %s\n", path, err.msg);
        return 1;
    }
    return 0;
}
