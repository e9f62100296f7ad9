/* Unit tests of labs/03_kernels/diagnose.h: each way c can be wrong, made by
 * hand the way a kernel with that mistake leaves it, and what the diagnosis
 * must say (and must not say) about it. */
#include "diagnose.h"
#include "lab_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char brief[96], detail[640];

/* c as the harness leaves it (every element the marker) and want = i + 0.5. */
static void fresh(float *c, float *want, long long n)
{
    uint32_t bits = LAB03_MARKER_BITS;
    for (long long i = 0; i < n; i++) {
        memcpy(&c[i], &bits, sizeof(bits));
        want[i] = (float)i + 0.5f;
    }
}

static int diagnose(const lab03_run *r, const float *c, const float *want)
{
    return lab03_diagnose(r, c, want, 0.0, brief, sizeof(brief), detail, sizeof(detail));
}

static void test_right(void)
{
    float c[40], want[40];
    lab03_run r = { LAB03_OP_VEC_ADD, 40, 0, 0, 2, 1, 32, 1 };
    fresh(c, want, 40);
    memcpy(c, want, sizeof(c));
    CHECK_EQ_INT(diagnose(&r, c, want), 1);
    CHECK_STREQ(brief, "ok");
    CHECK_STREQ(detail, "");
}

static void test_nothing_written(void)
{
    float c[40], want[40];
    lab03_run r = { LAB03_OP_VEC_ADD, 40, 0, 0, 2, 1, 32, 1 };
    fresh(c, want, 40);
    CHECK_EQ_INT(diagnose(&r, c, want), 0);
    CHECK_STREQ(brief, "WRONG: no thread wrote c (TODO 2)");
    CHECK_CONTAINS(detail, "64 threads were launched, but no element of c was written");
    r.gx = 0; /* ceil_div rounding 31 / 32 down */
    CHECK_EQ_INT(diagnose(&r, c, want), 0);
    CHECK_STREQ(brief, "WRONG: nothing launched (TODO 1)");
    CHECK_CONTAINS(detail, "TODO 1, ceil_div");
}

/* A right kernel on a grid too small: exactly the tail is unwritten. */
static void test_grid_too_small(void)
{
    float c[5466], want[5466];
    lab03_run r = { LAB03_OP_VEC_ADD, 5466, 0, 0, 5, 1, 1024, 1 };
    fresh(c, want, 5466);
    memcpy(c, want, sizeof(float) * 5120);
    CHECK_EQ_INT(diagnose(&r, c, want), 0);
    CHECK_STREQ(brief, "WRONG: grid too small (TODO 1)");
    CHECK_CONTAINS(detail, "c[5120] .. c[5465] were never written: 5 blocks x 1024 threads = 5120 "
                           "threads reach only the first 5120 of 5466 elements; blocks must be "
                           "ceil(5466 / 1024) = 6 (TODO 1, ceil_div)");
}

/* threadIdx.x * blockDim.x + blockIdx.x on a right grid: the grid is not to
 * blame, the index is, and the diagnosis recognises the swap. */
static void test_swapped_index(void)
{
    float c[31], want[31];
    lab03_run r = { LAB03_OP_VEC_ADD, 31, 0, 0, 1, 1, 32, 1 };
    fresh(c, want, 31);
    c[0] = want[0]; /* thread 0 of block 0 is the only one whose swapped i is < 31 */
    CHECK_EQ_INT(diagnose(&r, c, want), 0);
    CHECK_STREQ(brief, "WRONG: 30 never written (TODO 2)");
    CHECK_CONTAINS(detail, "30 elements were never written although the 1 x 32 = 32 threads cover "
                           "all of c: the index maps threads to the wrong elements. c[1] belongs "
                           "to block 0, thread 1: i = blockIdx.x * blockDim.x + threadIdx.x = "
                           "0 * 32 + 1 (TODO 2, vec_add_kernel)");
    CHECK_CONTAINS(detail, "blockIdx.x and threadIdx.x are swapped");
    CHECK(strstr(detail, "TODO 1") == NULL && strstr(detail, "too small") == NULL);

    /* Another wrong index (i = 2 * threadIdx.x): not recognised as the swap. */
    float d[64], wd[64];
    lab03_run r2 = { LAB03_OP_VEC_ADD, 64, 0, 0, 2, 1, 32, 1 };
    fresh(d, wd, 64);
    for (int t = 0; t < 32; t++)
        d[2 * t] = wd[2 * t];
    CHECK_EQ_INT(diagnose(&r2, d, wd), 0);
    CHECK_CONTAINS(detail, "c[1] belongs to block 0, thread 1");
    CHECK(strstr(detail, "swapped") == NULL);
}

