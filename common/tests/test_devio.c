/* Unit tests of lab/devio.h: copies both ways bit for bit, the 0xff fill of
 * output buffers, graded-mode inputs and outputs through .npy files, and the
 * messages and exit statuses of an output nobody wrote, a wrong input and a
 * failing CUDA call. The device part is skipped (77) without a device. */
#define _POSIX_C_SOURCE 200809L
#include "lab/devio.h"
#include "lab/device.h"
#include "lab_test.h"
#include "lab_test_child.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char scratch[64]; /* a fresh folder: inputs and outputs of the graded tests */

/* Runs this program again as `<self> MODE SCRATCH` with stderr captured into
 * buf; returns its exit status (128 + signal when killed). A fresh process,
 * not a fork: a forked copy of a process with device state (the simulator's
 * worker threads, a CUDA context) cannot use the device. */
static int run_self(const char *mode, char *buf, size_t len)
{
    int fds[2], status = 0;
    size_t used = 0;
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        execl("/proc/self/exe", "test-devio", mode, scratch, (char *)NULL);
        _exit(126);
    }
    close(fds[1]);
    ssize_t got;
    while (used < len - 1 && (got = read(fds[0], buf + used, len - 1 - used)) > 0)
        used += (size_t)got;
    buf[used] = '\0';
    close(fds[0]);
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static void test_unwritten(void)
{
    unsigned char b[9];
    memset(b, 0xff, sizeof(b));
    CHECK_EQ_INT(lab_unwritten(b, sizeof(b)), 1);
    b[8] = 0xfe; /* the last byte of the last element written */
    CHECK_EQ_INT(lab_unwritten(b, sizeof(b)), 0);
    b[8] = 0xff;
    b[0] = 0;
    CHECK_EQ_INT(lab_unwritten(b, sizeof(b)), 0);
    CHECK_EQ_INT(lab_unwritten(b, 0), 0); /* nothing to write: not "nothing written" */
}

static void test_round_trip_bit_exact(void)
{
    enum { N = 1000 };
    uint32_t in[N], out[N];
    for (uint32_t i = 0; i < N; i++)
        in[i] = i * 2654435761u; /* NaNs, denormals, every exponent */
    void *d = lab_to_device(in, sizeof(in));
    memset(out, 0, sizeof(out));
    lab_from_device(out, d, sizeof(out));
    CHECK(memcmp(in, out, sizeof(in)) == 0);
    lab_device_free(d);
    lab_device_free(NULL);
    d = lab_to_device(NULL, 0); /* an empty array is a valid allocation */
    CHECK(d != NULL);
    lab_from_device(out, d, 0);
    lab_device_free(d);
}

static void test_output_buffer_starts_unwritten(void)
{
    float h[37];
    float *d = lab_device_output(sizeof(h));
    lab_from_device(h, d, sizeof(h));
    CHECK_EQ_INT(lab_unwritten(h, sizeof(h)), 1);
    CHECK(h[0] != h[0]); /* as a float, a NaN */
    CHECK(cudaMemset(d + 36, 0, sizeof(float)) == cudaSuccess);
    lab_from_device(h, d, sizeof(h));
    CHECK_EQ_INT(lab_unwritten(h, sizeof(h)), 0);
    CHECK(h[36] == 0.0f && h[35] != h[35]);
    lab_device_free(d);
}

static lab_args graded_args(void)
{
    lab_args a;
    memset(&a, 0, sizeof(a));
    a.graded = 1;
    snprintf(a.in_dir, sizeof(a.in_dir), "%s", scratch);
    snprintf(a.out_dir, sizeof(a.out_dir), "%s", scratch);
    a.program = "test-devio";
    return a;
}

static void test_input_to_device(void)
{
    const float x[6] = { 1, 2, 3, 4, 5, -0.0f };
    const size_t shape[2] = { 2, 3 };
    char path[128];
    float back[6];
    lab_npy_array arr;
    lab_args args = graded_args();
    snprintf(path, sizeof(path), "%s/x.npy", scratch);
    CHECK_EQ_INT(lab_npy_write(path, NULL, LAB_DTYPE_F32, 2, shape, x), LAB_OK);
    float *d = lab_input_to_device(&arr, &args, "x", LAB_DTYPE_F32, 2);
    CHECK_EQ_INT(arr.ndim, 2);
    CHECK_EQ_INT(arr.shape[0], 2);
    CHECK_EQ_INT(arr.shape[1], 3);
    CHECK(memcmp(arr.data, x, sizeof(x)) == 0);
    lab_from_device(back, d, sizeof(back));
    CHECK(memcmp(back, x, sizeof(x)) == 0);
    lab_device_free(d);
    lab_npy_free(&arr);
}

