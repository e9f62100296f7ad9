// errors.cpp — error codes, names and strings; per-thread last error; the
// sticky errors of devices; reports on stderr; unsupported calls.
#include "check.hpp"
#include "internal.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace gpulab_sim
{
namespace
{

struct error_entry {
    cudaError_t code;
    const char *name;
    const char *text;
};

// Names and descriptions as the CUDA runtime gives them.
const error_entry error_table[] = {
    { cudaSuccess, "cudaSuccess", "no error" },
    { cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
    { cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
    { cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error" },
    { cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down" },
    { cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
      "invalid configuration argument" },
    { cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
    { cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
    { cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer" },
    { cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer" },
    { cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
      "invalid copy direction for memcpy" },
    { cudaErrorSynchronizationError, "cudaErrorSynchronizationError",
      "incorrect use of __syncthreads()" },
    { cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
      "CUDA driver version is insufficient for CUDA runtime version" },
    { cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration",
      "__global__ function call is not configured" },
    { cudaErrorPriorLaunchFailure, "cudaErrorPriorLaunchFailure",
      "unspecified launch failure in prior launch" },
    { cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
    { cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
    { cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
    { cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage",
      "device kernel image is invalid" },
    { cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
      "no kernel image is available for execution on the device" },
    { cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit",
      "limit is not supported on this architecture" },
    { cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported",
      "peer access is not supported between these two devices" },
    { cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
    { cudaErrorIllegalState, "cudaErrorIllegalState",
      "the operation cannot be performed in the present state" },
    { cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found" },
    { cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
    { cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
      "an illegal memory access was encountered" },
    { cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
      "too many resources requested for launch" },
    { cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated" },
    { cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled",
      "peer access is already enabled" },
    { cudaErrorPeerAccessNotEnabled, "cudaErrorPeerAccessNotEnabled",
      "peer access has not been enabled" },
    { cudaErrorSetOnActiveProcess, "cudaErrorSetOnActiveProcess",
      "cannot set while device is active in this process" },
    { cudaErrorContextIsDestroyed, "cudaErrorContextIsDestroyed", "context is destroyed" },
    { cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
    { cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
      "part or all of the requested memory range is already mapped" },
    { cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
      "pointer does not correspond to a registered memory region" },
    { cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error" },
    { cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction",
      "an illegal instruction was encountered" },
    { cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address" },
    { cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace",
      "operation not supported on global/shared address space" },
    { cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter" },
    { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
    { cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
      "too many blocks in cooperative launch" },
    { cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted" },
    { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
    { cudaErrorSystemNotReady, "cudaErrorSystemNotReady", "system not yet initialized" },
    { cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
      "operation not permitted when stream is capturing" },
    { cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
      "operation failed due to a previous error during capture" },
    { cudaErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge",
      "operation would result in a merge of separate capture sequences" },
    { cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",
      "capture was not ended in the same stream as it began" },
    { cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined",
      "capturing stream has unjoined work" },
    { cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation",
      "dependency created on uncaptured work in another stream" },
    { cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit",
      "operation would make the legacy stream depend on a capturing blocking stream" },
    { cudaErrorCapturedEvent, "cudaErrorCapturedEvent",
      "operation not permitted on an event last recorded in a capturing stream" },
    { cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread",
      "attempt to terminate a thread-local capture sequence from another thread" },
    { cudaErrorTimeout, "cudaErrorTimeout", "wait operation timed out" },
    { cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",
      "the graph update was not performed because it included changes which violated "
      "constraints specific to instantiated graph update" },
    { cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

const error_entry *find_entry(cudaError_t e)
{
    for (const error_entry &x : error_table)
        if (x.code == e)
            return &x;
    return nullptr;
}

thread_local cudaError_t last_error = cudaSuccess;

constexpr int max_devices = 64;
std::atomic<int> sticky_errors[max_devices];

std::mutex report_mutex;

} // namespace

cudaError_t record(cudaError_t e, const char *api)
{
    if (e == cudaSuccess)
        return e;
    last_error = e;
    if ((check_tools() & CHECK_MEM) && e != cudaErrorNotReady) {
        static std::mutex m;
        static std::set<std::string> said;
        std::lock_guard<std::mutex> lock(m);
        check_count_error();
        if (said.insert(std::string(api) + cudaGetErrorName(e)).second && check_report_begin())
            check_line("Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.",
                       cudaGetErrorName(e), (int)e, cudaGetErrorString(e), api);
    }
    return e;
}

void clear_last_error()
{
    last_error = cudaSuccess;
}

cudaError_t sticky(int d)
{
    if (d < 0 || d >= max_devices)
        return cudaSuccess;
    return (cudaError_t)sticky_errors[d].load(std::memory_order_acquire);
}

void set_sticky(int d, cudaError_t e)
{
    if (d < 0 || d >= max_devices)
        return;
    int expected = cudaSuccess;
    sticky_errors[d].compare_exchange_strong(expected, (int)e, std::memory_order_acq_rel);
}

void clear_sticky(int d)
{
    if (d >= 0 && d < max_devices)
        sticky_errors[d].store(cudaSuccess, std::memory_order_release);
}

void report(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    std::lock_guard<std::mutex> lock(report_mutex);
    fflush(stdout);
    fprintf(stderr, "gpulab-sim: %s\n", line);
    fflush(stderr);
}

cudaError_t unsupported(const char *what)
{
    static std::mutex m;
    static std::set<std::string> said;
    {
        std::lock_guard<std::mutex> lock(m);
        if (said.insert(what).second)
            report("%s is not supported by the simulator; it returns cudaErrorNotSupported", what);
    }
    return record(cudaErrorNotSupported);
}

} // namespace gpulab_sim

using namespace gpulab_sim;

extern "C" {

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    // A sticky error is reported again by every call, this one included.
    cudaError_t s = sticky(current_device());
    return s != cudaSuccess ? s : e;
}

cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t s = sticky(current_device());
    return s != cudaSuccess ? s : last_error;
}

const char *cudaGetErrorName(cudaError_t error)
{
    const error_entry *x = find_entry(error);
    return x ? x->name : "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
    const error_entry *x = find_entry(error);
    return x ? x->text : "unrecognized error code";
}

} // extern "C"
