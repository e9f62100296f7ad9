// streams_timeline.cu — for the test of `gpulab nsys profile`: stream 1 copies
// a up from pinned memory and records an event; stream 2 waits for the event
// and scales a, while stream 1 copies b up (the copy overlaps the kernel);
// then each copies its result back. A pageable copy on the default stream
// comes last. NVTX ranges ("copies" around "kernel") and a mark name the
// host's steps; their depths are checked as NVTX returns them.
#include <nvtx3/nvToolsExt.h>

#include <cstdio>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

int main()
{
    const int n = 1 << 20;
    float *ha, *hb, *da, *db;
    cudaMallocHost(&ha, n * sizeof(float));
    cudaMallocHost(&hb, n * sizeof(float));
    for (int i = 0; i < n; i++)
        ha[i] = hb[i] = 1.0f;
    cudaMalloc(&da, n * sizeof(float));
    cudaMalloc(&db, n * sizeof(float));
    cudaStream_t s1, s2;
    cudaEvent_t up;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    cudaEventCreate(&up);
    int depths_ok = nvtxRangePushA("copies") == 0;
    cudaMemcpyAsync(da, ha, n * sizeof(float), cudaMemcpyHostToDevice, s1);
    cudaEventRecord(up, s1);
    cudaMemcpyAsync(db, hb, n * sizeof(float), cudaMemcpyHostToDevice, s1);
    cudaStreamWaitEvent(s2, up, 0);
    depths_ok &= nvtxRangePushA("kernel") == 1;
    scale<<<n / 256, 256, 0, s2>>>(da, n);
    depths_ok &= nvtxRangePop() == 1;
    nvtxMarkA("queued");
    cudaMemcpyAsync(ha, da, n * sizeof(float), cudaMemcpyDeviceToHost, s2);
    cudaMemcpyAsync(hb, db, n * sizeof(float), cudaMemcpyDeviceToHost, s1);
    cudaDeviceSynchronize();
    depths_ok &= nvtxRangePop() == 0 && nvtxRangePop() == -1; // the last: no range open
    float *pageable = new float[n];
    cudaMemcpy(pageable, da, n * sizeof(float), cudaMemcpyDeviceToHost);
    int ok = ha[n - 1] == 2.0f && hb[n - 1] == 1.0f && pageable[0] == 2.0f && depths_ok;
    printf("%s streams_timeline\n", ok ? "PASS" : "FAIL");
    delete[] pageable;
    cudaEventDestroy(up);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(da);
    cudaFree(db);
    cudaFreeHost(ha);
    cudaFreeHost(hb);
    return ok ? 0 : 1;
}
