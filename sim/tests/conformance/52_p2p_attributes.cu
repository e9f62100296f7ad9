// 52_p2p_attributes — cudaDeviceGetP2PAttribute between two devices: access
// as cudaDeviceCanAccessPeer says, native atomics only where there is access,
// a rank of 0 or more, a device paired with itself refused
// (cudaErrorInvalidDevice), cudaDevAttrHostNativeAtomicSupported 0 or 1.
// (Skipped with fewer than 2 devices.)
// DEVICES: 2
#include "conformance.h"

int main(void)
{
    conf_require_devices(2);
    for (int src = 0; src < 2; src++) {
        int dst = 1 - src, can = -1, access = -1, atomics = -1, rank = -1;
        CHECK_CUDA(cudaDeviceCanAccessPeer(&can, src, dst));
        CHECK_CUDA(cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, src, dst));
        CHECK_CUDA(
            cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, src, dst));
        CHECK_CUDA(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, src, dst));
        conf_check(access == can, "%d -> %d: access attribute %d, cudaDeviceCanAccessPeer %d", src,
                   dst, access, can);
        conf_check(atomics == 0 || (atomics == 1 && access == 1),
                   "%d -> %d: native atomics %d with access %d", src, dst, atomics, access);
        conf_check(rank >= 0, "%d -> %d: performance rank %d", src, dst, rank);
    }
    for (int d = 0; d < 2; d++) {
        int host_atomics = -1;
        CHECK_CUDA(cudaDeviceGetAttribute(&host_atomics, cudaDevAttrHostNativeAtomicSupported, d));
        conf_check(host_atomics == 0 || host_atomics == 1, "device %d: host atomics %d", d,
                   host_atomics);
    }
    int value = -1;
    conf_check_err(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0),
                   cudaErrorInvalidDevice);
    conf_check_err(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 7),
                   cudaErrorInvalidDevice);
    cudaGetLastError();
    return conf_finish();
}
