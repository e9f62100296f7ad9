/* Unit tests of lab/tensor.h. The CPU part runs everywhere; the device part
 * needs a device (skipped, 77, without one), and the two-device part runs
 * when there are two (on the sim backend: GPULAB_SIM_DEVICES=2). */
#include "lab/tensor.h"

#include "lab/device.h"
#include "lab_test.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>

static const char *mixed_cpu = "expected all tensors to be on the same device, but found at "
                               "least two devices, cuda:0 and cpu";

static int n_gpus;

/* Values whose sum and product are easy to get wrong: odd size, mixed signs. */
static void fill(float *x, size_t n, float scale)
{
    for (size_t i = 0; i < n; i++)
        x[i] = scale * (float)((int)(i * 7919 % 1001) - 500) / 37.0f;
}

static int bits_equal(const float *a, const float *b, size_t n)
{
    return memcmp(a, b, n * sizeof(float)) == 0;
}

static void test_parse(void)
{
    lab_device d = { LAB_DEVICE_CUDA, 42 };
    lab_error err;
    CHECK_EQ_INT(lab_tensor_device_parse(&d, "cpu", &err), LAB_OK);
    CHECK_EQ_INT(d.kind, LAB_DEVICE_CPU);
    const char *bad[] = { "cuda0",   "random",  "CPU",     "cuda:", "cuda:-1", "cuda:+1",
                          "cuda:01", "cuda: 1", "cuda:1x", "",      "gpu:0" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        d = lab_cpu();
        CHECK_EQ_INT(lab_tensor_device_parse(&d, bad[i], &err), LAB_EINVAL);
        CHECK_EQ_INT(d.kind, LAB_DEVICE_CPU); /* untouched */
        CHECK_CONTAINS(err.msg, bad[i]);
        CHECK_CONTAINS(err.msg, "\"cuda:N\"");
        CHECK_CONTAINS(err.msg, "valid devices here: cpu");
    }
    CHECK_EQ_INT(lab_tensor_device_parse(&d, "cuda:7", &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "\"cuda:7\"");
    if (n_gpus == 0) {
        CHECK_CONTAINS(err.msg, "this machine has 0 CUDA devices");
        CHECK_CONTAINS(err.msg, "valid devices here: cpu (no usable CUDA device: ");
        CHECK_EQ_INT(lab_tensor_device_parse(&d, "cuda:0", &err), LAB_EINVAL);
        return;
    }
    if (n_gpus == 1) {
        CHECK_CONTAINS(err.msg, "this machine has 1 CUDA device; valid devices here: cpu, cuda:0");
        CHECK(!strstr(err.msg, "cuda:1"));
        CHECK_EQ_INT(lab_tensor_device_parse(&d, "cuda:1", &err), LAB_EINVAL);
    }
    if (n_gpus == 2)
        CHECK_CONTAINS(err.msg, "this machine has 2 CUDA devices; valid devices here: cpu, "
                                "cuda:0, cuda:1");
    CHECK_EQ_INT(lab_tensor_device_parse(&d, "cuda", &err), LAB_OK);
    CHECK(d.kind == LAB_DEVICE_CUDA && d.index == 0);
    CHECK_EQ_INT(lab_tensor_device_parse(&d, "cuda:0", &err), LAB_OK);
    CHECK(d.kind == LAB_DEVICE_CUDA && d.index == 0);
    char name[32];
    snprintf(name, sizeof(name), "cuda:%d", n_gpus - 1);
    CHECK_EQ_INT(lab_tensor_device_parse(&d, name, &err), LAB_OK);
    CHECK_EQ_INT(d.index, n_gpus - 1);
    snprintf(name, sizeof(name), "cuda:%d", n_gpus);
    CHECK_EQ_INT(lab_tensor_device_parse(&d, name, &err), LAB_EINVAL);
}

static void test_cpu_tensor(void)
{
    enum { N = 1001 };
    static float h[N], got[N];
    size_t shape[1] = { N };
    lab_tensor *t = NULL, *z = NULL;
    lab_error err;
    fill(h, N, 1.0f);
    CHECK_EQ_INT(lab_tensor_create(&t, "cpu", 1, shape, h, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_device(t).kind, LAB_DEVICE_CPU);
    CHECK_EQ_INT(lab_tensor_ndim(t), 1);
    CHECK_EQ_INT(lab_tensor_dim(t, 0), N);
    CHECK_EQ_INT(lab_tensor_dim(t, 1), 0);
    CHECK_EQ_INT(lab_tensor_numel(t), N);
    CHECK(lab_tensor_data(t) != h); /* a copy */
    CHECK(bits_equal(lab_tensor_data(t), h, N));
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, t, &err), LAB_OK);
    CHECK(bits_equal(got, h, N));
    /* zeros when no data is given */
    CHECK_EQ_INT(lab_tensor_create(&z, "cpu", 1, shape, NULL, &err), LAB_OK);
    CHECK(lab_tensor_data(z)[0] == 0.0f && lab_tensor_data(z)[N - 1] == 0.0f);
    lab_tensor_destroy(z);
    /* bad shapes and devices give NULL and a message */
    z = t;
    CHECK_EQ_INT(lab_tensor_create(&z, "cpu", LAB_TENSOR_MAX_DIMS + 1, shape, h, &err), LAB_EINVAL);
    CHECK(z == NULL);
    z = t;
    CHECK_EQ_INT(lab_tensor_create(&z, "cuda0", 1, shape, h, &err), LAB_EINVAL);
    CHECK(z == NULL);
    CHECK_CONTAINS(err.msg, "cuda0");
    lab_tensor_destroy(t);
    lab_tensor_destroy(NULL);
}

