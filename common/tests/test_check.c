/* Unit tests of lab/check.h: the message format, the exit status, and that
 * each macro evaluates its argument exactly once. Needs no GPU. */
#include "lab_test_child.h"

#include "lab/check.h"
#include "lab/device.h"
#include "lab_test.h"

static cudaError_t counted_call(int *calls, cudaError_t result)
{
    (*calls)++;
    fprintf(stderr, "[call %d]\n", *calls);
    return result;
}

static int counted_cublas(int *calls, int status)
{
    (*calls)++;
    fprintf(stderr, "[call %d]\n", *calls);
    return status;
}

static void child_check_fails(void *arg)
{
    (void)arg;
    int calls = 0;
    LAB_CHECK(counted_call(&calls, cudaErrorInvalidValue));
    fprintf(stderr, "not reached\n");
}

static void child_check_succeeds(void *arg)
{
    (void)arg;
    int calls = 0;
    LAB_CHECK(counted_call(&calls, cudaSuccess));
    fprintf(stderr, "went on\n");
}

static void child_cublas_fails(void *arg)
{
    (void)arg;
    int calls = 0;
    LAB_CHECK_CUBLAS(counted_cublas(&calls, 7));
    fprintf(stderr, "not reached\n");
}

static void child_illegal_address(void *arg)
{
    (void)arg;
    LAB_CHECK(cudaErrorIllegalAddress);
}

static void test_check_failure_message_and_exit(void)
{
    char err[4096];
    int rc = lab_test_run_child(child_check_fails, NULL, err, sizeof(err));
    CHECK_EQ_INT(rc, 1);
    CHECK_CONTAINS(err, "[call 1]\n");
    CHECK(strstr(err, "[call 2]") == NULL); /* evaluated once */
    CHECK_CONTAINS(err, "test_check.c:");
    CHECK_CONTAINS(err, ": counted_call(&calls, cudaErrorInvalidValue) failed: "
                        "cudaErrorInvalidValue (1): invalid argument\n");
    CHECK_CONTAINS(err, "hint: an argument is out of range");
    CHECK(strstr(err, "not reached") == NULL);
}

static void test_check_success_goes_on(void)
{
    char err[4096];
    int rc = lab_test_run_child(child_check_succeeds, NULL, err, sizeof(err));
    CHECK_EQ_INT(rc, 0);
    CHECK_CONTAINS(err, "[call 1]\nwent on\n");
    CHECK(strstr(err, "[call 2]") == NULL);
}

static void test_cublas_failure_message(void)
{
    char err[4096];
    int rc = lab_test_run_child(child_cublas_fails, NULL, err, sizeof(err));
    CHECK_EQ_INT(rc, 1);
    CHECK(strstr(err, "[call 2]") == NULL);
    CHECK_CONTAINS(err, ": counted_cublas(&calls, 7) failed: CUBLAS_STATUS_INVALID_VALUE (7): ");
    CHECK(strstr(err, "not reached") == NULL);
}

static void test_sticky_error_hint(void)
{
    char err[4096];
    CHECK_EQ_INT(lab_test_run_child(child_illegal_address, NULL, err, sizeof(err)), 1);
    CHECK_CONTAINS(err, "cudaErrorIllegalAddress (700)");
    CHECK_CONTAINS(err, "sticky");
}

static void test_cublas_status_table(void)
{
    CHECK_STREQ(lab_cublas_status_name(0), "CUBLAS_STATUS_SUCCESS");
    CHECK_STREQ(lab_cublas_status_name(13), "CUBLAS_STATUS_EXECUTION_FAILED");
    CHECK_STREQ(lab_cublas_status_name(16), "CUBLAS_STATUS_LICENSE_ERROR");
    CHECK_STREQ(lab_cublas_status_name(2), "CUBLAS_STATUS_UNKNOWN");
    CHECK_CONTAINS(lab_cublas_status_string(1), "cublasCreate");
}

static void test_hints(void)
{
    CHECK(lab_cuda_error_hint(cudaErrorInvalidConfiguration) != NULL);
    CHECK_CONTAINS(lab_cuda_error_hint(cudaErrorInvalidConfiguration), "1024 threads");
    CHECK(lab_cuda_error_hint(cudaSuccess) == NULL);
}

static void launch_check_clean(void *arg)
{
    (void)arg;
    LAB_CHECK_LAUNCH();
    fprintf(stderr, "no launch error\n");
}

static void test_launch_check_without_error(void)
{
    char err[4096];
    if (lab_num_gpus() == 0)
        return; /* with no driver, cudaGetLastError reports the failed initialization */
    CHECK_EQ_INT(lab_test_run_child(launch_check_clean, NULL, err, sizeof(err)), 0);
    CHECK_CONTAINS(err, "no launch error");
}

int main(void)
{
    LAB_TEST_RUN(test_check_failure_message_and_exit);
    LAB_TEST_RUN(test_check_success_goes_on);
    LAB_TEST_RUN(test_cublas_failure_message);
    LAB_TEST_RUN(test_sticky_error_hint);
    LAB_TEST_RUN(test_cublas_status_table);
    LAB_TEST_RUN(test_hints);
    LAB_TEST_RUN(test_launch_check_without_error);
    LAB_TEST_MAIN_END();
}
