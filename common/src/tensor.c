/* The device-tagged tensor: see lab/tensor.h. CUDA work goes through the
 * runtime (copies) and cuBLAS (add as an axpy, matmul as a gemm), so this
 * file launches no kernel of its own and compiles as C for every backend. */
#include "lab/tensor.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

struct lab_tensor {
    int refs;
    lab_device device;
    int ndim;
    size_t shape[LAB_TENSOR_MAX_DIMS];
    size_t numel;
    float *data; /* malloc'd for the CPU, cudaMalloc'd on device.index otherwise */
};

/* ---- devices ------------------------------------------------------------- */

/* "cpu, cuda:0, cuda:1", or "cpu (no usable CUDA device: <reason>)". */
static void valid_devices(char *buf, size_t len, int n, const lab_gpu_availability *a)
{
    size_t used = (size_t)snprintf(buf, len, "cpu");
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, ", cuda:%d", i);
    if (n == 0 && used < len)
        snprintf(buf + used, len - used, " (no usable CUDA device: %.300s)", a->reason);
}

int lab_tensor_device_parse(lab_device *out, const char *text, lab_error *err)
{
    lab_gpu_availability avail;
    char valid[512];
    int n = lab_gpu_check(&avail);
    if (!text)
        text = "(null)";
    if (strcmp(text, "cpu") == 0) {
        *out = lab_cpu();
        return LAB_OK;
    }
    long index = -1;
    if (strcmp(text, "cuda") == 0) {
        index = 0;
    } else if (strncmp(text, "cuda:", 5) == 0 && text[5] >= '0' && text[5] <= '9' &&
               !(text[5] == '0' && text[6] != '\0')) {
        char *end;
        index = strtol(text + 5, &end, 10);
        if (*end != '\0' || index > 1000000)
            index = -2;
    } else {
        index = -2;
    }
    valid_devices(valid, sizeof(valid), n, &avail);
    if (index == -2)
        return lab_error_set(err, LAB_EINVAL,
                             "invalid device \"%s\": a device is \"cpu\", \"cuda\" or \"cuda:N\" "
                             "(N a device number); valid devices here: %s",
                             text, valid);
    if (index >= n)
        return lab_error_set(err, LAB_EINVAL,
                             "invalid device \"%s\": this machine has %d CUDA device%s; valid "
                             "devices here: %s",
                             text, n, n == 1 ? "" : "s", valid);
    *out = lab_gpu((int)index);
    return LAB_OK;
}

static int same_device(lab_device a, lab_device b)
{
    return a.kind == b.kind && (a.kind == LAB_DEVICE_CPU || a.index == b.index);
}

/* The error of an operation given tensors on two devices, in PyTorch's words
 * (the CUDA device first when one of them is the CPU). */
static int mixed_devices(lab_error *err, lab_device a, lab_device b)
{
    char na[32], nb[32];
    if (a.kind == LAB_DEVICE_CPU && b.kind == LAB_DEVICE_CUDA) {
        lab_device t = a;
        a = b;
        b = t;
    }
    return lab_error_set(err, LAB_EINVAL,
                         "expected all tensors to be on the same device, but found at least two "
                         "devices, %s and %s",
                         lab_device_format(na, sizeof(na), a),
                         lab_device_format(nb, sizeof(nb), b));
}

static int cuda_failed(lab_error *err, cudaError_t e, const char *call, lab_device dev)
{
    char name[32];
    cudaGetLastError(); /* a non-sticky error must not linger as the last error */
    return lab_error_set_cuda(err, (int)e, "%s on %s failed: %s: %s", call,
                              lab_device_format(name, sizeof(name), dev), cudaGetErrorName(e),
                              cudaGetErrorString(e));
}

static int cublas_failed(lab_error *err, cublasStatus_t s, const char *call, lab_device dev)
{
    char name[32];
    return lab_error_set_cuda(err, 0, "%s on %s failed: cuBLAS status %d", call,
                              lab_device_format(name, sizeof(name), dev), (int)s);
}

/* Makes dev current, remembering the current device in *prev. */
static cudaError_t enter_device(lab_device dev, int *prev)
{
    cudaError_t e = cudaGetDevice(prev);
    if (e == cudaSuccess && dev.kind == LAB_DEVICE_CUDA && dev.index != *prev)
        e = cudaSetDevice(dev.index);
    return e;
}

