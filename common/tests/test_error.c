/* Unit tests of lab/error.h. */
#include "lab/error.h"
#include "lab_test.h"

#include <string.h>

static void test_set_returns_code_and_formats(void)
{
    lab_error err;
    lab_error_clear(&err);
    CHECK_EQ_INT(err.code, LAB_OK);
    CHECK_STREQ(err.msg, "");
    int rc = lab_error_set(&err, LAB_EFORMAT, "%s: bad magic at byte %d", "x.npy", 3);
    CHECK_EQ_INT(rc, LAB_EFORMAT);
    CHECK_EQ_INT(err.code, LAB_EFORMAT);
    CHECK_STREQ(err.msg, "x.npy: bad magic at byte 3");
}

static void test_cuda_error_is_kept(void)
{
    lab_error err;
    CHECK_EQ_INT(lab_error_set_cuda(&err, 2, "cudaMalloc of %d bytes: %s", 64, "out of memory"),
                 LAB_ECUDA);
    CHECK_EQ_INT(err.code, LAB_ECUDA);
    CHECK_EQ_INT(err.cuda_error, 2);
    CHECK_STREQ(err.msg, "cudaMalloc of 64 bytes: out of memory");
    lab_error_set(&err, LAB_EINVAL, "not a CUDA error"); /* a later error clears it */
    CHECK_EQ_INT(err.cuda_error, 0);
    lab_error_set_cuda(&err, 700, "x");
    lab_error_clear(&err);
    CHECK_EQ_INT(err.code, LAB_OK);
    CHECK_EQ_INT(err.cuda_error, 0);
    CHECK_EQ_INT(lab_error_set_cuda(NULL, 1, "dropped"), LAB_ECUDA);
}

static void test_null_record_is_allowed(void)
{
    CHECK_EQ_INT(lab_error_set(NULL, LAB_EIO, "ignored %d", 1), LAB_EIO);
    lab_error_clear(NULL);
}

static void test_long_message_is_truncated(void)
{
    char big[2 * LAB_ERROR_MSG_MAX];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    lab_error err;
    lab_error_set(&err, LAB_EINVAL, "%s", big);
    CHECK_EQ_INT(strlen(err.msg), LAB_ERROR_MSG_MAX - 1);
}

static void test_status_names(void)
{
    CHECK_STREQ(lab_status_name(LAB_OK), "LAB_OK");
    CHECK_STREQ(lab_status_name(LAB_EUNSUPPORTED), "LAB_EUNSUPPORTED");
    CHECK_STREQ(lab_status_name(LAB_ECUDA), "LAB_ECUDA");
    CHECK_STREQ(lab_status_name(-99), "LAB_E?");
}

int main(void)
{
    LAB_TEST_RUN(test_set_returns_code_and_formats);
    LAB_TEST_RUN(test_cuda_error_is_kept);
    LAB_TEST_RUN(test_null_record_is_allowed);
    LAB_TEST_RUN(test_long_message_is_truncated);
    LAB_TEST_RUN(test_status_names);
    LAB_TEST_MAIN_END();
}
