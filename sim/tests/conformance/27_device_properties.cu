// 27_device_properties — what every CUDA device reports: warpSize 32, 1024
// threads per block, the block and grid limits; cudaDeviceGetAttribute agrees
// with cudaGetDeviceProperties; an invalid ordinal is cudaErrorInvalidDevice, not sticky.
#include "conformance.h"

int main(void)
{
    conf_require_device();

    int count = 0, dev = -1;
    CHECK_CUDA(cudaGetDeviceCount(&count));
    CHECK_CUDA(cudaGetDevice(&dev));
    conf_check(dev == 0, "current device %d, expected 0", dev);

    struct cudaDeviceProp p;
    memset(&p, 0, sizeof(p));
    CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
    printf("device 0: %s, compute capability %d.%d, %d SMs\n", p.name, p.major, p.minor,
           p.multiProcessorCount);
    conf_check(p.name[0] != '\0', "empty device name");
    conf_check(p.warpSize == 32, "warpSize %d", p.warpSize);
    conf_check(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", p.maxThreadsPerBlock);
    conf_check(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 64,
               "maxThreadsDim %d %d %d", p.maxThreadsDim[0], p.maxThreadsDim[1],
               p.maxThreadsDim[2]);
    conf_check(p.maxGridSize[0] == 2147483647 && p.maxGridSize[1] == 65535 &&
                   p.maxGridSize[2] == 65535,
               "maxGridSize %d %d %d", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    conf_check(p.sharedMemPerBlock == 49152, "sharedMemPerBlock %zu", p.sharedMemPerBlock);
    conf_check(p.totalGlobalMem > 0 && p.multiProcessorCount > 0 && p.major >= 1,
               "totalGlobalMem %zu, %d SMs, major %d", p.totalGlobalMem, p.multiProcessorCount,
               p.major);
    conf_check(p.maxThreadsPerMultiProcessor >= p.maxThreadsPerBlock,
               "maxThreadsPerMultiProcessor %d", p.maxThreadsPerMultiProcessor);

    struct {
        enum cudaDeviceAttr attr;
        const char *name;
        long long want;
    } attrs[] = {
        { cudaDevAttrMaxThreadsPerBlock, "MaxThreadsPerBlock", p.maxThreadsPerBlock },
        { cudaDevAttrWarpSize, "WarpSize", p.warpSize },
        { cudaDevAttrMultiProcessorCount, "MultiProcessorCount", p.multiProcessorCount },
        { cudaDevAttrMaxBlockDimZ, "MaxBlockDimZ", p.maxThreadsDim[2] },
        { cudaDevAttrMaxGridDimY, "MaxGridDimY", p.maxGridSize[1] },
        { cudaDevAttrMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock",
          (long long)p.sharedMemPerBlock },
        { cudaDevAttrComputeCapabilityMajor, "ComputeCapabilityMajor", p.major },
        { cudaDevAttrComputeCapabilityMinor, "ComputeCapabilityMinor", p.minor },
        { cudaDevAttrMaxThreadsPerMultiProcessor, "MaxThreadsPerMultiProcessor",
          p.maxThreadsPerMultiProcessor },
    };
    for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++) {
        int v = -1;
        CHECK_CUDA(cudaDeviceGetAttribute(&v, attrs[k].attr, 0));
        conf_check(v == attrs[k].want, "cudaDevAttr%s = %d, the struct says %lld", attrs[k].name, v,
                   attrs[k].want);
    }

    // Invalid ordinals.
    int v = 0;
    conf_check_err(cudaSetDevice(count), cudaErrorInvalidDevice);
    conf_check_err(cudaSetDevice(-1), cudaErrorInvalidDevice);
    conf_check_err(cudaGetDeviceProperties(&p, count), cudaErrorInvalidDevice);
    conf_check_err(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count), cudaErrorInvalidDevice);
    CHECK_CUDA(cudaGetDevice(&dev));
    conf_check(dev == 0, "current device %d after failed cudaSetDevice, expected 0", dev);
    conf_check_err(cudaGetLastError(), cudaErrorInvalidDevice);
    conf_check_err(cudaGetLastError(), cudaSuccess);
    void *d;
    CHECK_CUDA(cudaMalloc(&d, 16));
    CHECK_CUDA(cudaFree(d));

    int runtime = 0, driver = 0;
    CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
    CHECK_CUDA(cudaDriverGetVersion(&driver));
    conf_check(runtime > 0 && driver > 0, "runtime version %d, driver version %d", runtime, driver);
    return conf_finish();
}