static void leave_device(int prev)
{
    int now;
    if (cudaGetDevice(&now) == cudaSuccess && now != prev)
        cudaSetDevice(prev);
}

/* ---- life cycle ---------------------------------------------------------- */

/* A tensor with room for its elements on dev, not filled. */
static int alloc_tensor(lab_tensor **out, lab_device dev, int ndim, const size_t *shape,
                        lab_error *err)
{
    lab_tensor *t;
    int prev, rc = LAB_OK;
    *out = NULL;
    if (ndim < 0 || ndim > LAB_TENSOR_MAX_DIMS || (ndim > 0 && !shape))
        return lab_error_set(err, LAB_EINVAL, "a tensor has 0 to %d dimensions, not %d",
                             LAB_TENSOR_MAX_DIMS, ndim);
    t = calloc(1, sizeof(*t));
    if (!t)
        return lab_error_set(err, LAB_ENOMEM, "out of memory for a tensor");
    t->refs = 1;
    t->device = dev;
    t->ndim = ndim;
    t->numel = 1;
    for (int d = 0; d < ndim; d++) {
        t->shape[d] = shape[d];
        if (shape[d] && t->numel > (size_t)-1 / sizeof(float) / shape[d]) {
            free(t);
            return lab_error_set(err, LAB_EINVAL, "a tensor of that shape would not fit in memory");
        }
        t->numel *= shape[d];
    }
    if (t->numel == 0)
        goto done;
    if (dev.kind == LAB_DEVICE_CPU) {
        t->data = malloc(t->numel * sizeof(float));
        if (!t->data)
            rc =
                lab_error_set(err, LAB_ENOMEM, "out of memory for %zu floats on the cpu", t->numel);
    } else {
        cudaError_t e = enter_device(dev, &prev);
        if (e == cudaSuccess) {
            e = cudaMalloc((void **)&t->data, t->numel * sizeof(float));
            leave_device(prev);
        }
        if (e != cudaSuccess)
            rc = cuda_failed(err, e, "cudaMalloc", dev);
    }
    if (rc != LAB_OK) {
        free(t);
        return rc;
    }
done:
    *out = t;
    return LAB_OK;
}

/* Copies n floats between two tensors' memories, each on its own device. */
static int copy_floats(float *dst, lab_device dd, const float *src, lab_device sd, size_t n,
                       lab_error *err)
{
    size_t bytes = n * sizeof(float);
    int prev;
    cudaError_t e;
    if (n == 0)
        return LAB_OK;
    if (dd.kind == LAB_DEVICE_CPU && sd.kind == LAB_DEVICE_CPU) {
        memcpy(dst, src, bytes);
        return LAB_OK;
    }
    lab_device run_on = dd.kind == LAB_DEVICE_CUDA ? dd : sd;
    e = enter_device(run_on, &prev);
    if (e != cudaSuccess)
        return cuda_failed(err, e, "cudaSetDevice", run_on);
    if (dd.kind == LAB_DEVICE_CUDA && sd.kind == LAB_DEVICE_CUDA && dd.index != sd.index)
        e = cudaMemcpyPeer(dst, dd.index, src, sd.index, bytes);
    else
        e = cudaMemcpy(dst, src, bytes,
                       dd.kind == LAB_DEVICE_CPU   ? cudaMemcpyDeviceToHost
                       : sd.kind == LAB_DEVICE_CPU ? cudaMemcpyHostToDevice
                                                   : cudaMemcpyDeviceToDevice);
    leave_device(prev);
    if (e != cudaSuccess)
        return cuda_failed(err, e, "cudaMemcpy", run_on);
    return LAB_OK;
}

int lab_tensor_create(lab_tensor **out, const char *device, int ndim, const size_t *shape,
                      const float *data, lab_error *err)
{
    lab_device dev;
    int rc;
    *out = NULL;
    rc = lab_tensor_device_parse(&dev, device, err);
    if (rc == LAB_OK)
        rc = alloc_tensor(out, dev, ndim, shape, err);
    if (rc != LAB_OK || (*out)->numel == 0)
        return rc;
    lab_tensor *t = *out;
    if (data) {
        rc = copy_floats(t->data, dev, data, lab_cpu(), t->numel, err);
    } else if (dev.kind == LAB_DEVICE_CPU) {
        memset(t->data, 0, t->numel * sizeof(float));
    } else {
        int prev;
        cudaError_t e = enter_device(dev, &prev);
        if (e == cudaSuccess) {
            e = cudaMemset(t->data, 0, t->numel * sizeof(float));
            leave_device(prev);
        }
        if (e != cudaSuccess)
            rc = cuda_failed(err, e, "cudaMemset", dev);
    }
    if (rc != LAB_OK) {
        lab_tensor_destroy(t);
        *out = NULL;
    }
    return rc;
}

