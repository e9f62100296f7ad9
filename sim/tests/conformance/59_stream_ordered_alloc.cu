// 59_stream_ordered_alloc — cudaMallocAsync and cudaFreeAsync in stream
// order (a pipeline of allocate, fill, compute, copy back, free on one
// stream), the typed overloads, memory pools: the default and the current
// pool, a release threshold read back, an explicit pool with
// cudaMallocFromPoolAsync, the used-memory counters, and the errors CUDA
// gives for a pool it will not destroy or an attribute it will not set.
#include "conformance.h"

#define N 4096
#define THREADS 256

__global__ void fill(float *x, int n, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v * (float)i;
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    conf_require_device();
    int device = 0, pools = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
    conf_check(pools == 1, "cudaDevAttrMemoryPoolsSupported is %d", pools);

    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    static float h_c[N];
    const size_t bytes = N * sizeof(float);
    int blocks = (N + THREADS - 1) / THREADS;
    for (int round = 0; round < 3; round++) {
        float *a, *b, *c;
        CHECK_CUDA(cudaMallocAsync(&a, bytes, s)); // the typed overload
        CHECK_CUDA(cudaMallocAsync((void **)&b, bytes, s));
        CHECK_CUDA(cudaMallocAsync(&c, bytes, s));
        fill<<<blocks, THREADS, 0, s>>>(a, N, 1.0f);
        fill<<<blocks, THREADS, 0, s>>>(b, N, 2.0f + round);
        add<<<blocks, THREADS, 0, s>>>(a, b, c, N);
        CHECK_CUDA(cudaMemcpyAsync(h_c, c, bytes, cudaMemcpyDeviceToHost, s));
        CHECK_CUDA(cudaFreeAsync(a, s));
        CHECK_CUDA(cudaFreeAsync(b, s));
        CHECK_CUDA(cudaFreeAsync(c, s));
        CHECK_CUDA(cudaStreamSynchronize(s));
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += h_c[i] != (3.0f + round) * (float)i;
        conf_check(bad == 0, "round %d: %d wrong sums", round, bad);
    }

    // The default pool is the current one; its release threshold reads back.
    cudaMemPool_t def, cur;
    CHECK_CUDA(cudaDeviceGetDefaultMemPool(&def, device));
    CHECK_CUDA(cudaDeviceGetMemPool(&cur, device));
    conf_check(def == cur, "the current pool is not the default one");
    unsigned long long threshold = 1ull << 30, got = 0;
    CHECK_CUDA(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK_CUDA(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &got));
    conf_check(got == threshold, "release threshold reads %llu", got);
    conf_check_err(cudaMemPoolDestroy(def), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    unsigned long long nonzero = 5;
    conf_check_err(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &nonzero),
                   cudaErrorInvalidValue);
    (void)cudaGetLastError();

    // An explicit pool: its used-memory counters follow its allocations.
    cudaMemPoolProps props;
    memset(&props, 0, sizeof(props));
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool;
    CHECK_CUDA(cudaMemPoolCreate(&pool, &props));
    float *p;
    CHECK_CUDA(cudaMallocFromPoolAsync((void **)&p, bytes, pool, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    unsigned long long used = 0, high = 0;
    CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    conf_check(used >= bytes, "UsedMemCurrent %llu after allocating %zu bytes", used, bytes);
    fill<<<blocks, THREADS, 0, s>>>(p, N, 1.0f);
    CHECK_CUDA(cudaFreeAsync(p, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    conf_check(used == 0, "UsedMemCurrent %llu after the free", used);
    conf_check(high >= bytes, "UsedMemHigh %llu", high);
    // Made current, it serves cudaMallocAsync.
    CHECK_CUDA(cudaDeviceSetMemPool(device, pool));
    CHECK_CUDA(cudaMallocAsync((void **)&p, bytes, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    conf_check(used >= bytes, "the current pool did not serve cudaMallocAsync (%llu)", used);
    CHECK_CUDA(cudaFreeAsync(p, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaDeviceSetMemPool(device, def));
    CHECK_CUDA(cudaMemPoolDestroy(pool));
    CHECK_CUDA(cudaStreamDestroy(s));
    return conf_finish();
}
