/*
 * Lab 02's harness (students do not edit it): part 5 of the run — each
 * mistake of errors.cu provoked on purpose and named by its CUDA error; the
 * host read of device memory in a child process, since it may kill the
 * process that makes it. Last in a run: its recovery resets the device.
 */
#define _POSIX_C_SOURCE 200809L /* strsignal */
#include "copying.h"
#include "harness.h"

#include "lab/device.h"
#include "lab/tensor.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------
 * 5. errors
 */

/* Runs host_reads_device(d_x) in a child process: on a GPU (and on the
 * simulator, which reports the line first) the read kills the process that
 * makes it, and this one must go on. */
static void host_read_in_child(lab02_run *r, const float *d_x, float probe)
{
    int fds[2];
    float got = NAN;
    int status = 0;
    if (pipe(fds) != 0) {
        perror("pipe");
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        float v = host_reads_device(d_x);
        ssize_t w = write(fds[1], &v, sizeof(v));
        _exit(w == (ssize_t)sizeof(v) ? 0 : 3);
    }
    close(fds[1]);
    ssize_t n = pid > 0 ? read(fds[0], &got, sizeof(got)) : -1;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, &status, 0);
    if (pid > 0 && WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "another signal";
        printf("  host code reads d_x[0]      the child process was killed by %s (%s)\n", name,
               strsignal(sig));
        if (r->sim)
            printf("      simulator: device memory is out of host code's reach, as on a GPU; its\n"
                   "      report above names the line, the pointer and its cudaMalloc\n");
        else
            printf(
                "      the CPU has no mapping for cudaMalloc memory: its address is the GPU's\n");
        lab02_fact_string(r, "host_read_outcome", "signal");
        lab02_fact_string(r, "host_read_signal", name);
        return;
    }
    if (n != (ssize_t)sizeof(got)) {
        printf("  host code reads d_x[0]      the child process failed (status %d)\n", status);
        lab02_fact_string(r, "host_read_outcome", "failed");
        lab02_expect(r, 0, "host read", "host_reads_device must return d_x[0]");
        return;
    }
    printf("  host code reads d_x[0]      no fault; the read returned %g (the device holds %g)\n",
           got, probe);
    if (r->sim)
        printf("      simulator: host code that reads device memory is stopped with SIGSEGV,\n"
               "      as on a GPU, so host_reads_device did not read d_x[0]\n");
    else
        printf("      this system lets the CPU read GPU memory directly (e.g. a coherent\n"
               "      CPU-GPU link); on a PCIe GPU the same line is a segmentation fault\n");
    lab02_fact_string(r, "host_read_outcome", "value");
    lab02_fact_number(r, "host_read_value", got);
    lab02_expect(r, !r->sim && got == probe, "host read",
                 "host_reads_device in errors.cu must return d_x[0]");
}

static void row(lab02_run *r, const char *what, const char *key, cudaError_t got, cudaError_t want,
                const char *hint)
{
    printf("  %-28s %-26s %s\n", what, cudaGetErrorName(got),
           got == want ? "" : "(expected another error)");
    lab02_fact_string(r, key, cudaGetErrorName(got));
    lab02_expect(r, got == want, what, hint);
}

void lab02_part_errors(lab02_run *r, float probe)
{
    int ndev = lab_num_gpus();
    printf("\n== 5. errors, each provoked on purpose\n");

    /* The CPU reads device memory. */
    float *d_x = NULL;
    float h_x[4] = { probe, probe, probe, probe };
    struct cudaPointerAttributes attr;
    if (cudaMalloc((void **)&d_x, sizeof(h_x)) != cudaSuccess ||
        cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice) != cudaSuccess) {
        printf("  cannot set up the host-read test: %s\n", cudaGetErrorName(cudaGetLastError()));
        r->failed = 1;
        return;
    }
    if (cudaPointerGetAttributes(&attr, d_x) == cudaSuccess && attr.type == cudaMemoryTypeDevice)
        printf("  d_x = %p is device memory of cuda:%d (cudaPointerGetAttributes)\n", (void *)d_x,
               attr.device);
    lab02_fact_number(r, "host_read_expected", probe);
    host_read_in_child(r, d_x, probe);
    cudaFree(d_x);

    row(r, "copy in wrong direction", "wrong_direction", provoke_wrong_direction(),
        cudaErrorInvalidValue, "provoke_wrong_direction in errors.cu");
    row(r, "copy past the allocation", "copy_too_large", provoke_copy_too_large(),
        cudaErrorInvalidValue, "provoke_copy_too_large in errors.cu");
    row(r, "copy from freed memory", "use_after_free", provoke_use_after_free(),
        cudaErrorInvalidValue, "provoke_use_after_free in errors.cu");
    row(r, "cudaSetDevice(count)", "missing_device", provoke_missing_device(ndev),
        cudaErrorInvalidDevice, "provoke_missing_device in errors.cu");
    {
        lab_tensor *t = NULL;
        lab_error err = { 0 };
        char name[32];
        size_t one[1] = { 1 };
        snprintf(name, sizeof(name), "cuda:%d", ndev + 6);
        int rc = lab_tensor_create(&t, name, 1, one, NULL, &err);
        printf("  %-28s %s\n", "lab_tensor_create(\"cuda:N\")",
               rc == LAB_OK ? "accepted a device that does not exist" : err.msg);
        lab_tensor_destroy(t);
    }

    /* A kernel given host memory: the sticky error. */
    int pageable = 0;
    if (cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0) != cudaSuccess)
        pageable = 0;
    cudaGetLastError();
    lab02_fact_bool(r, "pageable_memory_access", pageable);
    lab02_sticky_report s;
    provoke_kernel_host_pointer(&s);
    cudaError_t want = pageable ? cudaSuccess : cudaErrorIllegalAddress;
    if (pageable)
        printf("  note: this GPU can access pageable host memory (HMM/ATS), so a kernel given a\n"
               "  host pointer works here; on most GPUs it is cudaErrorIllegalAddress\n");
    row(r, "kernel given host pointer", "kernel_host_pointer", s.at_sync, want,
        "provoke_kernel_host_pointer: launch with h_p, then cudaDeviceSynchronize");
    row(r, "then cudaMalloc (sticky)", "sticky_later_call", s.later_call, want,
        "provoke_kernel_host_pointer: a cudaMalloc after the fault fails too");
    row(r, "after cudaDeviceReset", "after_reset", s.after_reset, cudaSuccess,
        "provoke_kernel_host_pointer: cudaDeviceReset, then cudaMalloc again");
    printf("  sticky: every call fails with the same error until cudaDeviceReset, which\n"
           "  also frees every allocation of the device\n");
}
