// clang-format off
// CHECK-TOOL: all
// CHECK-CLEAN
// clang-format on
// ok_struct_copy — whole-struct copies and memcpy/memset in a kernel, all in
// bounds: each block stages its 16-byte particles in shared memory (struct
// assignment), reverses them after a barrier, and each thread also builds a
// local record with memset and memcpy. A compiler may turn any of these into
// calls to memcpy or memset; none of them is an error.
#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

#define N 1024
#define THREADS 128

struct __align__(16) particle
{
    float x, y, z, mass;
};

// out[i] = the particle at the mirrored place of i's block, with its mass
// replaced by the sum of its first three fields computed from a local copy.
__global__ void mirror_kernel(const particle *in, particle *out, int n)
{
    __shared__ particle tile[THREADS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < n)
        tile[t] = in[i];
    __syncthreads();
    int j = blockDim.x - 1 - t;
    int src = blockIdx.x * blockDim.x + j;
    if (i < n && src < n) {
        float local[8];
        memset(local, 0, sizeof(local));
        memcpy(local, &tile[j], sizeof(particle));
        particle p = tile[j];
        p.mass = local[0] + local[1] + local[2] + local[4];
        memcpy(&out[i], &p, sizeof(p));
    }
}

int main(void)
{
    static particle h_in[N], h_out[N];
    for (int i = 0; i < N; i++)
        h_in[i] = particle{ (float)i, 2.0f * i, 0.5f, 1.0f };
    particle *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof(h_in));
    cudaMalloc((void **)&d_out, sizeof(h_out));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    mirror_kernel<<<N / THREADS, THREADS>>>(d_in, d_out, N);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int b = i / THREADS, src = b * THREADS + THREADS - 1 - i % THREADS;
        particle w = h_in[src];
        float mass = w.x + w.y + w.z;
        if ((h_out[i].x != w.x || h_out[i].y != w.y || h_out[i].z != w.z ||
             h_out[i].mass != mass) &&
            bad++ < 5)
            printf("out[%d] = (%g, %g, %g, %g), expected (%g, %g, %g, %g)\n", i, h_out[i].x,
                   h_out[i].y, h_out[i].z, h_out[i].mass, w.x, w.y, w.z, mass);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    printf("%s ok_struct_copy (%s)\n", bad || e ? "FAIL" : "PASS", cudaGetErrorName(e));
    return bad || e ? 1 : 0;
}