static void read_x_as_int(void *arg)
{
    lab_npy_array arr;
    lab_args args = graded_args();
    (void)arg;
    lab_device_free(lab_input_to_device(&arr, &args, "x", LAB_DTYPE_I32, 2));
}

static void test_input_of_the_wrong_dtype(void)
{
    char msg[1024];
    CHECK_EQ_INT(lab_test_run_child(read_x_as_int, NULL, msg, sizeof(msg)), LAB_EXIT_USAGE);
    CHECK_CONTAINS(msg, "x.npy: expected int32");
}

static void test_output_from_device(void)
{
    const float u[4] = { 0.5f, -1.0f, 3.0f, 0.0f };
    const size_t shape[1] = { 4 };
    char path[128];
    lab_npy_array arr;
    lab_args args = graded_args();
    float *d = lab_device_output(sizeof(u));
    lab_from_device(NULL, d, 0);
    CHECK(cudaMemcpy(d, u, sizeof(u), cudaMemcpyHostToDevice) == cudaSuccess);
    lab_output_from_device(&args, "u", LAB_DTYPE_F32, 1, shape, d, "never printed");
    lab_device_free(d);
    snprintf(path, sizeof(path), "%s/u.npy", scratch);
    CHECK_EQ_INT(lab_npy_read(&arr, NULL, path), LAB_OK);
    CHECK_EQ_INT(arr.count, 4);
    CHECK(arr.data && memcmp(arr.data, u, sizeof(u)) == 0);
    lab_npy_free(&arr);
}

static void output_nobody_wrote(const char *why)
{
    const size_t shape[2] = { 3, 5 };
    lab_args args = graded_args();
    float *d = lab_device_output(sizeof(float) * 15);
    lab_output_from_device(&args, "C", LAB_DTYPE_F32, 2, shape, d, why);
}

static void test_output_nobody_wrote(void)
{
    char msg[1024], path[128];
    struct stat st;
    snprintf(path, sizeof(path), "%s/C.npy", scratch);
    CHECK_EQ_INT(run_self("--nobody-wrote-why", msg, sizeof(msg)), LAB_EXIT_FAIL);
    CHECK_CONTAINS(msg, "test-devio: nothing was written to C.npy (every byte still holds the "
                        "0xff the harness filled it with): is matmul still the TODO?\n");
    CHECK(stat(path, &st) == 0 && st.st_size == 128 + 15 * 4); /* written all the same */
    CHECK_EQ_INT(run_self("--nobody-wrote", msg, sizeof(msg)), LAB_EXIT_FAIL);
    CHECK_CONTAINS(msg, "filled it with)\n");
}

static const int too_much_line = __LINE__ + 3; /* the line of the call below */
static void allocate_too_much(void)
{
    lab_device_free(lab_device_output((size_t)1 << 52)); /* 4 PiB */
}

static void test_failing_call_names_the_callers_line(void)
{
    char msg[1024], want[64];
    CHECK_EQ_INT(run_self("--too-much", msg, sizeof(msg)), 1);
    snprintf(want, sizeof(want), "test_devio.c:%d: cudaMalloc of %zu bytes failed: ", too_much_line,
             (size_t)1 << 52);
    CHECK_CONTAINS(msg, want);
    CHECK_CONTAINS(msg, "cudaErrorMemoryAllocation");
}

int main(int argc, char **argv)
{
    if (argc == 3) { /* a second run of this program, from run_self() */
        snprintf(scratch, sizeof(scratch), "%s", argv[2]);
        if (strcmp(argv[1], "--too-much") == 0)
            allocate_too_much();
        else
            output_nobody_wrote(
                strcmp(argv[1], "--nobody-wrote-why") == 0 ? "is matmul still the TODO?" : NULL);
        return 0;
    }
    LAB_TEST_RUN(test_unwritten);
    if (lab_num_gpus() == 0) {
        printf("skipped: no usable device for the %s backend\n", lab_backend_name());
        return LAB_TEST_SKIP;
    }
    snprintf(scratch, sizeof(scratch), "/tmp/gpulab-devio-XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        return 1;
    }
    LAB_TEST_RUN(test_round_trip_bit_exact);
    LAB_TEST_RUN(test_output_buffer_starts_unwritten);
    LAB_TEST_RUN(test_input_to_device);
    LAB_TEST_RUN(test_input_of_the_wrong_dtype);
    LAB_TEST_RUN(test_output_from_device);
    LAB_TEST_RUN(test_output_nobody_wrote);
    LAB_TEST_RUN(test_failing_call_names_the_callers_line);
    const char *files[] = { "x.npy", "u.npy", "C.npy" };
    char path[128];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s/%s", scratch, files[i]);
        unlink(path);
    }
    rmdir(scratch);
    LAB_TEST_MAIN_END();
}
