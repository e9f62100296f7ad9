// cublas.cpp — the simulator's cuBLAS subset (cublas_v2.h) on OpenBLAS:
// handles, streams, pointer and math modes, status names, the host <-> device
// copies (cublasSetMatrix, ...), and the operand checks and queueing that
// every routine uses (cublas_internal.hpp). The routines themselves:
// cublas_level1.cpp, cublas_level23.cpp, cublas_batched.cpp.
#include "cublas_internal.hpp"
#include "trace.hpp"

namespace gpulab_sim
{
namespace blas
{

bool operand_ok(const call &c, const operand &o)
{
    const char *p = (const char *)o.ptr + o.lo;
    gpulab_sim::allocation a;
    if (o.bytes == 0)
        return true;
    if (!gpulab_sim::find_allocation(p, &a)) {
        const char *end = p + o.bytes - 1;
        if (gpulab_sim::is_pinned_host(p) && gpulab_sim::is_pinned_host(end))
            return true; // pinned host memory is mapped into the device's address space
        if (gpulab_sim::is_symbol(p) && gpulab_sim::is_symbol(end))
            return true; // a __device__ variable (cudaGetSymbolAddress)
        int arena = gpulab_sim::arena_of(p);
        if (arena < 0)
            report("argument %s of %s is a host pointer (%p), not device memory: %s", o.name, c.fn,
                   (const void *)p,
                   o.scalar ? "the handle's pointer mode is CUBLAS_POINTER_MODE_DEVICE"
                            : "cuBLAS works on memory from cudaMalloc");
        else
            report("argument %s of %s (%p) is in device %d's memory but in no live allocation "
                   "(freed, or out of bounds?)",
                   o.name, c.fn, (const void *)p, arena);
        return false;
    }
    size_t left = a.base + a.size - (uintptr_t)p;
    if (o.bytes > left) {
        report("argument %s of %s needs %zu bytes from %p but its allocation at %p (%zu bytes) "
               "has %zu from there: check the sizes and leading dimensions",
               o.name, c.fn, o.bytes, (const void *)p, (const void *)a.base, a.size, left);
        return false;
    }
    if (c.device >= 0 && a.device != c.device && !a.managed &&
        !gpulab_sim::peer_enabled(c.device, a.device) &&
        !gpulab_sim::pool_grants_access(p, c.device)) {
        report("argument %s of %s (%p) is memory of device %d, but the handle's stream runs on "
               "device %d and peer access is not enabled",
               o.name, c.fn, (const void *)p, a.device, c.device);
        return false;
    }
    return true;
}

cublasStatus_t device_operands(const call &c, std::initializer_list<operand> ops)
{
    for (const operand &o : ops) {
        if (!operand_ok(c, o)) {
            if (gpulab_sim::enqueue(c.h->stream, c.fn, []() { return cudaErrorIllegalAddress; }) !=
                cudaSuccess)
                gpulab_sim::set_sticky(c.device, cudaErrorIllegalAddress);
            return CUBLAS_STATUS_EXECUTION_FAILED;
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t begin(cublasHandle_t h, const char *fn, call *c)
{
    *c = call{ fn, h, -1, gpulab_sim::trace_on() ? gpulab_sim::trace_now_us() : 0 };
    if (!gpulab_sim::stream_device(h->stream, &c->device)) {
        report("%s: the handle's stream (%p, from cublasSetStream) is not a valid stream; was it "
               "destroyed?",
               fn, (void *)h->stream);
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    if (gpulab_sim::sticky(c->device) != cudaSuccess)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t queue(const call &c, std::function<void()> work)
{
    cudaError_t e = gpulab_sim::enqueue(c.h->stream, c.fn, [work]() {
        gpulab_sim::device_memory_batch_open();
        work();
        return cudaSuccess;
    });
    if (gpulab_sim::trace_on())
        gpulab_sim::trace_host_call(c.fn, c.t0, gpulab_sim::trace_now_us());
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

bool device_only(const void *p)
{
    gpulab_sim::allocation a;
    if (gpulab_sim::arena_of(p) < 0)
        return false;
    return !(gpulab_sim::find_allocation(p, &a) && a.managed);
}

cublasStatus_t host_pointer(const call &c, const char *name, const void *p)
{
    if (!device_only(p))
        return CUBLAS_STATUS_SUCCESS;
    report("argument %s of %s (%p) is device memory, but the handle's pointer mode is "
           "CUBLAS_POINTER_MODE_HOST: pass a host variable, or call cublasSetPointerMode first",
           name, c.fn, p);
    return CUBLAS_STATUS_INVALID_VALUE;
}

} // namespace blas
} // namespace gpulab_sim

using namespace gpulab_sim::blas;

namespace
{

using gpulab_sim::report;

// Host <-> device copies of a column-major matrix (a vector is 1 x n with
// "leading dimension" inc), done as cuBLAS does: one cudaMemcpy2D.
struct copy_args {
    const char *fn;
    const char *device_arg; // name of the device argument, for reports
    bool to_device;
};

cublasStatus_t copy_matrix(const copy_args &k, int rows, int cols, int size, const void *src,
                           int lds, void *dst, int ldd)
{
    if (rows < 0 || cols < 0 || size <= 0 || lds <= 0 || ldd <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (lds < rows || ldd < rows) {
        report("%s: a leading dimension (%d, %d) is smaller than the rows copied (%d)", k.fn, lds,
               ldd, rows);
        return CUBLAS_STATUS_MAPPING_ERROR;
    }
    const void *dev = k.to_device ? dst : src;
    int ld = k.to_device ? ldd : lds;
    operand o{ k.device_arg, dev, 0, matrix_elems(rows, cols, ld) * (size_t)size, false };
    if (!operand_ok(call{ k.fn, nullptr, -1 }, o))
        return CUBLAS_STATUS_MAPPING_ERROR;
    cudaError_t e =
        cudaMemcpy2D(dst, (size_t)ldd * size, src, (size_t)lds * size, (size_t)rows * size,
                     (size_t)cols, k.to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

cublasStatus_t copy_vector(const copy_args &k, int n, int size, const void *x, int incx, void *y,
                           int incy)
{
    if (n < 0 || incx <= 0 || incy <= 0 || size <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    return copy_matrix(k, 1, n, size, x, incx, y, incy);
}

// ---------------------------------------------------------------------------
// Status names and strings, as cuBLAS gives them.

struct status_text {
    cublasStatus_t status;
    const char *name;
    const char *text;
};

const status_text statuses[] = {
    { CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS", "success" },
    { CUBLAS_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED",
      "the library was not initialized" },
    { CUBLAS_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED", "the resource allocation failed" },
    { CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE",
      "an unsupported value or parameter was passed to the function" },
    { CUBLAS_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH",
      "the function requires an architectural feature absent from the device" },
    { CUBLAS_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR",
      "an access to GPU memory space failed" },
    { CUBLAS_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED",
      "the function failed to launch on the GPU" },
    { CUBLAS_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR",
      "an internal operation failed" },
    { CUBLAS_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED",
      "the requested functionality is not supported" },
    { CUBLAS_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR", "the license check failed" },
};

const status_text *find_status(cublasStatus_t status)
{
    for (const status_text &s : statuses)
        if (s.status == status)
            return &s;
    return nullptr;
}

} // namespace

// ---------------------------------------------------------------------------
// Handles

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    int d = gpulab_sim::current_device();
    if (!gpulab_sim::valid_device(d) || gpulab_sim::sticky(d) != cudaSuccess)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    // OpenBLAS on one thread unless OPENBLAS_NUM_THREADS says otherwise: its
    // pool's threads spin (sched_yield) after each call and take the cores
    // from the simulator's workers, which run the kernels in between.
    if (!std::getenv("OPENBLAS_NUM_THREADS"))
        openblas_set_num_threads(1);
    *handle = new (std::nothrow) cublasContext{ d, nullptr, CUBLAS_POINTER_MODE_HOST };
    return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

// As in cuBLAS, destroying a handle synchronizes with its device.
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    gpulab_sim::device_sync(handle->device);
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version)
{
    (void)handle; // cuBLAS does not need it either
    if (!version)
        return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return CUBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t status)
{
    const status_text *s = find_status(status);
    return s ? s->name : "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t status)
{
    const status_text *s = find_status(status);
    return s ? s->text : "unknown error";
}

// ---------------------------------------------------------------------------
// Copies

cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr,
                               int incy)
{
    return copy_vector({ "cublasSetVector", "devicePtr", true }, n, elemSize, x, incx, devicePtr,
                       incy);
}

cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy)
{
    return copy_vector({ "cublasGetVector", "x", false }, n, elemSize, x, incx, y, incy);
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb)
{
    return copy_matrix({ "cublasSetMatrix", "B", true }, rows, cols, elemSize, A, lda, B, ldb);
}

cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb)
{
    return copy_matrix({ "cublasGetMatrix", "A", false }, rows, cols, elemSize, A, lda, B, ldb);
}

// ---------------------------------------------------------------------------
// Math mode: stored and returned. The simulator computes float products in
// float whatever the mode (no TF32 or half down-conversion).

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    int base = (int)mode & ~(int)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    if (base < CUBLAS_DEFAULT_MATH || base > CUBLAS_TF32_TENSOR_OP_MATH)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}
