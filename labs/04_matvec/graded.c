/*
 * Lab 04's harness (students do not edit it): graded mode, for the grader.
 * The inputs go to the device and the outputs come back through the kit's
 * lab/devio.h, whose output check reports a result nobody wrote.
 *
 *   matvec: version.npy (int32 scalar, 1..3), A.npy (N, M) and v.npy (M), or
 *     several problems: shapes.npy (int32 (k, 2), rows (N, M)) and for each
 *     A_<N>x<M>.npy, v_<N>x<M>.npy; writes u.npy (or each u_<N>x<M>.npy) and
 *     result.json: the version, its launch, and with GPULAB_SIM_STATS=1 on
 *     the sim backend the simulator's load and store requests and sectors,
 *     summed over the problems;
 *   matmul (when B.npy is there): A.npy (n, k), B.npy (k, m); writes C.npy.
 */
#define _POSIX_C_SOURCE 200809L /* access */
#include "harness.h"
#include "matvec.h"

#include "lab/check.h"
#include "lab/devio.h"
#include "lab/device.h"
#include "lab/protocol.h"
#include "lab/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int input_exists(const lab_args *args, const char *name)
{
    char path[LAB_ARGS_PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s.npy", args->in_dir, name);
    return access(path, R_OK) == 0;
}

static int graded_matmul(const lab_args *args)
{
    lab_npy_array A, B;
    cublasHandle_t h;
    float *d_A = lab_input_to_device(&A, args, "A", LAB_DTYPE_F32, 2);
    float *d_B = lab_input_to_device(&B, args, "B", LAB_DTYPE_F32, 2);
    if (A.shape[1] != B.shape[0] || A.count == 0 || B.count == 0) {
        fprintf(stderr, "A.npy (%zu, %zu) and B.npy (%zu, %zu) cannot be multiplied\n", A.shape[0],
                A.shape[1], B.shape[0], B.shape[1]);
        return LAB_EXIT_USAGE;
    }
    int n = (int)A.shape[0], k = (int)A.shape[1], m = (int)B.shape[1];
    size_t c_shape[2] = { (size_t)n, (size_t)m };
    float *d_C = lab_device_output(sizeof(float) * (size_t)n * m);
    LAB_CHECK_CUBLAS(cublasCreate(&h));
    matmul_cublas(h, d_C, d_A, d_B, n, k, m);
    lab_result *r = lab_result_create();
    lab_result_set_string(r, "backend", lab_backend_name());
    lab_result_set_string(r, "task", "matmul");
    lab_result_set_int(r, "n", n);
    lab_result_set_int(r, "k", k);
    lab_result_set_int(r, "m", m);
    lab_result_save(args, r);
    lab_result_destroy(r);
    lab_output_from_device(args, "C", LAB_DTYPE_F32, 2, c_shape, d_C,
                           "is matmul_cublas in matmul.c still the TODO?");
    lab_device_free(d_A);
    lab_device_free(d_B);
    lab_device_free(d_C);
    LAB_CHECK_CUBLAS(cublasDestroy(h));
    lab_npy_free(&A);
    lab_npy_free(&B);
    return LAB_EXIT_PASS;
}

/* One problem of a graded matvec run: A<suffix>.npy, v<suffix>.npy -> u<suffix>.npy. */
static void graded_problem(const lab_args *args, int version, const char *suffix,
                           lab04_launch *launch, lab04_sector_counts *sum)
{
    char name[48], why[96];
    lab_npy_array A, v;
    snprintf(name, sizeof(name), "A%s", suffix);
    float *d_A = lab_input_to_device(&A, args, name, LAB_DTYPE_F32, 2);
    snprintf(name, sizeof(name), "v%s", suffix);
    float *d_v = lab_input_to_device(&v, args, name, LAB_DTYPE_F32, 1);
    int N = (int)A.shape[0], M = (int)A.shape[1];
    if (v.shape[0] != A.shape[1] || N < 1 || M < 1) {
        fprintf(stderr, "A%s.npy (%zu, %zu) and v%s.npy (%zu) do not fit u = A v\n", suffix,
                A.shape[0], A.shape[1], suffix, v.shape[0]);
        exit(LAB_EXIT_USAGE);
    }
    size_t u_shape[1] = { (size_t)N };
    float *d_u = lab_device_output(sizeof(float) * N); /* NaN where nothing is written */
    *launch = matvec(version, d_u, d_A, d_v, N, M);
    LAB_CHECK(cudaDeviceSynchronize());
    lab04_sector_counts c = lab04_last_kernel_counts();
    sum->valid = c.valid;
    sum->load_requests += c.load_requests;
    sum->load_sectors += c.load_sectors;
    sum->store_requests += c.store_requests;
    sum->store_sectors += c.store_sectors;
    snprintf(name, sizeof(name), "u%s", suffix);
    snprintf(why, sizeof(why), "is matvec_kernel%d in matvec.cu still the TODO?", version);
    lab_output_from_device(args, name, LAB_DTYPE_F32, 1, u_shape, d_u, why);
    lab_device_free(d_A);
    lab_device_free(d_v);
    lab_device_free(d_u);
    lab_npy_free(&A);
    lab_npy_free(&v);
}

int lab04_graded(const lab_args *args)
{
    if (input_exists(args, "B"))
        return graded_matmul(args);
    lab_npy_array ver;
    lab_input(&ver, args, "version", LAB_DTYPE_I32, 0);
    int version = *(const int *)ver.data;
    lab_npy_free(&ver);
    if (version < 1 || version > LAB04_VERSIONS) {
        fprintf(stderr, "version.npy holds %d; versions are 1 to %d\n", version, LAB04_VERSIONS);
        return LAB_EXIT_USAGE;
    }
    lab04_launch launch = { 0, 0, 0 };
    lab04_sector_counts sum = { 0, 0, 0, 0, 0 };
    int problems = 0;
    if (input_exists(args, "A")) {
        graded_problem(args, version, "", &launch, &sum);
        problems = 1;
    } else {
        /* shapes.npy: int32 (k, 2), one (N, M) per lab04_problem A_<N>x<M>.npy ... */
        lab_npy_array shapes;
        char suffix[32];
        lab_input(&shapes, args, "shapes", LAB_DTYPE_I32, 2);
        if (shapes.shape[1] != 2) {
            fprintf(stderr, "shapes.npy must be (k, 2): one (N, M) per row\n");
            return LAB_EXIT_USAGE;
        }
        const int *nm = shapes.data;
        for (; problems < (int)shapes.shape[0]; problems++) {
            snprintf(suffix, sizeof(suffix), "_%dx%d", nm[2 * problems], nm[2 * problems + 1]);
            graded_problem(args, version, suffix, &launch, &sum);
        }
        lab_npy_free(&shapes);
    }
    lab_result *r = lab_result_create();
    lab_result_set_string(r, "backend", lab_backend_name());
    lab_result_set_string(r, "task", "matvec");
    lab_result_set_int(r, "version", version);
    lab_result_set_string(r, "kernel", matvec_describe(version));
    lab_result_set_int(r, "problems", problems);
    lab_result_set_int(r, "blocks", launch.blocks); /* of the last lab04_problem */
    lab_result_set_int(r, "threads", launch.threads);
    lab_result_set_int(r, "shared_bytes", (long long)launch.shared_bytes);
    /* The simulator's counts (GPULAB_SIM_STATS=1, sim backend), summed over
     * the problems: a request is one warp executing one global load (store)
     * instruction, a sector 32 bytes of device memory. */
    lab_result_set_bool(r, "sectors_counted", sum.valid);
    if (sum.valid) {
        lab_result_set_int(r, "load_requests", (long long)sum.load_requests);
        lab_result_set_int(r, "load_sectors", (long long)sum.load_sectors);
        lab_result_set_int(r, "store_requests", (long long)sum.store_requests);
        lab_result_set_int(r, "store_sectors", (long long)sum.store_sectors);
        lab_result_set_number(r, "sectors_per_load",
                              lab_kernel_stats_per_request(sum.load_sectors, sum.load_requests));
    }
    lab_result_save(args, r);
    lab_result_destroy(r);
    return problems > 0 ? LAB_EXIT_PASS : LAB_EXIT_USAGE;
}