/* lab_tensor_to a tensor's own device: the same object, one more reference. */
static void check_noop_to(const char *device)
{
    enum { N = 17 };
    float h[N], got[N];
    size_t shape[2] = { 1, N };
    lab_tensor *t, *same = NULL;
    lab_error err;
    fill(h, N, 2.0f);
    if (lab_tensor_create(&t, device, 2, shape, h, &err) != LAB_OK) {
        LAB_TEST_FAIL_AT("create on %s: %s", device, err.msg);
        return;
    }
    float *data = lab_tensor_data(t);
    size_t free0 = 0, free1 = 0, total;
    int sim_device = strcmp(device, "cpu") != 0 && strcmp(lab_backend_name(), "sim") == 0;
    if (sim_device) /* the simulator's accounting is exact: no new device memory */
        CHECK_EQ_INT(cudaMemGetInfo(&free0, &total), cudaSuccess);
    CHECK_EQ_INT(lab_tensor_to(&same, t, device, &err), LAB_OK);
    CHECK(same == t);
    CHECK(lab_tensor_data(same) == data);
    if (sim_device) {
        CHECK_EQ_INT(cudaMemGetInfo(&free1, &total), cudaSuccess);
        CHECK_EQ_INT(free1, free0);
    }
    lab_tensor_destroy(same); /* one reference gone; t still usable */
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, t, &err), LAB_OK);
    CHECK(bits_equal(got, h, N));
    lab_tensor_destroy(t);
}

static void test_cpu_to_cpu_is_noop(void)
{
    check_noop_to("cpu");
}

