// 03_grid3d_indexing — 3-D grids and blocks: a 3x2x2 grid of 4x3x5 blocks;
// each thread writes its built-in coordinates at its global linear id, and
// gridDim/blockDim must be what the launch asked for in every thread.
#include "conformance.h"

#define GX 3
#define GY 2
#define GZ 2
#define BX 4
#define BY 3
#define BZ 5
#define NTHREADS (GX * GY * GZ * BX * BY * BZ)

// out[id] packs (blockIdx, threadIdx) as decimal digits; dims[id] packs the dimensions.
__global__ void write_ids(int *out, int *dims)
{
    int block_id = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int thread_in_block = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int id = block_id * (blockDim.x * blockDim.y * blockDim.z) + thread_in_block;
    out[id] = blockIdx.x * 100000 + blockIdx.y * 10000 + blockIdx.z * 1000 + threadIdx.x * 100 +
              threadIdx.y * 10 + threadIdx.z;
    dims[id] = gridDim.x * 100000 + gridDim.y * 10000 + gridDim.z * 1000 + blockDim.x * 100 +
               blockDim.y * 10 + blockDim.z;
}

int main(void)
{
    conf_require_device();

    int *d_out, *d_dims;
    static int h_out[NTHREADS], h_dims[NTHREADS];
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
    CHECK_CUDA(cudaMalloc(&d_dims, sizeof(h_dims)));
    CHECK_CUDA(cudaMemset(d_out, 0xff, sizeof(h_out)));
    write_ids<<<dim3(GX, GY, GZ), dim3(BX, BY, BZ)>>>(d_out, d_dims);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_dims, d_dims, sizeof(h_dims), cudaMemcpyDeviceToHost));

    int want_dims = GX * 100000 + GY * 10000 + GZ * 1000 + BX * 100 + BY * 10 + BZ;
    int id = 0;
    for (int bz = 0; bz < GZ; bz++)
        for (int by = 0; by < GY; by++)
            for (int bx = 0; bx < GX; bx++)
                for (int tz = 0; tz < BZ; tz++)
                    for (int ty = 0; ty < BY; ty++)
                        for (int tx = 0; tx < BX; tx++, id++) {
                            int want =
                                bx * 100000 + by * 10000 + bz * 1000 + tx * 100 + ty * 10 + tz;
                            conf_check(h_out[id] == want, "out[%d] = %d, expected %06d", id,
                                       h_out[id], want);
                            conf_check(h_dims[id] == want_dims, "dims[%d] = %d, expected %d", id,
                                       h_dims[id], want_dims);
                        }

    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_dims));
    return conf_finish();
}
