/* Unit tests of lab/device.h. On a machine without a GPU they test the
 * no-GPU answers (reason, CPU fallbacks); with GPUs, the queried properties. */
#include "lab_test_child.h"

#include "lab/device.h"
#include "lab/protocol.h"
#include "lab_test.h"

#include <cuda_runtime.h>
#include <stdlib.h>

static void test_availability_is_consistent(void)
{
    lab_gpu_availability a;
    int n = lab_gpu_check(&a);
    CHECK_EQ_INT(n, a.count);
    CHECK_EQ_INT(n, lab_num_gpus());
    CHECK(a.runtime_version >= 1000);
    if (n > 0) {
        CHECK_EQ_INT(a.status, LAB_GPU_OK);
        CHECK_STREQ(a.reason, "");
    } else {
        CHECK(a.status != LAB_GPU_OK);
        CHECK(strlen(a.reason) > 20);
        if (a.driver_version == 0) {
            CHECK_EQ_INT(a.status, LAB_GPU_NO_DRIVER);
            CHECK_CONTAINS(a.reason, "no NVIDIA driver");
            CHECK_CONTAINS(a.reason, "sim backend");
        }
    }
}

static void test_failed_count_leaves_no_last_error(void)
{
    lab_gpu_availability a;
    lab_gpu_check(&a);
    if (a.count == 0 && a.driver_version == 0)
        return; /* without a driver every runtime call reports it; nothing to clear */
    CHECK_EQ_INT(cudaPeekAtLastError(), cudaSuccess);
}

static void test_try_gpu_falls_back(void)
{
    int n = lab_num_gpus();
    lab_device d = lab_try_gpu(n); /* one past the last GPU */
    CHECK_EQ_INT(d.kind, LAB_DEVICE_CPU);
    d = lab_try_gpu(-1);
    CHECK_EQ_INT(d.kind, LAB_DEVICE_CPU);
    d = lab_try_gpu(0);
    if (n > 0) {
        CHECK_EQ_INT(d.kind, LAB_DEVICE_CUDA);
        CHECK_EQ_INT(d.index, 0);
        d = lab_try_gpu(n - 1);
        CHECK_EQ_INT(d.index, n - 1);
    } else {
        CHECK_EQ_INT(d.kind, LAB_DEVICE_CPU);
    }
}

static void test_try_all_gpus(void)
{
    lab_device devs[64];
    int n = lab_num_gpus();
    int got = lab_try_all_gpus(devs, 64);
    if (n == 0) {
        CHECK_EQ_INT(got, 1);
        CHECK_EQ_INT(devs[0].kind, LAB_DEVICE_CPU);
    } else {
        CHECK_EQ_INT(got, n);
        for (int i = 0; i < got; i++) {
            CHECK_EQ_INT(devs[i].kind, LAB_DEVICE_CUDA);
            CHECK_EQ_INT(devs[i].index, i);
        }
    }
    CHECK_EQ_INT(lab_try_all_gpus(devs, 0), 0);
    CHECK_EQ_INT(lab_try_all_gpus(devs, 1), 1);
}

static void test_device_format(void)
{
    char buf[32];
    CHECK_STREQ(lab_device_format(buf, sizeof(buf), lab_cpu()), "cpu");
    CHECK_STREQ(lab_device_format(buf, sizeof(buf), lab_gpu(0)), "cuda:0");
    CHECK_STREQ(lab_device_format(buf, sizeof(buf), lab_gpu(13)), "cuda:13");
    CHECK_STREQ(lab_device_format(buf, 5, lab_gpu(13)), "cuda");
}

