// test_model.cpp — the performance model's formulas (model_formulas.cpp) on their own:
// the documented value for a streaming kernel on the T4, the ranking of
// coalesced and strided access, occupancy and waves, copies by PCIe
// generation (pinned, pageable, many small ones), memsets and cuBLAS calls,
// on every profile. See docs/model.md for the formulas checked here.
#include "model.hpp"

#include "lab_test.h"

#include <cmath>

namespace
{

using namespace gpulab_sim;

// A kernel over n floats, 256 threads per block: each thread loads and
// stores one float; sectors_per_load is 4 when a warp's loads are coalesced.
kernel_counts streaming(double n, double sectors_per_load)
{
    kernel_counts c;
    double warps = n / 32;
    c.counted = true;
    c.threads = n;
    c.load_requests = c.store_requests = warps;
    c.load_sectors = warps * sectors_per_load;
    c.store_sectors = warps * 4;
    c.global_accesses = 2 * n;
    return c;
}

kernel_shape shape(double n, unsigned block)
{
    return kernel_shape{ dim3((unsigned)(n / block)), dim3(block), 0 };
}

void test_t4_streaming_value()
{
    const gpu_profile *t4 = model_lookup("t4");
    CHECK(t4 != nullptr);
    if (!t4)
        return;
    // 2^20 floats in and out: 8 MiB at 85% of 320 GB/s = 30.84 us, plus 5 us
    // launch, plus the instructions, which the memory time does not hide: 103
    // blocks on the busiest of 40 SMs, 8 warps of 10 + 4 x 2 instructions
    // each, 2 warp instructions a cycle at 1.59 GHz (4.66 us).
    double n = 1 << 20;
    model_result r = model_kernel_time(*t4, shape(n, 256), streaming(n, 4));
    CHECK(std::fabs(r.us - (5.0 + 8388608.0 / (320e3 * 0.85) + 103 * 8 * 18 / (2 * 1.590e3))) <
          1e-6);
    CHECK(std::strcmp(r.bound, "memory") == 0);
    CHECK(r.sectors == 262144);
    CHECK(r.occupancy == 1.0); // 4 blocks of 8 warps fill the 32 warps of a Turing SM
    CHECK(r.waves == std::ceil(4096.0 / 160));
}

void test_strided_slower_by_sectors()
{
    int count;
    const gpu_profile *all = model_profiles(&count);
    CHECK(count >= 6);
    for (int i = 0; i < count; i++) {
        double n = 1 << 24; // big enough to be memory bound everywhere
        model_result co = model_kernel_time(all[i], shape(n, 256), streaming(n, 4));
        model_result st = model_kernel_time(all[i], shape(n, 256), streaming(n, 32));
        // The same instructions; the strided one's memory time is 4.5 times
        // the coalesced one's (8 bytes an element at 85% of the DRAM peak).
        double co_mem = n * 8 / (all[i].dram_gbs * 1e3 * 0.85);
        double extra = (st.us - co.us) / co_mem;
        CHECK(co.us < st.us);
        if (std::fabs(extra - (36.0 / 8.0 - 1)) > 0.01)
            LAB_TEST_FAIL_AT("%s: the strided kernel's extra memory time is %.3f of the coalesced "
                             "one's, the sectors say 3.5",
                             all[i].key, extra);
    }
}

void test_small_kernel_is_launch_bound()
{
    const gpu_profile *g = model_lookup("h100");
    model_result r = model_kernel_time(*g, shape(1024, 256), streaming(1024, 4));
    CHECK(std::strcmp(r.bound, "launch") == 0);
    CHECK(r.us > g->launch_us && r.us < g->launch_us + 1.0); // one memory round trip at most
}

void test_occupancy_limits()
{
    const gpu_profile *t4 = model_lookup("t4");
    double n = 1 << 20;
    // 1024 threads: one block per Turing SM (32 warps).
    model_result big = model_kernel_time(*t4, shape(n, 1024), streaming(n, 4));
    CHECK(big.occupancy == 1.0 && big.waves == std::ceil(1024.0 / 40));
    // 48 KiB of shared memory per block: one block of 256 threads per SM.
    kernel_shape s = shape(n, 256);
    s.shmem = 48 * 1024;
    model_result shm = model_kernel_time(*t4, s, streaming(n, 4));
    CHECK(shm.occupancy == 0.25);
    // Fewer warps in flight cover less latency: never faster.
    model_result full = model_kernel_time(*t4, shape(n, 256), streaming(n, 4));
    CHECK(shm.us >= full.us);
}

void test_uncounted_kernel_uses_configuration()
{
    const gpu_profile *t4 = model_lookup("t4");
    double n = 1 << 20;
    kernel_counts none; // counted = false
    model_result r = model_kernel_time(*t4, shape(n, 256), none);
    model_result c = model_kernel_time(*t4, shape(n, 256), streaming(n, 4));
    CHECK(std::fabs(r.us - c.us) < 1e-9); // one coalesced load and store per thread
}

void test_copies()
{
    int count;
    const gpu_profile *all = model_profiles(&count);
    for (int i = 0; i < count; i++) {
        const gpu_profile &g = all[i];
        double mib = 1 << 20;
        model_result pinned = model_copy_time(g, copy_kind::h2d, 64 * mib, true);
        model_result pageable = model_copy_time(g, copy_kind::h2d, 64 * mib, false);
        model_result piece = model_copy_time(g, copy_kind::h2d, 4096, true);
        model_result d2d = model_copy_time(g, copy_kind::d2d, 64 * mib, false);
        CHECK(pinned.us < pageable.us);
        CHECK(pinned.us < piece.us * (64 * mib / 4096)); // one copy beats many small ones
        CHECK(d2d.us < pinned.us);                       // DRAM is faster than PCIe
        CHECK(std::strcmp(pinned.bound, "pcie") == 0);
        // A pinned gen3 x16 copy runs near 12.6 GB/s (bandwidthTest reads 12-13).
        if (g.pcie_gen == 3) {
            double gbs = 64 * mib / (pinned.us - 8.0) / 1e3;
            CHECK(gbs > 12.0 && gbs < 13.0);
        }
    }
    const gpu_profile *t4 = model_lookup("t4"), *h100 = model_lookup("h100");
    CHECK(model_copy_time(*h100, copy_kind::h2d, 1 << 26, true).us <
          model_copy_time(*t4, copy_kind::h2d, 1 << 26, true).us); // gen5 beats gen3
}

// GPULAB_SIM_HOST_LINK: a PCIe generation and width, or measured rates.
void test_host_link()
{
    host_link l;
    CHECK(parse_host_link("gen4x8", &l) && std::fabs(l.h2d_gbs - 1.969 * 8 * 0.8) < 1e-9 &&
          l.h2d_gbs == l.d2h_gbs);
    CHECK(parse_host_link("12.3", &l) && l.h2d_gbs == 12.3 && l.d2h_gbs == 12.3);
    CHECK(parse_host_link("12.3/13.1", &l) && l.h2d_gbs == 12.3 && l.d2h_gbs == 13.1);
    host_link untouched;
    const char *bad[] = { "",      "gen6x16", "gen3x3", "gen3x16x",  "fast",
                          "12.3/", "-4",      "0",      "12.3 GB/s", "5000" };
    for (const char *b : bad)
        CHECK(!parse_host_link(b, &untouched) && untouched.h2d_gbs == 0);
    // A100 on a host that gives it half its link: copies take twice as long.
    const gpu_profile *a100 = model_lookup("a100");
    double mib = 1 << 20;
    host_link half;
    CHECK(parse_host_link("gen4x8", &half));
    double full = model_copy_time(*a100, copy_kind::h2d, 512 * mib, true).us;
    double slow = model_copy_time(*a100, copy_kind::h2d, 512 * mib, true, half).us;
    CHECK(std::fabs((slow - 8.0) / (full - 8.0) - 2.0) < 1e-6);
    // Measured rates per direction; device-to-device copies do not use the link.
    host_link measured;
    CHECK(parse_host_link("10/20", &measured));
    double h2d = model_copy_time(*a100, copy_kind::h2d, 1e9, true, measured).us - 8.0;
    double d2h = model_copy_time(*a100, copy_kind::d2h, 1e9, true, measured).us - 8.0;
    CHECK(std::fabs(h2d - 1e5) < 1e-3 && std::fabs(d2h - 5e4) < 1e-3);
    CHECK(model_copy_time(*a100, copy_kind::d2d, 1e9, false, measured).us ==
          model_copy_time(*a100, copy_kind::d2d, 1e9, false).us);
}

void test_memset_and_blas()
{
    const gpu_profile *t4 = model_lookup("t4");
    model_result small = model_memset_time(*t4, 256);
    model_result big = model_memset_time(*t4, 1 << 28);
    CHECK(std::strcmp(small.bound, "launch") == 0 && std::strcmp(big.bound, "memory") == 0);
    // sgemv 4096 x 4096: bandwidth bound; sgemm 4096^3: compute bound.
    double m = 4096;
    model_result gemv = model_blas_time(*t4, 2 * m * m, 4 * (m * m + 3 * m), m);
    model_result gemm = model_blas_time(*t4, 2 * m * m * m, 4 * 4 * m * m, m);
    CHECK(std::strcmp(gemv.bound, "memory") == 0 && std::strcmp(gemm.bound, "compute") == 0);
    // Efficiency grows with size: per flop, a 4096 gemm beats a 64 one.
    model_result tiny = model_blas_time(*t4, 2 * 64.0 * 64 * 64, 4 * 4 * 64.0 * 64, 64);
    CHECK((tiny.us - t4->launch_us) / (2 * 64.0 * 64 * 64) >
          (gemm.us - t4->launch_us) / (2 * m * m * m));
}

void test_profiles()
{
    int count;
    const gpu_profile *all = model_profiles(&count);
    const char *want[] = { "gtx1650",   "gtx1650-gddr6",  "gtx1650-super",  "t4",       "l4",
                           "v100",      "v100-pcie",      "rtx3060",        "rtx4090",  "a100-40gb",
                           "a100-80gb", "a100-40gb-pcie", "a100-80gb-pcie", "h100-sxm", "h100-pcie",
                           "h200",      "a100",           "h100",           "v100-sxm2" };
    for (const char *k : want)
        CHECK(model_lookup(k) != nullptr);
    CHECK(model_lookup("nosuchgpu") == nullptr && model_lookup(nullptr) == nullptr);
    for (int i = 0; i < count; i++) {
        const gpu_profile &g = all[i];
        CHECK(g.sms > 0 && g.clock_ghz > 0.5 && g.fp32_lanes >= 64 && g.max_warps >= 32);
        CHECK(g.dram_gbs > 100 && g.pcie_gen >= 3 && g.pcie_gen <= 5 && g.launch_us > 0);
        CHECK(std::strncmp(g.name, "NVIDIA ", 7) == 0 ||
              std::strncmp(g.name, "Tesla V100", 10) == 0);
    }
}

} // namespace

int main()
{
    LAB_TEST_RUN(test_t4_streaming_value);
    LAB_TEST_RUN(test_strided_slower_by_sectors);
    LAB_TEST_RUN(test_small_kernel_is_launch_bound);
    LAB_TEST_RUN(test_occupancy_limits);
    LAB_TEST_RUN(test_uncounted_kernel_uses_configuration);
    LAB_TEST_RUN(test_copies);
    LAB_TEST_RUN(test_host_link);
    LAB_TEST_RUN(test_memset_and_blas);
    LAB_TEST_RUN(test_profiles);
    LAB_TEST_MAIN_END();
}
