// test_fiber.cpp — the simulator's fibers: a ring of fibers passing control
// round-robin keeps each fiber's integer and floating-point state, stacks come
// from the pool with their guard pages, and many switches leave nothing behind.
#include "fiber.hpp"

#include "lab_test.h"

#include <sys/mman.h>

namespace
{

using namespace gpulab_sim;

constexpr int ring = 64;
constexpr long rounds = 500;
fiber_context ctx[ring], scheduler;
long counter[ring];
double fsum[ring];

void pass_on(int me)
{
    if (me + 1 == ring)
        fiber_switch(&ctx[me], &scheduler);
    else
        fiber_switch(&ctx[me], &ctx[me + 1]);
}

void member(void *arg)
{
    int me = (int)(long)arg;
    double f = me * 0.5; // lives in a register across switches
    long local = me;
    for (long r = 0; r < rounds; r++) {
        counter[me]++;
        f += 1.0;
        local += 2;
        pass_on(me);
    }
    fsum[me] = f + (double)(local - me - 2 * rounds);
    pass_on(me);
}

void test_ring_keeps_state()
{
    stack_pool pool(64 * 1024);
    for (int i = 0; i < ring; i++) {
        void *stack = pool.stack(i);
        CHECK(stack != nullptr);
        fiber_prepare(&ctx[i], stack, pool.stack_size() - (size_t)i * 208 % 4096, member,
                      (void *)(long)i);
    }
    for (long r = 0; r <= rounds; r++)
        fiber_switch(&scheduler, &ctx[0]);
    for (int i = 0; i < ring; i++) {
        CHECK_EQ_INT(counter[i], rounds);
        CHECK_NEAR(fsum[i], i * 0.5 + rounds, 0.0);
    }
}

void test_guard_pages()
{
    stack_pool pool(16 * 1024);
    char *s0 = (char *)pool.stack(0);
    char *s1 = (char *)pool.stack(1);
    CHECK(s0 && s1);
    CHECK(pool.in_guard(s0 - 1));
    CHECK(pool.in_guard(s1 - 4096));
    CHECK(!pool.in_guard(s0));
    CHECK(!pool.in_guard(s0 + pool.stack_size() - 1));
    CHECK_EQ_INT(pool.stack(0) == s0, 1); // stacks are reused, not remade
}

} // namespace

int main()
{
    LAB_TEST_RUN(test_ring_keeps_state);
    LAB_TEST_RUN(test_guard_pages);
    LAB_TEST_MAIN_END();
}
