/*
 * The fixture lab: the smallest program gpulab_add_lab can build, used by the
 * build's own tests to prove that one declaration yields a program per backend
 * and variant, that the solution's demo passes and the starter's fails, and
 * that a backend without a device skips (77). Not a lab students see.
 */
#include "scale.h"

#include "lab/compare.h"
#include "lab/device.h"
#include "lab/protocol.h"
#include "lab/rng.h"

#include <stdio.h>
#include <stdlib.h>

/* Graded mode: y = a x for the grader's x.npy and a.npy; y.npy and result.json out. */
static int graded(const lab_args *args)
{
    lab_npy_array x, a;
    lab_input(&x, args, "x", LAB_DTYPE_F32, 1);
    lab_input(&a, args, "a", LAB_DTYPE_F32, 0);
    float *y = malloc(sizeof(*y) * (x.count ? x.count : 1));
    if (!y) {
        fprintf(stderr, "out of memory\n");
        return LAB_EXIT_FAIL;
    }
    scale_on_device(y, x.data, *(const float *)a.data, (int)x.count);
    lab_output(args, "y", LAB_DTYPE_F32, 1, x.shape, y);
    lab_result *r = lab_result_create();
    lab_result_set_string(r, "backend", lab_backend_name());
    lab_result_set_int(r, "n", (long long)x.count);
    lab_result_save(args, r);
    lab_result_destroy(r);
    free(y);
    lab_npy_free(&x);
    lab_npy_free(&a);
    return LAB_EXIT_PASS;
}

int main(int argc, char **argv)
{
    lab_args args;
    lab_args_parse(&args, argc, argv, "fixture lab: y = a x on the device");
    if (lab_skip_without_gpu(GPULAB_LAB_NAME))
        return LAB_EXIT_SKIP;
    if (args.graded)
        return graded(&args);

    const int n = 5466; /* not a multiple of the block size */
    const float a = 2.5f;
    float *h_x = malloc(sizeof(*h_x) * n);
    float *h_y = malloc(sizeof(*h_y) * n);
    float *want = malloc(sizeof(*want) * n);
    lab_compare_report rep;
    lab_rng rng;
    int ok;

    if (!h_x || !h_y || !want) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    lab_rng_seed(&rng, 1, 0);
    lab_rng_fill_uniform(&rng, h_x, (size_t)n, -1.0f, 1.0f);
    for (int i = 0; i < n; i++) {
        want[i] = a * h_x[i];
        h_y[i] = 0.0f;
    }
    scale_on_device(h_y, h_x, a, n);
    ok = lab_allclose_f32(&rep, h_y, want, (size_t)n, 0.0, 1e-6, 0);
    if (!ok)
        lab_compare_print(stdout, &rep, "y");
    printf("%s (%s backend, %s)\n", ok ? "PASS" : "FAIL", lab_backend_name(), GPULAB_VARIANT);
    free(h_x);
    free(h_y);
    free(want);
    return ok ? 0 : 1;
}
