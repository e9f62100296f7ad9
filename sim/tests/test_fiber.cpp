// test_fiber.cpp — the simulator's fibers: a ring of fibers passing control
// round-robin keeps each fiber's integer and floating-point state, a switch
// hands its value to the fiber it resumes, stacks come from the pool with their
// guard pages, and many switches leave nothing behind.
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

// Two fibers and the scheduler pass a counter around; each switch hands the
// resumed side the value its switch returns.
fiber_context ping_ctx, pong_ctx, main_ctx;
unsigned long long seen_by_ping[8], seen_by_pong[8];

void ping(void *)
{
    for (int k = 0; k < 8; k++)
        seen_by_ping[k] = fiber_switch(&ping_ctx, &pong_ctx, 100 + k);
    fiber_switch(&ping_ctx, &main_ctx, 7);
}

void pong(void *)
{
    for (int k = 0; k < 8; k++)
        seen_by_pong[k] = fiber_switch(&pong_ctx, &ping_ctx, 200 + k);
}

void test_switch_hands_value()
{
    stack_pool pool(64 * 1024);
    fiber_prepare(&ping_ctx, pool.stack(0), pool.stack_size(), ping, nullptr);
    fiber_prepare(&pong_ctx, pool.stack(1), pool.stack_size(), pong, nullptr);
    // ping starts, switches to pong (which starts: no value), pong hands 200 to ping, ...
    CHECK_EQ_INT((long long)fiber_switch(&main_ctx, &ping_ctx, 1), 7);
    for (int k = 0; k < 8; k++) {
        CHECK_EQ_INT((long long)seen_by_ping[k], 200 + k);
        if (k < 7)
            CHECK_EQ_INT((long long)seen_by_pong[k], 101 + k);
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
    LAB_TEST_RUN(test_switch_hands_value);
    LAB_TEST_RUN(test_guard_pages);
    LAB_TEST_MAIN_END();
}
