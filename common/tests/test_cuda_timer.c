/* Unit tests of lab/cuda_timer.h. Needs a device: skipped (77) without one. */
#include "lab/check.h"
#include "lab/cuda_timer.h"
#include "lab/device.h"
#include "lab_test.h"

#include <stdlib.h>

typedef struct {
    void *buf;
    size_t bytes;
    int calls;
} memset_ctx;

static void queue_memset(void *arg)
{
    memset_ctx *c = arg;
    c->calls++;
    cudaMemsetAsync(c->buf, c->calls & 0xff, c->bytes, 0);
}

static void test_bad_counts_rejected(void)
{
    lab_time_stats s;
    lab_error err;
    memset_ctx c = { NULL, 0, 0 };
    CHECK_EQ_INT(lab_cuda_time_repeat(&s, queue_memset, &c, -1, 3, 0, NULL), LAB_EINVAL);
    CHECK_EQ_INT(lab_cuda_time_repeat(&s, queue_memset, &c, 0, 0, 0, &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "reps >= 1");
    CHECK_EQ_INT(c.calls, 0);
}

static void test_timer_measures_queued_work(void)
{
    lab_cuda_timer t;
    float ms = -1.0f;
    memset_ctx c = { NULL, (size_t)64 << 20, 0 };
    LAB_CHECK(cudaMalloc(&c.buf, c.bytes));
    CHECK_EQ_INT(lab_cuda_timer_create(&t), cudaSuccess);
    CHECK_EQ_INT(lab_cuda_timer_start(&t, 0), cudaSuccess);
    queue_memset(&c);
    CHECK_EQ_INT(lab_cuda_timer_stop(&t, 0), cudaSuccess);
    CHECK_EQ_INT(lab_cuda_timer_elapsed_ms(&t, &ms), cudaSuccess);
    CHECK(ms > 0.0f);
    lab_cuda_timer_destroy(&t);
    lab_cuda_timer_destroy(NULL);
    LAB_CHECK(cudaFree(c.buf));
}

static void test_repeat_statistics(void)
{
    lab_time_stats s;
    memset_ctx c = { NULL, (size_t)16 << 20, 0 };
    LAB_CHECK(cudaMalloc(&c.buf, c.bytes));
    CHECK_EQ_INT(lab_cuda_time_repeat(&s, queue_memset, &c, 2, 5, 0, NULL), LAB_OK);
    CHECK_EQ_INT(c.calls, 7);
    CHECK_EQ_INT(s.n, 5);
    CHECK(s.min > 0.0 && s.min <= s.median && s.median <= s.max);
    LAB_CHECK(cudaFree(c.buf));
}

int main(void)
{
    LAB_TEST_RUN(test_bad_counts_rejected);
    if (lab_num_gpus() == 0) {
        printf("skipped: no usable device for the %s backend\n", lab_backend_name());
        return LAB_TEST_SKIP;
    }
    LAB_TEST_RUN(test_timer_measures_queued_work);
    LAB_TEST_RUN(test_repeat_statistics);
    CHECK(strstr(lab_cuda_timer_clock_name(), "CUDA events") ||
          strstr(lab_cuda_timer_clock_name(), "simulator") ||
          strncmp(lab_cuda_timer_clock_name(), "modeled NVIDIA ", 15) == 0);
    /* The modeled GPU is named exactly when the label says "modeled". */
    CHECK((lab_cuda_timer_modeled_gpu() != NULL) ==
          (strncmp(lab_cuda_timer_clock_name(), "modeled ", 8) == 0));
#if defined(GPULAB_BACKEND_SIM)
    /* Under GPULAB_SIM_MODEL the label names the modeled GPU, else CPU time. */
    if (getenv("GPULAB_SIM_MODEL") && strcmp(getenv("GPULAB_SIM_MODEL"), "t4") == 0) {
        CHECK_STREQ(lab_cuda_timer_clock_name(), "modeled NVIDIA T4");
        CHECK(lab_cuda_timer_modeled_gpu() && !strcmp(lab_cuda_timer_modeled_gpu(), "NVIDIA T4"));
    } else if (!getenv("GPULAB_SIM_MODEL")) {
        CHECK_STREQ(lab_cuda_timer_clock_name(), "simulator CPU time");
    }
    if (getenv("GPULAB_SIM_MODEL") && strcmp(getenv("GPULAB_SIM_MODEL"), "off") == 0)
        CHECK(lab_cuda_timer_modeled_gpu() == NULL);
#else
    CHECK(lab_cuda_timer_modeled_gpu() == NULL);
#endif
    LAB_TEST_MAIN_END();
}
