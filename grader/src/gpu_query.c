/*
 * gpulab-gpu-query — says whether the cuda backend can run on this machine,
 * through the kit's own device query (lab_gpu_check, common/src/device.c),
 * built for the cuda backend beside gpulab-grade. gpulab-grade --backend auto
 * runs it to choose the backend, so the choice never rests on how a
 * student's program exits.
 *
 * Prints, one "key: value" per line:
 *   status: ok | no_driver | driver_too_old | no_device | error
 *   devices: N                       usable devices
 *   device 0: NVIDIA H200            each usable device's name
 *   reason: ...                      why none is usable (status not ok)
 * Exit status: 0 a GPU is usable, 77 none is, 2 bad usage.
 */
#include "lab/device.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1) {
        int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
        fprintf(help ? stdout : stderr,
                "usage: %s\n"
                "Says whether a GPU is usable for gpulab's cuda backend: prints status,\n"
                "devices, each device's name, or the reason there is none.\n"
                "exit status: 0 a GPU is usable, 77 none is, 2 bad usage\n",
                argv[0]);
        return help ? 0 : 2;
    }
    lab_gpu_availability a;
    int n = lab_gpu_check(&a);
    printf("status: %s\ndevices: %d\n", lab_gpu_status_name(a.status), n);
    for (int i = 0; i < n; i++) {
        lab_device_info info;
        if (lab_device_info_query(&info, i, NULL) == LAB_OK)
            printf("device %d: %s\n", i, info.name);
        else
            printf("device %d: (its properties could not be read)\n", i);
    }
    if (n == 0)
        printf("reason: %s\n", a.reason[0] ? a.reason : "no usable device");
    return n > 0 ? 0 : 77;
}
