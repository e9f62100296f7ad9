/* backend.c — which backend gpulab-grade grades on, and why (see grade.h):
 * under --backend auto, the kit's own device query decides, never a lab
 * program. */
#define _POSIX_C_SOURCE 200809L
#include "grade.h"
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether this kit was built with the cuda backend (and so gpulab-gpu-query). */
#ifndef GPULAB_GRADE_HAS_CUDA
#define GPULAB_GRADE_HAS_CUDA 0
#endif

/* The value of "key: value" line key in text, into buf ("" when absent). */
static void query_field(char *buf, size_t len, const char *text, const char *key)
{
    size_t k = strlen(key);
    buf[0] = '\0';
    for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (!strncmp(p, key, k) && p[k] == ':' && p[k + 1] == ' ') {
            snprintf(buf, len, "%.*s", (int)strcspn(p + k + 2, "\n"), p + k + 2);
            return;
        }
    }
}

#ifndef GPULAB_GRADE_CUDA_OFF
#define GPULAB_GRADE_CUDA_OFF 0
#endif

/* Asks the kit's own device query whether a GPU is usable for the cuda
 * backend. Returns 1 (usable: *why names the device) or 0 (*why says why not). */
static int gpu_usable(const options *o, char *why, size_t len)
{
    char query[4200], status[64], name[256], count[32], reason[600];
    snprintf(query, sizeof(query), "%s/gpulab-gpu-query", o->self_dir);
    if (access(query, X_OK) != 0) {
        snprintf(why, len, "%s",
                 GPULAB_GRADE_HAS_CUDA
                     ? "no GPU looked for: gpulab-gpu-query, the kit's GPU query, is missing "
                       "beside gpulab-grade; rebuild the kit (make grade) to grade on a GPU"
                 : GPULAB_GRADE_CUDA_OFF
                     ? "this kit was built without the cuda backend: it was switched off "
                       "(GPULAB_CUDA=OFF)"
                     : "this kit was built without the cuda backend: no CUDA toolkit was found "
                       "when it was configured");
        return 0;
    }
    /* Its own limits: a driver can take seconds to start, never minutes. */
    grade_limits l;
    memset(&l, 0, sizeof(l));
    l.wall_seconds = 60;
    l.cpu_seconds = 60;
    l.file_size = (size_t)1 << 20;
    l.max_processes = 256;
    l.output_bytes = (size_t)64 << 10;
    const char *argv[] = { query, NULL };
    grade_run run;
    lab_error err;
    grade_run_program(&run, &err, argv, NULL, &l, NULL);
    const char *out = run.out ? run.out : "";
    query_field(status, sizeof(status), out, "status");
    query_field(name, sizeof(name), out, "device 0");
    query_field(count, sizeof(count), out, "devices");
    query_field(reason, sizeof(reason), out, "reason");
    int usable = run.end == GRADE_EXITED && run.exit_status == 0 && !strcmp(status, "ok");
    if (usable && atoi(count) > 1)
        snprintf(why, len, "%d GPUs usable; device 0 is %s", atoi(count), name);
    else if (usable)
        snprintf(why, len, "%s usable", name[0] ? name : "a GPU");
    else if (run.end == GRADE_EXITED && run.exit_status == 77)
        snprintf(why, len, "no usable GPU \xe2\x80\x94 %s", reason[0] ? reason : status);
    else
        snprintf(why, len, "no usable GPU \xe2\x80\x94 the GPU query gpulab-gpu-query %s",
                 run.reason);
    grade_run_free(&run);
    return usable;
}

void grade_choose_backend(grade_report *r, const options *o)
{
    char why[sizeof(r->backend_reason)];
    if (strcmp(o->backend, "auto") != 0) {
        snprintf(r->backend, sizeof(r->backend), "%s", o->backend);
        if (strcmp(o->backend, "cuda") == 0 && !gpu_usable(o, why, sizeof(why)))
            snprintf(r->backend_reason, sizeof(r->backend_reason),
                     "asked for with --backend cuda, but %.560s", why);
        else
            snprintf(r->backend_reason, sizeof(r->backend_reason), "asked for with --backend %s",
                     o->backend);
        return;
    }
    int cuda = gpu_usable(o, why, sizeof(why));
    snprintf(r->backend, sizeof(r->backend), "%s", cuda ? "cuda" : "sim");
    snprintf(r->backend_reason, sizeof(r->backend_reason), "%s", why);
}
