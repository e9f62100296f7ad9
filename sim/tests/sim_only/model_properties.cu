// model_properties — simulator only, run with GPULAB_SIM_MODEL=a100 (and
// again with the model off): with the model on, the device reports the
// modeled GPU (its name, compute capability, SMs, clocks, bus, L2, per-SM
// limits), through cudaGetDeviceProperties and cudaDeviceGetAttribute alike,
// while its memory stays the simulator's own; with the model off, the
// simulator's own name.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

int main(void)
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
        printf("FAIL model_properties: cudaGetDeviceProperties\n");
        return 1;
    }
    const char *model = getenv("GPULAB_SIM_MODEL");
    printf("%s: compute capability %d.%d, %d SMs, %d kHz, memory %d kHz x %d bits, L2 %d\n", p.name,
           p.major, p.minor, p.multiProcessorCount, p.clockRate, p.memoryClockRate,
           p.memoryBusWidth, p.l2CacheSize);
    if (model && strcmp(model, "a100") == 0) {
        // A100-SXM4-40GB: 108 SMs, 1410 MHz, HBM2 1555 GB/s on 5120 bits
        // (1215 MHz), 40 MiB L2, compute capability 8.0, 64 warps and 32
        // blocks per SM, 164 KiB of shared memory per SM.
        check(strstr(p.name, "NVIDIA A100-SXM4-40GB (modeled: gpulab simulated GPU 0") == p.name,
              "the modeled GPU's name first");
        check(p.major == 8 && p.minor == 0, "compute capability 8.0");
        check(p.multiProcessorCount == 108, "108 SMs");
        check(p.clockRate == 1410000, "1410 MHz");
        check(p.memoryBusWidth == 5120 && p.memoryClockRate == 1214844, "HBM2: 5120 bits");
        check(p.l2CacheSize == 40 * 1024 * 1024, "40 MiB of L2");
        check(p.maxThreadsPerMultiProcessor == 2048 && p.maxBlocksPerMultiProcessor == 32,
              "64 warps and 32 blocks per SM");
        check(p.sharedMemPerMultiprocessor == 164 * 1024 && p.sharedMemPerBlockOptin == 163 * 1024,
              "164 KiB of shared memory per SM, 163 per block");
        int v = 0;
        cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);
        check(v == 108, "the attribute query agrees on the SMs");
        cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0);
        check(v == 8, "the attribute query agrees on the compute capability");
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        check(p.totalGlobalMem == total_b, "the memory is the simulator's own");
    } else {
        check(strstr(p.name, "gpulab simulated GPU 0 (runs on the CPU)") == p.name,
              "the simulator's own name without the model");
    }
    printf("%s model_properties\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
