/* Unit tests of lab/stats.h: the paths that need no kernel. The counts
 * themselves are tested end to end by lab 04 (its demo reads them through
 * lab_kernel_stats_rerun). Runs with and without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include "lab/device.h"
#include "lab/stats.h"
#include "lab_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The second run of this program (lab_kernel_stats_rerun's child). */
static int child(const char *arg)
{
    const char *stats = getenv("GPULAB_SIM_STATS"), *model = getenv("GPULAB_SIM_MODEL");
    printf("child %s stats=%s model=%s report=%s\n", arg, stats ? stats : "-", model ? model : "-",
           getenv("GPULAB_SIM_MODEL_REPORT") ? "set" : "unset");
    fprintf(stderr, "this line is discarded\n");
    return strcmp(arg, "--child-fail") == 0 ? 3 : 0;
}

static void test_no_counts_outside_a_counting_run(void)
{
    lab_kernel_stats st;
    memset(&st, 0x5a, sizeof(st));
    lab_error err = { 0 };
    CHECK_EQ_INT(lab_kernel_stats_last(&st, &err), LAB_EUNSUPPORTED);
    CHECK_EQ_INT(err.code, LAB_EUNSUPPORTED);
    CHECK(strlen(err.msg) > 0);
    CHECK_EQ_HEX(st.threads, 0x5a5a5a5a5a5a5a5aull); /* untouched on error */
}

static void test_per_request(void)
{
    CHECK_NEAR(lab_kernel_stats_per_request(33, 2), 16.5, 1e-12);
    CHECK_NEAR(lab_kernel_stats_per_request(7, 0), 0.0, 0.0);
}

static void test_rerun_bad_arguments(void)
{
    char buf[8];
    lab_error err = { 0 };
    CHECK_EQ_INT(lab_kernel_stats_rerun(buf, sizeof(buf), "", &err), LAB_EINVAL);
    CHECK_EQ_INT(lab_kernel_stats_rerun(buf, 0, "--x", &err), LAB_EINVAL);
    CHECK_EQ_INT(lab_kernel_stats_rerun(NULL, 8, "--x", &err), LAB_EINVAL);
}

static void test_rerun_counts_on_the_sim_only(void)
{
    char buf[256];
    lab_error err = { 0 };
    setenv("GPULAB_SIM_MODEL_REPORT", "/nonexistent/report.json", 1);
    int rc = lab_kernel_stats_rerun(buf, sizeof(buf), "--child", &err);
    if (!lab_backend_is_sim()) {
        CHECK_EQ_INT(rc, LAB_EUNSUPPORTED);
        CHECK_CONTAINS(err.msg, "only the simulator counts");
        return;
    }
    CHECK_EQ_INT(rc, LAB_OK);
    CHECK_STREQ(buf, "child --child stats=1 model=off report=unset\n");
    /* A failing second run is an error, with what it printed kept. */
    CHECK_EQ_INT(lab_kernel_stats_rerun(buf, sizeof(buf), "--child-fail", &err), LAB_EIO);
    CHECK_CONTAINS(err.msg, "exited with status 3");
    CHECK_CONTAINS(buf, "child --child-fail");
    /* Output longer than the buffer is cut, never overrun. */
    char small[6];
    CHECK_EQ_INT(lab_kernel_stats_rerun(small, sizeof(small), "--child", &err), LAB_OK);
    CHECK_STREQ(small, "child");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strncmp(argv[1], "--child", 7) == 0)
        return child(argv[1]);
    LAB_TEST_RUN(test_no_counts_outside_a_counting_run);
    LAB_TEST_RUN(test_per_request);
    LAB_TEST_RUN(test_rerun_bad_arguments);
    LAB_TEST_RUN(test_rerun_counts_on_the_sim_only);
    LAB_TEST_MAIN_END();
}