static void test_cpu_add_and_matmul(void)
{
    float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 0.5f, -1, 2, 0, 1, -3 };
    size_t s23[2] = { 2, 3 }, s32[2] = { 3, 2 };
    lab_tensor *ta, *tb, *tb2, *sum = NULL, *prod = NULL;
    lab_error err;
    CHECK_EQ_INT(lab_tensor_create(&ta, "cpu", 2, s23, a, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_create(&tb, "cpu", 2, s23, b, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_create(&tb2, "cpu", 2, s32, b, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_add(&sum, ta, tb, &err), LAB_OK);
    for (int i = 0; i < 6; i++)
        CHECK(lab_tensor_data(sum)[i] == a[i] + b[i]);
    /* (2, 3) x (3, 2): [[1 2 3], [4 5 6]] x [[0.5 -1], [2 0], [1 -3]] */
    CHECK_EQ_INT(lab_tensor_matmul(&prod, ta, tb2, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_dim(prod, 0), 2);
    CHECK_EQ_INT(lab_tensor_dim(prod, 1), 2);
    float want[4] = { 7.5f, -10, 18, -22 };
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(lab_tensor_data(prod)[i], want[i], 1e-6);
    lab_tensor_destroy(sum);
    lab_tensor_destroy(prod);
    sum = ta;
    CHECK_EQ_INT(lab_tensor_add(&sum, ta, tb2, &err), LAB_EINVAL); /* shapes differ */
    CHECK(sum == NULL);
    CHECK_CONTAINS(err.msg, "different shapes");
    CHECK_EQ_INT(lab_tensor_matmul(&prod, ta, tb, &err), LAB_EINVAL); /* (2,3) x (2,3) */
    CHECK(prod == NULL);
    lab_tensor_destroy(ta);
    lab_tensor_destroy(tb);
    lab_tensor_destroy(tb2);
}

/* ---- with a device ------------------------------------------------------- */

static void test_device_round_trip_bit_exact(void)
{
    enum { N = 4099 };
    static float h[N], got[N];
    size_t shape[1] = { N };
    lab_tensor *c, *d, *back;
    lab_error err;
    fill(h, N, 3.0f);
    h[0] = -0.0f;
    h[1] = 1e-40f; /* a subnormal survives a copy */
    CHECK_EQ_INT(lab_tensor_create(&c, "cpu", 1, shape, h, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_to(&d, c, "cuda:0", &err), LAB_OK);
    CHECK(d != c);
    CHECK(lab_tensor_device(d).kind == LAB_DEVICE_CUDA && lab_tensor_device(d).index == 0);
    struct cudaPointerAttributes attr;
    CHECK_EQ_INT(cudaPointerGetAttributes(&attr, lab_tensor_data(d)), cudaSuccess);
    CHECK_EQ_INT(attr.type, cudaMemoryTypeDevice);
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, d, &err), LAB_OK);
    CHECK(bits_equal(got, h, N));
    CHECK_EQ_INT(lab_tensor_to(&back, d, "cpu", &err), LAB_OK);
    CHECK(bits_equal(lab_tensor_data(back), h, N));
    lab_tensor_destroy(c);
    lab_tensor_destroy(d);
    lab_tensor_destroy(back);
    /* created on the device directly, and zeros there */
    CHECK_EQ_INT(lab_tensor_create(&d, "cuda", 1, shape, NULL, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, d, &err), LAB_OK);
    CHECK(got[0] == 0.0f && got[N - 1] == 0.0f);
    lab_tensor_destroy(d);
}

static void test_device_to_same_device_is_noop(void)
{
    check_noop_to("cuda:0");
    check_noop_to("cuda");
}

static void test_mixed_devices_refused(void)
{
    float h[3] = { 1, 2, 3 };
    size_t shape[1] = { 3 }, sq[2] = { 1, 3 }, col[2] = { 3, 1 };
    lab_tensor *x, *X, *r = NULL, *m1, *m2;
    lab_error err;
    CHECK_EQ_INT(lab_tensor_create(&x, "cpu", 1, shape, h, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_create(&X, "cuda:0", 1, shape, h, &err), LAB_OK);
    r = x;
    CHECK_EQ_INT(lab_tensor_add(&r, x, X, &err), LAB_EINVAL);
    CHECK(r == NULL);
    CHECK_STREQ(err.msg, mixed_cpu);
    CHECK_EQ_INT(lab_tensor_add(&r, X, x, &err), LAB_EINVAL);
    CHECK_STREQ(err.msg, mixed_cpu);
    CHECK_EQ_INT(lab_tensor_create(&m1, "cpu", 2, sq, h, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_create(&m2, "cuda:0", 2, col, h, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_matmul(&r, m1, m2, &err), LAB_EINVAL);
    CHECK(r == NULL);
    CHECK_STREQ(err.msg, mixed_cpu);
    lab_tensor_destroy(m1);
    lab_tensor_destroy(m2);
    lab_tensor_destroy(x);
    lab_tensor_destroy(X);
}

static void test_device_add_matmul(void)
{
    enum { M = 37, K = 29, N = 41 };
    static float a[M * K], b[K * N], a2[M * K], got[M * N], want[M * N];
    size_t sa[2] = { M, K }, sb[2] = { K, N };
    lab_tensor *ca, *cb, *ca2, *da, *db, *da2, *r, *w;
    lab_error err;
    fill(a, M * K, 1.0f);
    fill(b, K * N, -0.5f);
    fill(a2, M * K, 0.25f);
    CHECK_EQ_INT(lab_tensor_create(&ca, "cpu", 2, sa, a, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_create(&cb, "cpu", 2, sb, b, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_create(&ca2, "cpu", 2, sa, a2, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_to(&da, ca, "cuda:0", &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_to(&db, cb, "cuda:0", &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_to(&da2, ca2, "cuda:0", &err), LAB_OK);
    /* add: bit-exact against the CPU */
    CHECK_EQ_INT(lab_tensor_add(&r, da, da2, &err), LAB_OK);
    CHECK(lab_tensor_device(r).kind == LAB_DEVICE_CUDA);
    CHECK_EQ_INT(lab_tensor_add(&w, ca, ca2, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, r, &err), LAB_OK);
    CHECK(bits_equal(got, lab_tensor_data(w), M * K));
    lab_tensor_destroy(r);
    lab_tensor_destroy(w);
    /* matmul: row-major (M, K) x (K, N), close to the CPU's */
    CHECK_EQ_INT(lab_tensor_matmul(&r, da, db, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_dim(r, 0), M);
    CHECK_EQ_INT(lab_tensor_dim(r, 1), N);
    CHECK_EQ_INT(lab_tensor_matmul(&w, ca, cb, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, r, &err), LAB_OK);
    memcpy(want, lab_tensor_data(w), sizeof(want));
    int bad = 0;
    for (int i = 0; i < M * N; i++)
        bad += !(fabsf(got[i] - want[i]) <= 1e-4f + 1e-4f * fabsf(want[i]));
    CHECK_EQ_INT(bad, 0);
    lab_tensor_destroy(r);
    lab_tensor_destroy(w);
    lab_tensor_destroy(ca);
    lab_tensor_destroy(cb);
    lab_tensor_destroy(ca2);
    lab_tensor_destroy(da);
    lab_tensor_destroy(db);
    lab_tensor_destroy(da2);
}

static void test_two_devices(void)
{
    enum { N = 1023 };
    static float h[N], h2[N], got[N];
    size_t shape[1] = { N };
    lab_tensor *x0, *y1, *x1, *again, *sum = NULL, *noop;
    lab_error err;
    int cur = -1;
    fill(h, N, 1.5f);
    fill(h2, N, -2.0f);
    CHECK_EQ_INT(cudaSetDevice(0), cudaSuccess);
    CHECK_EQ_INT(lab_tensor_create(&x0, "cuda:0", 1, shape, h, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_create(&y1, "cuda:1", 1, shape, h2, &err), LAB_OK);
    struct cudaPointerAttributes attr;
    CHECK_EQ_INT(cudaPointerGetAttributes(&attr, lab_tensor_data(y1)), cudaSuccess);
    CHECK_EQ_INT(attr.device, 1);
    CHECK_EQ_INT(cudaGetDevice(&cur), cudaSuccess);
    CHECK_EQ_INT(cur, 0); /* the current device is restored */
    CHECK_EQ_INT(lab_tensor_add(&sum, x0, y1, &err), LAB_EINVAL);
    CHECK_STREQ(err.msg, "expected all tensors to be on the same device, but found at least two "
                         "devices, cuda:0 and cuda:1");
    CHECK_EQ_INT(lab_tensor_add(&sum, y1, x0, &err), LAB_EINVAL);
    CHECK_CONTAINS(err.msg, "devices, cuda:1 and cuda:0");
    /* the fix: move x to y's device (a peer copy), then add there */
    CHECK_EQ_INT(lab_tensor_to(&x1, x0, "cuda:1", &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_device(x1).index, 1);
    CHECK_EQ_INT(cudaPointerGetAttributes(&attr, lab_tensor_data(x1)), cudaSuccess);
    CHECK_EQ_INT(attr.device, 1);
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, x1, &err), LAB_OK);
    CHECK(bits_equal(got, h, N));
    CHECK_EQ_INT(lab_tensor_to(&noop, x1, "cuda:1", &err), LAB_OK); /* Z.cuda(1) is Z */
    CHECK(noop == x1);
    lab_tensor_destroy(noop);
    CHECK_EQ_INT(lab_tensor_add(&sum, x1, y1, &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_device(sum).index, 1);
    CHECK_EQ_INT(lab_tensor_copy_to_host(got, sum, &err), LAB_OK);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != h[i] + h2[i];
    CHECK_EQ_INT(bad, 0);
    /* and back from cuda:1 to cuda:0 */
    CHECK_EQ_INT(lab_tensor_to(&again, sum, "cuda:0", &err), LAB_OK);
    CHECK_EQ_INT(lab_tensor_device(again).index, 0);
    CHECK_EQ_INT(lab_tensor_copy_to_host(h2, again, &err), LAB_OK);
    CHECK(bits_equal(got, h2, N));
    CHECK_EQ_INT(cudaGetDevice(&cur), cudaSuccess);
    CHECK_EQ_INT(cur, 0);
    lab_tensor_destroy(again);
    lab_tensor_destroy(sum);
    lab_tensor_destroy(x1);
    lab_tensor_destroy(x0);
    lab_tensor_destroy(y1);
}

/* With --devices=N the test fails unless there are exactly N devices (the
 * simulator's GPULAB_SIM_DEVICES was not passed on). */
int main(int argc, char **argv)
{
    n_gpus = lab_num_gpus();
    printf("%s backend, %d device%s\n", lab_backend_name(), n_gpus, n_gpus == 1 ? "" : "s");
    if (argc > 1 && strncmp(argv[1], "--devices=", 10) == 0 && atoi(argv[1] + 10) != n_gpus) {
        printf("FAIL: expected %s devices\n", argv[1] + 10);
        return 1;
    }
    LAB_TEST_RUN(test_parse);
    LAB_TEST_RUN(test_cpu_tensor);
    LAB_TEST_RUN(test_cpu_to_cpu_is_noop);
    LAB_TEST_RUN(test_cpu_add_and_matmul);
    if (n_gpus == 0) {
        printf("skipped: no usable device for the %s backend\n", lab_backend_name());
        return LAB_TEST_SKIP;
    }
    LAB_TEST_RUN(test_device_round_trip_bit_exact);
    LAB_TEST_RUN(test_device_to_same_device_is_noop);
    LAB_TEST_RUN(test_mixed_devices_refused);
    LAB_TEST_RUN(test_device_add_matmul);
    if (n_gpus >= 2)
        LAB_TEST_RUN(test_two_devices);
    else
        printf("note: one device; the two-device tests run with GPULAB_SIM_DEVICES=2\n");
    LAB_TEST_MAIN_END();
}