static void test_info_query(void)
{
    lab_device_info info;
    int n = lab_num_gpus();
    lab_error err;
    CHECK_EQ_INT(lab_device_info_query(&info, n, &err), LAB_ECUDA);
    CHECK_EQ_INT(err.cuda_error, cudaErrorInvalidDevice);
    CHECK_CONTAINS(err.msg, "cudaErrorInvalidDevice");
    CHECK_EQ_INT(lab_device_info_query(&info, -1, NULL), LAB_ECUDA);
    CHECK_EQ_INT(info.sm_count, 0); /* zeroed on failure */
    for (int i = 0; i < n; i++) {
        CHECK_EQ_INT(lab_device_info_query(&info, i, &err), LAB_OK);
        CHECK_EQ_INT(info.index, i);
        CHECK(strlen(info.name) > 0);
        CHECK(info.cc_major >= 1);
        CHECK(info.sm_count >= 1);
        CHECK_EQ_INT(info.warp_size, 32);
        CHECK(info.max_threads_per_block >= 512);
        CHECK(info.global_mem_bytes > 0);
        CHECK(info.mem_total_bytes > 0);
        CHECK(info.mem_free_bytes <= info.mem_total_bytes);
        CHECK(info.shared_mem_per_block >= 16 * 1024);
    }
}

static void test_peak_bandwidth(void)
{
    lab_device_info info;
    memset(&info, 0, sizeof(info));
    info.memory_clock_khz = 1000000; /* 1 GHz */
    info.memory_bus_width_bits = 256;
    CHECK_NEAR(lab_device_peak_bandwidth_gbs(&info), 64.0, 1e-9); /* 2 * 1e9 * 32 B */
}

static void child_exit_if_no_gpu(void *arg)
{
    (void)arg;
    if (lab_skip_without_gpu("prog"))
        exit(LAB_EXIT_SKIP);
    fprintf(stderr, "has a GPU\n");
}

static void test_exit_if_no_gpu(void)
{
    char err[2048];
    int rc = lab_test_run_child(child_exit_if_no_gpu, NULL, err, sizeof(err));
    if (lab_num_gpus() > 0) {
        CHECK_EQ_INT(rc, 0);
        CHECK_CONTAINS(err, "has a GPU");
    } else {
        CHECK_EQ_INT(rc, 77);
        CHECK_CONTAINS(err, "prog: skipped: no usable GPU for the ");
    }
}

static void child_hidden_devices(void *arg)
{
    (void)arg;
    lab_gpu_availability a;
    setenv("CUDA_VISIBLE_DEVICES", "", 1); /* before the first CUDA call of this process */
    lab_gpu_check(&a);
    fprintf(stderr, "count=%d status=%d reason=%s\n", a.count, (int)a.status, a.reason);
}

static void test_no_device_reason(void)
{
    char err[2048];
    lab_gpu_availability a;
    lab_gpu_check(&a);
    if (a.driver_version == 0 || strcmp(lab_backend_name(), "cuda") != 0)
        return; /* needs a real driver to hide devices from */
    CHECK_EQ_INT(lab_test_run_child(child_hidden_devices, NULL, err, sizeof(err)), 0);
    CHECK_CONTAINS(err, "count=0 status=3 ");
    CHECK_CONTAINS(err, "sees no CUDA-capable device (CUDA_VISIBLE_DEVICES is set to \"\")");
}

static void test_status_names(void)
{
    CHECK_STREQ(lab_gpu_status_name(LAB_GPU_OK), "ok");
    CHECK_STREQ(lab_gpu_status_name(LAB_GPU_NO_DRIVER), "no_driver");
    CHECK_STREQ(lab_gpu_status_name(LAB_GPU_DRIVER_TOO_OLD), "driver_too_old");
    CHECK_STREQ(lab_gpu_status_name(LAB_GPU_NO_DEVICE), "no_device");
    CHECK_STREQ(lab_gpu_status_name(LAB_GPU_ERROR), "error");
    CHECK_STREQ(lab_gpu_status_name((lab_gpu_status)99), "error");
}

int main(void)
{
    LAB_TEST_RUN(test_availability_is_consistent);
    LAB_TEST_RUN(test_failed_count_leaves_no_last_error);
    LAB_TEST_RUN(test_try_gpu_falls_back);
    LAB_TEST_RUN(test_try_all_gpus);
    LAB_TEST_RUN(test_device_format);
    LAB_TEST_RUN(test_info_query);
    LAB_TEST_RUN(test_peak_bandwidth);
    LAB_TEST_RUN(test_exit_if_no_gpu);
    LAB_TEST_RUN(test_no_device_reason);
    LAB_TEST_RUN(test_status_names);
    LAB_TEST_MAIN_END();
}
