/* Unit tests of lab/alloc.h: allocations that succeed, and the message and
 * exit status of ones that cannot. */
#include "lab/alloc.h"
#include "lab_test.h"
#include "lab_test_child.h"

#include <stdint.h>
#include <stdlib.h>

static void test_xmalloc_gives_usable_memory(void)
{
    unsigned char *p = lab_xmalloc(1000);
    for (int i = 0; i < 1000; i++)
        p[i] = (unsigned char)i;
    CHECK_EQ_INT(p[999], 999 & 0xff);
    free(p);
}

static void test_zero_bytes_is_a_valid_pointer(void)
{
    void *a = lab_xmalloc(0), *b = lab_xmalloc(0), *c = lab_xcalloc(0, 4);
    CHECK(a != NULL && b != NULL && c != NULL);
    CHECK(a != b);
    free(a);
    free(b);
    free(c);
}

static void test_xcalloc_zeroes(void)
{
    int *p = lab_xcalloc(257, sizeof(int));
    int nonzero = 0;
    for (int i = 0; i < 257; i++)
        nonzero += p[i] != 0;
    CHECK_EQ_INT(nonzero, 0);
    free(p);
}

static volatile size_t huge = SIZE_MAX - 4096; /* volatile: no compile-time size */

static void alloc_huge(void *arg)
{
    (void)arg;
    free(lab_xmalloc(huge));
}

static void calloc_overflow(void *arg)
{
    (void)arg;
    free(lab_xcalloc(huge / 2, 3));
}

static void test_out_of_memory_names_the_size(void)
{
    char msg[512], want[96];
    CHECK_EQ_INT(lab_test_run_child(alloc_huge, NULL, msg, sizeof(msg)), 1);
    snprintf(want, sizeof(want), "could not allocate %zu bytes", (size_t)huge);
    CHECK_CONTAINS(msg, "out of memory: ");
    CHECK_CONTAINS(msg, want);
}

static void test_calloc_overflow_names_both_numbers(void)
{
    char msg[512], want[96];
    CHECK_EQ_INT(lab_test_run_child(calloc_overflow, NULL, msg, sizeof(msg)), 1);
    snprintf(want, sizeof(want), "%zu elements of 3 bytes", (size_t)huge / 2);
    CHECK_CONTAINS(msg, want);
}

int main(void)
{
    LAB_TEST_RUN(test_xmalloc_gives_usable_memory);
    LAB_TEST_RUN(test_zero_bytes_is_a_valid_pointer);
    LAB_TEST_RUN(test_xcalloc_zeroes);
    LAB_TEST_RUN(test_out_of_memory_names_the_size);
    LAB_TEST_RUN(test_calloc_overflow_names_both_numbers);
    LAB_TEST_MAIN_END();
}