void lab_tensor_destroy(lab_tensor *t)
{
    if (!t || --t->refs > 0)
        return;
    if (t->device.kind == LAB_DEVICE_CPU) {
        free(t->data);
    } else if (t->data) {
        int prev;
        /* After a cudaDeviceReset the memory is gone already; the error is ignored. */
        if (enter_device(t->device, &prev) == cudaSuccess) {
            cudaFree(t->data);
            leave_device(prev);
        }
        cudaGetLastError();
    }
    free(t);
}

int lab_tensor_to(lab_tensor **out, lab_tensor *t, const char *device, lab_error *err)
{
    lab_device dev;
    int rc;
    *out = NULL;
    if (!t)
        return lab_error_set(err, LAB_EINVAL, "lab_tensor_to: the tensor is NULL");
    rc = lab_tensor_device_parse(&dev, device, err);
    if (rc != LAB_OK)
        return rc;
    if (same_device(dev, t->device)) { /* already there: the same tensor, no copy */
        t->refs++;
        *out = t;
        return LAB_OK;
    }
    rc = alloc_tensor(out, dev, t->ndim, t->shape, err);
    if (rc != LAB_OK)
        return rc;
    rc = copy_floats((*out)->data, dev, t->data, t->device, t->numel, err);
    if (rc != LAB_OK) {
        lab_tensor_destroy(*out);
        *out = NULL;
    }
    return rc;
}

int lab_tensor_copy_to_host(float *dst, const lab_tensor *t, lab_error *err)
{
    if (!t || (!dst && t->numel))
        return lab_error_set(err, LAB_EINVAL, "lab_tensor_copy_to_host: NULL argument");
    return copy_floats(dst, lab_cpu(), t->data, t->device, t->numel, err);
}

/* ---- operations ---------------------------------------------------------- */

static int check_operands(const lab_tensor *a, const lab_tensor *b, const char *op, lab_error *err)
{
    if (!a || !b)
        return lab_error_set(err, LAB_EINVAL, "%s: an operand is NULL", op);
    if (!same_device(a->device, b->device))
        return mixed_devices(err, a->device, b->device);
    return LAB_OK;
}

int lab_tensor_add(lab_tensor **out, const lab_tensor *a, const lab_tensor *b, lab_error *err)
{
    int rc, prev;
    *out = NULL;
    rc = check_operands(a, b, "lab_tensor_add", err);
    if (rc != LAB_OK)
        return rc;
    int same_shape = a->ndim == b->ndim;
    for (int d = 0; same_shape && d < a->ndim; d++)
        same_shape = a->shape[d] == b->shape[d];
    if (!same_shape)
        return lab_error_set(err, LAB_EINVAL,
                             "lab_tensor_add: the operands have different shapes (%d-D with %zu "
                             "elements and %d-D with %zu)",
                             a->ndim, a->numel, b->ndim, b->numel);
    rc = alloc_tensor(out, a->device, a->ndim, a->shape, err);
    if (rc != LAB_OK || a->numel == 0)
        return rc;
    lab_tensor *c = *out;
    if (a->device.kind == LAB_DEVICE_CPU) {
        for (size_t i = 0; i < a->numel; i++)
            c->data[i] = a->data[i] + b->data[i];
        return LAB_OK;
    }
    /* c = a, then c += 1 * b: y = alpha x + y with alpha = 1 is exactly a + b. */
    rc = copy_floats(c->data, c->device, a->data, a->device, a->numel, err);
    if (rc == LAB_OK && a->numel > (size_t)0x7fffffff)
        rc = lab_error_set(err, LAB_EINVAL, "lab_tensor_add: too many elements for cuBLAS");
    if (rc == LAB_OK) {
        cublasHandle_t h;
        cublasStatus_t s;
        const float one = 1.0f;
        cudaError_t e = enter_device(c->device, &prev);
        if (e != cudaSuccess) {
            rc = cuda_failed(err, e, "cudaSetDevice", c->device);
        } else {
            s = cublasCreate(&h);
            if (s == CUBLAS_STATUS_SUCCESS) {
                s = cublasSaxpy(h, (int)a->numel, &one, b->data, 1, c->data, 1);
                cublasDestroy(h);
            }
            if (s != CUBLAS_STATUS_SUCCESS)
                rc = cublas_failed(err, s, "cublasSaxpy", c->device);
            else if ((e = cudaDeviceSynchronize()) != cudaSuccess)
                rc = cuda_failed(err, e, "lab_tensor_add", c->device);
            leave_device(prev);
        }
    }
    if (rc != LAB_OK) {
        lab_tensor_destroy(c);
        *out = NULL;
    }
    return rc;
}

