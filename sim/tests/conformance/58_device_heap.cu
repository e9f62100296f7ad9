// 58_device_heap — malloc and free in kernels: the heap is
// cudaLimitMallocHeapSize bytes (set here to 1 MiB before the first kernel
// that calls malloc), malloc gives NULL once it is spent and memory again
// after free, a block outlives the kernel that allocated it (another kernel
// reads and frees it), and the limit can no longer be set once a kernel has
// used the heap.
#include "conformance.h"

#define BLOCK (64 * 1024)

// Takes BLOCK-byte blocks until malloc gives NULL, writes each whole, counts
// them, and gives them all back.
__global__ void fill_heap(int *count, int *bad)
{
    char *prev = NULL, *p;
    int n = 0;
    while (n < 1000 && (p = (char *)malloc(BLOCK)) != NULL) {
        for (int i = sizeof(char *); i < BLOCK; i++)
            p[i] = (char)n;
        *(char **)p = prev;
        prev = p;
        n++;
    }
    int k = n;
    while (prev) {
        p = *(char **)prev;
        k--;
        if (prev[BLOCK - 1] != (char)k)
            (*bad)++;
        free(prev);
        prev = p;
    }
    *count = n;
}

__global__ void make_list(int **out, int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    if (p)
        for (int i = 0; i < n; i++)
            p[i] = i * i;
    *out = p;
}

__global__ void sum_and_free(int **list, int n, long long *sum)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += (*list)[i];
    *sum = s;
    free(*list);
}

int main(void)
{
    conf_require_device();

    size_t heap = 0;
    CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    conf_check(heap == 8u << 20, "the default heap is %zu bytes, want 8 MiB", heap);
    CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1u << 20));
    CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    conf_check(heap >= 1u << 20, "the heap is %zu bytes after setting 1 MiB", heap);

    int *d_count, *d_bad, count[2] = { 0, 0 }, bad = 0;
    CHECK_CUDA(cudaMalloc(&d_count, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_bad, sizeof(int)));
    CHECK_CUDA(cudaMemset(d_bad, 0, sizeof(int)));
    for (int round = 0; round < 2; round++) {
        fill_heap<<<1, 1>>>(d_count, d_bad);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaMemcpy(&count[round], d_count, sizeof(int), cudaMemcpyDeviceToHost));
    }
    CHECK_CUDA(cudaMemcpy(&bad, d_bad, sizeof(int), cudaMemcpyDeviceToHost));
    // 16 blocks of 64 KiB fill 1 MiB; a GPU's allocator keeps some for itself.
    conf_check(count[0] >= 8 && count[0] <= (int)(heap / BLOCK),
               "malloc gave %d blocks of 64 KiB from a %zu-byte heap", count[0], heap);
    conf_check(count[1] == count[0], "after free, %d blocks again (first %d)", count[1], count[0]);
    conf_check(bad == 0, "%d blocks did not keep what was written", bad);

    cudaError_t late = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2u << 20);
    conf_check_err(late, cudaErrorInvalidValue);
    cudaGetLastError();

    int **d_list;
    long long *d_sum, sum = 0;
    CHECK_CUDA(cudaMalloc(&d_list, sizeof(int *)));
    CHECK_CUDA(cudaMalloc(&d_sum, sizeof(long long)));
    make_list<<<1, 1>>>(d_list, 1000);
    sum_and_free<<<1, 1>>>(d_list, 1000, d_sum);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost));
    conf_check(sum == 332833500LL, "the list's sum is %lld, want 332833500", sum);

    CHECK_CUDA(cudaFree(d_count));
    CHECK_CUDA(cudaFree(d_bad));
    CHECK_CUDA(cudaFree(d_list));
    CHECK_CUDA(cudaFree(d_sum));
    return conf_finish();
}
