// model_profiles.cpp — the performance model's GPU profiles, from public
// specifications, their names (and the earlier names kept working), and the
// host's link (GPULAB_SIM_HOST_LINK). docs/model.md lists them; the formulas
// that use them are in model.cpp.
#include "model.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpulab_sim
{
namespace
{

// Sources, per column:
// - SMs, boost clock, DRAM bandwidth, L2, PCIe: NVIDIA's product pages and
//   datasheets (GeForce GTX 1650 specifications page; Tesla T4 datasheet,
//   2019; GeForce RTX 3060 and RTX 4090 specifications pages; A100 Tensor
//   Core GPU datasheet (40 GB SXM4) and the "NVIDIA A100 Tensor Core GPU
//   Architecture" whitepaper, 2020; "NVIDIA H100 Tensor Core GPU
//   Architecture" whitepaper, 2022 (H100 SXM5); H200 datasheet, 2024), and
//   the Turing (2018), Ampere GA102 (2020) and Ada (2022) whitepapers for
//   SM counts and L2 sizes of the consumer cards.
// - FP32 lanes, max resident warps and blocks, registers and shared memory
//   per SM: the CUDA C++ Programming Guide, "Compute Capabilities" table
//   (7.5: Turing; 8.0: A100; 8.6: GA10x; 8.9: Ada; 9.0: Hopper).
// - Launch latency: what events around an empty kernel read on a GPU; the
//   CUDA Best Practices Guide gives kernel launch overhead as a few
//   microseconds, and published microbenchmarks (e.g. Zhang et al.,
//   "Understanding the GPU microarchitecture to achieve bare-metal
//   performance tuning", PPoPP 2017, and the cuda-samples' simple launch
//   timings) put it at 2 to 5 us for recent drivers. One value per
//   generation: 5 us for Turing, 4 us for Ampere/Ada, 3 us for Hopper.
// Re-checked against those sources and the spec pages named per row; no number
// needed changing. Per row (SMs x FP32 lanes x 2 x boost clock gives the FP32
// peak each datasheet quotes, a check on the clock):
// - gtx1650: TU117, 14 SMs (896 CUDA cores), boost 1665 MHz, 4 GB GDDR5 at
//   8 Gbps on 128 bits = 128 GB/s, L2 1 MB, PCIe 3.0 x16 (GeForce GTX 1650
//   specifications; TechPowerUp GPU database).
// - gtx1650-gddr6: the 2020 board of the same name, TU117 with 12 Gbps
//   GDDR6 on 128 bits = 192 GB/s, boost 1590 MHz (GeForce GTX 1650 GDDR6
//   board specifications).
// - gtx1650-super: TU116, 20 SMs (1280 CUDA cores), boost 1725 MHz, 4 GB
//   GDDR6 at 12 Gbps on 128 bits = 192 GB/s, L2 1 MB, PCIe 3.0 x16 (GeForce
//   GTX 1650 SUPER specifications): 4.4 TFLOPS FP32.
// - l4: AD104, 58 SMs (7424 CUDA cores), boost 2040 MHz, 24 GB GDDR6 at
//   300 GB/s on 192 bits, L2 48 MB, PCIe 4.0 x16 (L4 datasheet, 2023): 30.3
//   TFLOPS FP32.
// - v100, v100-pcie: GV100, 80 SMs (5120 CUDA cores), HBM2 900 GB/s on 4096
//   bits, L2 6 MB, PCIe 3.0 x16; boost 1530 MHz on SXM2 (15.7 TFLOPS FP32),
//   1380 MHz on PCIe (14 TFLOPS) (V100 datasheet; Volta whitepaper, 2017).
//   Compute capability 7.0: 64 warps, 32 blocks, 96 KB shared per SM.
// - a100-80gb (SXM4, HBM2e 2039 GB/s), a100-40gb-pcie (1555 GB/s) and
//   a100-80gb-pcie (1935 GB/s): the same 108 SMs at 1410 MHz and 40 MB L2 as
//   the 40 GB SXM4 board (A100 datasheet, 2021 edition).
// - h100-pcie: GH100 with 114 SMs (14592 CUDA cores), boost 1755 MHz, HBM2e
//   2.0 TB/s, 50 MB L2, PCIe 5.0 x16 (H100 datasheet: 51 TFLOPS FP32).
// - t4: TU104, 40 SMs (2560 CUDA cores), boost 1590 MHz, 16 GB GDDR6 at
//   10 Gbps on 256 bits = 320 GB/s, L2 4 MB, PCIe 3.0 x16; 2560 x 2 x 1.59 GHz
//   = 8.1 TFLOPS FP32, as the T4 datasheet says.
// - rtx3060: GA106, 28 SMs (3584 CUDA cores), boost 1777 MHz, 12 GB GDDR6 at
//   15 Gbps on 192 bits = 360 GB/s, L2 3 MB, PCIe 4.0 x16 (GeForce RTX 3060
//   specifications; Ampere GA102 whitepaper for the GA10x SM).
// - rtx4090: AD102, 128 of its 144 SMs (16384 CUDA cores), boost 2520 MHz,
//   24 GB GDDR6X at 21 Gbps on 384 bits = 1008 GB/s, L2 72 of the full chip's
//   96 MB, PCIe 4.0 x16 (GeForce RTX 4090 specifications; Ada whitepaper):
//   82.6 TFLOPS FP32.
// - a100-40gb: A100-SXM4-40GB, 108 SMs (6912 CUDA cores), boost 1410 MHz, HBM2
//   1555 GB/s, L2 40 MB, PCIe 4.0 x16 (A100 datasheet and whitepaper): 19.5
//   TFLOPS FP32.
// - h100-sxm: H100 SXM5 80 GB, 132 SMs (16896 CUDA cores), HBM3 3.35 TB/s, L2
//   50 MB, PCIe 5.0 x16 (H100 datasheet; Hopper whitepaper); the datasheet's
//   67 TFLOPS FP32 = 16896 x 2 x 1.98 GHz.
// - h200: H200 SXM 141 GB, the same GH100 (132 SMs, 50 MB L2, 67 TFLOPS FP32,
//   so 1.98 GHz) with HBM3e at 4.8 TB/s, PCIe 5.0 x16 (H200 datasheet).
// - Compute capability and memory bus width (the same datasheets and the
//   CUDA C++ Programming Guide's table of GPUs): 7.5 with 128 bits (GTX
//   1650) and 256 (T4); 8.6, 192 bits (RTX 3060); 8.9, 384 (RTX 4090); 8.0,
//   5120 (A100's five HBM2 stacks); 9.0, 5120 (H100's five HBM3 stacks) and
//   6144 (H200's six HBM3e stacks). The memory clock cudaDeviceProp reports
//   follows from them: GB/s = 2 (double data rate) x clock x bus bits / 8.
// - Per-SM limits by compute capability (CUDA C++ Programming Guide,
//   "Technical Specifications per Compute Capability", and NVIDIA's tuning
//   guide of each architecture): 7.5 (T4, GTX 1650) 32 warps, 16 blocks,
//   64 KB shared; 8.0 (A100) 64 warps, 32 blocks, 164 KB; 8.6 (RTX 3060) 48
//   warps, 16 blocks, 100 KB; 8.9 (RTX 4090) 48 warps, 24 blocks, 100 KB; 9.0
//   (H100, H200) 64 warps, 32 blocks, 228 KB; 64K 32-bit registers per SM on
//   all. FP32 lanes per SM: 64 on 7.5 and 8.0, 128 on 8.6, 8.9 and 9.0.
const gpu_profile profiles[] = {
    // key, name, SMs, GHz, FP32/SM, warps, blocks, regs, smem KiB, L2 MiB, GB/s, PCIe, lanes,
    // launch us, compute capability, bus bits
    { "gtx1650", "NVIDIA GeForce GTX 1650", 14, 1.665, 64, 32, 16, 65536, 64, 1.0, 128.0, 3, 16,
      5.0, 7, 5, 128 }, // GDDR5, 8 Gbps
    { "gtx1650-gddr6", "NVIDIA GeForce GTX 1650", 14, 1.590, 64, 32, 16, 65536, 64, 1.0, 192.0, 3,
      16, 5.0, 7, 5, 128 }, // GDDR6, 12 Gbps
    { "gtx1650-super", "NVIDIA GeForce GTX 1650 SUPER", 20, 1.725, 64, 32, 16, 65536, 64, 1.0,
      192.0, 3, 16, 5.0, 7, 5, 128 },
    { "t4", "NVIDIA T4", 40, 1.590, 64, 32, 16, 65536, 64, 4.0, 320.0, 3, 16, 5.0, 7, 5, 256 },
    { "l4", "NVIDIA L4", 58, 2.040, 128, 48, 24, 65536, 100, 48.0, 300.0, 4, 16, 4.0, 8, 9, 192 },
    { "v100", "Tesla V100-SXM2-16GB", 80, 1.530, 64, 64, 32, 65536, 96, 6.0, 900.0, 3, 16, 5.0, 7,
      0, 4096 },
    { "v100-pcie", "Tesla V100-PCIE-16GB", 80, 1.380, 64, 64, 32, 65536, 96, 6.0, 900.0, 3, 16, 5.0,
      7, 0, 4096 },
    { "rtx3060", "NVIDIA GeForce RTX 3060", 28, 1.777, 128, 48, 16, 65536, 100, 3.0, 360.0, 4, 16,
      4.0, 8, 6, 192 },
    { "rtx4090", "NVIDIA GeForce RTX 4090", 128, 2.520, 128, 48, 24, 65536, 100, 72.0, 1008.0, 4,
      16, 4.0, 8, 9, 384 },
    { "a100-40gb", "NVIDIA A100-SXM4-40GB", 108, 1.410, 64, 64, 32, 65536, 164, 40.0, 1555.0, 4, 16,
      4.0, 8, 0, 5120 },
    { "a100-80gb", "NVIDIA A100-SXM4-80GB", 108, 1.410, 64, 64, 32, 65536, 164, 40.0, 2039.0, 4, 16,
      4.0, 8, 0, 5120 },
    { "a100-40gb-pcie", "NVIDIA A100-PCIE-40GB", 108, 1.410, 64, 64, 32, 65536, 164, 40.0, 1555.0,
      4, 16, 4.0, 8, 0, 5120 },
    { "a100-80gb-pcie", "NVIDIA A100 80GB PCIe", 108, 1.410, 64, 64, 32, 65536, 164, 40.0, 1935.0,
      4, 16, 4.0, 8, 0, 5120 },
    { "h100-sxm", "NVIDIA H100 80GB HBM3", 132, 1.980, 128, 64, 32, 65536, 228, 50.0, 3350.0, 5, 16,
      3.0, 9, 0, 5120 },
    { "h100-pcie", "NVIDIA H100 PCIe", 114, 1.755, 128, 64, 32, 65536, 228, 50.0, 2000.0, 5, 16,
      3.0, 9, 0, 5120 },
    { "h200", "NVIDIA H200", 132, 1.980, 128, 64, 32, 65536, 228, 50.0, 4800.0, 5, 16, 3.0, 9, 0,
      6144 },
};
// Earlier names, kept working: the board each meant.
const struct {
    const char *alias, *key;
} aliases[] = { { "a100", "a100-40gb" }, { "h100", "h100-sxm" }, { "v100-sxm2", "v100" } };
constexpr int profile_count = sizeof(profiles) / sizeof(profiles[0]);

} // namespace

const gpu_profile *model_lookup(const char *key)
{
    if (!key)
        return nullptr;
    for (const auto &a : aliases)
        if (strcmp(key, a.alias) == 0)
            key = a.key;
    for (const gpu_profile &p : profiles)
        if (strcmp(key, p.key) == 0)
            return &p;
    return nullptr;
}

const gpu_profile *model_profiles(int *n)
{
    *n = profile_count;
    return profiles;
}

bool parse_host_link(const char *text, host_link *out)
{
    if (!text || !*text)
        return false;
    unsigned gen = 0, lanes = 0;
    int used = 0;
    if (sscanf(text, "gen%ux%u%n", &gen, &lanes, &used) == 2 && text[used] == '\0') {
        if (gen < 1 || gen > 5 ||
            (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16))
            return false;
        out->h2d_gbs = out->d2h_gbs = pcie_lane_gbs[gen] * lanes * pinned_efficiency;
        return true;
    }
    char *end = nullptr;
    double h2d = strtod(text, &end), d2h = h2d;
    if (end == text || !(h2d > 0.01 && h2d < 1000))
        return false;
    if (*end == '/') {
        const char *rest = end + 1;
        d2h = strtod(rest, &end);
        if (end == rest || !(d2h > 0.01 && d2h < 1000))
            return false;
    }
    if (*end != '\0')
        return false;
    out->h2d_gbs = h2d;
    out->d2h_gbs = d2h;
    return true;
}

} // namespace gpulab_sim