/* C (m, n) = A (m, k) B (k, n), row-major, on the CPU. */
static void matmul_cpu(float *c, const float *a, const float *b, size_t m, size_t k, size_t n)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double s = 0.0;
            for (size_t p = 0; p < k; p++)
                s += (double)a[i * k + p] * b[p * n + j];
            c[i * n + j] = (float)s;
        }
}

int lab_tensor_matmul(lab_tensor **out, const lab_tensor *a, const lab_tensor *b, lab_error *err)
{
    int rc, prev;
    *out = NULL;
    rc = check_operands(a, b, "lab_tensor_matmul", err);
    if (rc != LAB_OK)
        return rc;
    if (a->ndim != 2 || b->ndim != 2 || a->shape[1] != b->shape[0])
        return lab_error_set(err, LAB_EINVAL,
                             "lab_tensor_matmul: needs an (m, k) and a (k, n) matrix; got %d-D "
                             "(%zu, %zu) and %d-D (%zu, %zu)",
                             a->ndim, a->shape[0], a->shape[1], b->ndim, b->shape[0], b->shape[1]);
    size_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
    size_t shape[2] = { m, n };
    if (m > 0x7fffffff || k > 0x7fffffff || n > 0x7fffffff)
        return lab_error_set(err, LAB_EINVAL, "lab_tensor_matmul: too large for cuBLAS");
    rc = alloc_tensor(out, a->device, 2, shape, err);
    if (rc != LAB_OK || m == 0 || n == 0)
        return rc;
    lab_tensor *c = *out;
    if (c->device.kind == LAB_DEVICE_CPU) {
        matmul_cpu(c->data, a->data, b->data, m, k, n);
        return LAB_OK;
    }
    /* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS sees B^T (n, k)
     * and A^T (k, m), both untransposed in its column-major terms. */
    cudaError_t e = enter_device(c->device, &prev);
    if (e != cudaSuccess) {
        rc = cuda_failed(err, e, "cudaSetDevice", c->device);
    } else {
        cublasHandle_t h;
        const float one = 1.0f, zero = 0.0f;
        cublasStatus_t s = cublasCreate(&h);
        if (s == CUBLAS_STATUS_SUCCESS) {
            s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b->data,
                            (int)n, a->data, (int)(k ? k : 1), &zero, c->data, (int)n);
            cublasDestroy(h);
        }
        if (s != CUBLAS_STATUS_SUCCESS)
            rc = cublas_failed(err, s, "cublasSgemm", c->device);
        else if ((e = cudaDeviceSynchronize()) != cudaSuccess)
            rc = cuda_failed(err, e, "lab_tensor_matmul", c->device);
        leave_device(prev);
    }
    if (rc != LAB_OK) {
        lab_tensor_destroy(c);
        *out = NULL;
    }
    return rc;
}

/* ---- accessors ----------------------------------------------------------- */

lab_device lab_tensor_device(const lab_tensor *t)
{
    return t->device;
}

float *lab_tensor_data(const lab_tensor *t)
{
    return t->data;
}

int lab_tensor_ndim(const lab_tensor *t)
{
    return t->ndim;
}

size_t lab_tensor_dim(const lab_tensor *t, int dim)
{
    return dim >= 0 && dim < t->ndim ? t->shape[dim] : 0;
}

size_t lab_tensor_numel(const lab_tensor *t)
{
    return t->numel;
}