/* Every element written, some with a wrong value (a[i] + b[i + 1], say). */
static void test_wrong_values(void)
{
    float c[100], want[100];
    lab03_run r = { LAB03_OP_VEC_ADD, 100, 0, 0, 1, 1, 128, 1 };
    fresh(c, want, 100);
    memcpy(c, want, sizeof(c));
    c[70] = 3.0f;
    CHECK_EQ_INT(diagnose(&r, c, want), 0);
    CHECK_STREQ(brief, "WRONG: 1 of 100 wrong (TODO 2)");
    CHECK_CONTAINS(detail, "the first, c[70], is 3, want 70.5: block 0, thread 70");
    /* Within rtol it is right. */
    c[70] = want[70] * (1.0f + 1e-7f);
    CHECK_EQ_INT(lab03_diagnose(&r, c, want, 1e-6, brief, sizeof(brief), detail, sizeof(detail)),
                 1);
}

/* The grid-stride kernel without its loop: one element per thread. */
static void test_grid_stride_no_loop(void)
{
    float c[1000], want[1000];
    lab03_run r = { LAB03_OP_GRID_STRIDE, 1000, 0, 0, 2, 1, 128, 1 };
    fresh(c, want, 1000);
    memcpy(c, want, sizeof(float) * 256);
    CHECK_EQ_INT(diagnose(&r, c, want), 0);
    CHECK_STREQ(brief, "WRONG: 744 never written (TODO 3)");
    CHECK_CONTAINS(detail, "c[256] belongs to block 0, thread 0 (on its loop's step 1");
    CHECK_CONTAINS(detail, "step by blockDim.x * gridDim.x");
}

/* 2-D: the one-block grid of the stub (TODO 5) with a right kernel, then a
 * right grid with row and column swapped (TODO 4). */
static void test_2d(void)
{
    enum { H = 17, W = 33 };
    float c[H * W], want[H * W];
    lab03_run r = { LAB03_OP_MAT_ADD, H * W, H, W, 1, 1, 16, 16 };
    fresh(c, want, H * W);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            c[y * W + x] = want[y * W + x];
    CHECK_EQ_INT(diagnose(&r, c, want), 0);
    CHECK_STREQ(brief, "WRONG: grid too small (TODO 5)");
    CHECK_CONTAINS(detail, "reaches only columns 0..15 and rows 0..15 of the (17, 33) matrix");
    CHECK_CONTAINS(detail, "ceil(w / 16) x ceil(h / 16) = 3 x 2 (TODO 5, mat_add_grid)");

    lab03_run s = { LAB03_OP_MAT_ADD, H * W, H, W, 3, 2, 16, 16 };
    fresh(c, want, H * W);
    for (int x = 0; x < 3 * 16; x++) /* row from x, column from y */
        for (int y = 0; y < 2 * 16; y++)
            if (x < H && y < W)
                c[x * W + y] = want[x * W + y];
    CHECK_EQ_INT(diagnose(&s, c, want), 0);
    CHECK_CONTAINS(detail, "never written although the grid reaches them");
    CHECK_CONTAINS(detail, "C[0][32] belongs to block (2, 0), thread (0, 0)");
    CHECK_CONTAINS(detail, "row and column swapped");
    CHECK(strstr(detail, "TODO 5") == NULL);
}

int main(void)
{
    LAB_TEST_RUN(test_right);
    LAB_TEST_RUN(test_nothing_written);
    LAB_TEST_RUN(test_grid_too_small);
    LAB_TEST_RUN(test_swapped_index);
    LAB_TEST_RUN(test_wrong_values);
    LAB_TEST_RUN(test_grid_stride_no_loop);
    LAB_TEST_RUN(test_2d);
    LAB_TEST_MAIN_END();
}
