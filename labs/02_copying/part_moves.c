/*
 * Lab 02's harness (students do not edit it): parts 1 and 2 of the run —
 * your round trips (copies.cu) checked bit for bit, the peer copy, and the
 * add across devices refused, then fixed.
 */
#include "copying.h"
#include "harness.h"

#include "lab/device.h"
#include "lab/tensor.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * 1. round trips
 */

void lab02_part_roundtrip(lab02_run *r, const float *h_x, size_t n, float *h_raw, float *h_tensor)
{
    lab_error err = { 0 };
    lab02_fill_nan(h_raw, n);
    lab02_fill_nan(h_tensor, n);
    printf("\n== 1. round trips: %zu floats (%zu bytes), host -> cuda:0 -> host\n", n,
           n * sizeof(float));
    cudaError_t e = roundtrip_raw(h_raw, h_x, n);
    int rc = roundtrip_tensor(h_tensor, h_x, n, "cuda:0", &err);
    size_t d_raw = lab02_count_differing(h_raw, h_x, n),
           d_tensor = lab02_count_differing(h_tensor, h_x, n);
    printf("  cudaMalloc + cudaMemcpy : %s, %zu of %zu floats differ from the input bit for bit\n",
           cudaGetErrorName(e), d_raw, n);
    printf("  lab_tensor_to           : %s, %zu of %zu floats differ\n",
           rc == LAB_OK ? "LAB_OK" : err.msg, d_tensor, n);
    lab02_fact_string(r, "roundtrip_raw_error", cudaGetErrorName(e));
    lab02_fact_string(r, "roundtrip_tensor_status", lab_status_name(rc));
    lab02_expect(r, e == cudaSuccess && d_raw == 0, "raw round trip",
                 "roundtrip_raw in copies.cu must return every float unchanged");
    lab02_expect(r, rc == LAB_OK && d_tensor == 0, "tensor round trip",
                 "roundtrip_tensor in copies.cu must return every float unchanged");
}

/* ---------------------------------------------------------------------------
 * 2. between devices
 */

void lab02_part_devices(lab02_run *r, const float *h_a, const float *h_b, size_t n, float *h_peer,
                        float *h_sum)
{
    int ndev = lab_num_gpus();
    const char *dev_b = ndev >= 2 ? "cuda:1" : "cpu";
    char refused[LAB_ERROR_MSG_MAX] = "", want[LAB_ERROR_MSG_MAX];
    lab_error err = { 0 };
    printf("\n== 2. between devices (%d device%s)\n", ndev, ndev == 1 ? "" : "s");
    lab02_fact_int(r, "devices", ndev);

    lab02_fill_nan(h_peer, n);
    if (ndev >= 2) {
        cudaError_t e = peer_copy(h_peer, h_a, n, 0, 1);
        cudaSetDevice(0);
        size_t d = lab02_count_differing(h_peer, h_a, n);
        printf("  cudaMemcpyPeer cuda:0 -> cuda:1: %s, %zu of %zu floats differ\n",
               cudaGetErrorName(e), d, n);
        lab02_fact_string(r, "peer_copy_error", cudaGetErrorName(e));
        lab02_expect(r, e == cudaSuccess && d == 0, "peer copy",
                     "peer_copy in copies.cu must bring every float back unchanged");
    } else {
        printf("  peer copy: skipped, one device (on the simulator: GPULAB_SIM_DEVICES=2)\n");
    }

    lab02_fill_nan(h_sum, n);
    int rc =
        add_across_devices(h_sum, h_a, h_b, n, "cuda:0", dev_b, refused, sizeof(refused), &err);
    snprintf(want, sizeof(want),
             "expected all tensors to be on the same device, but found at least two devices, "
             "cuda:0 and %s",
             dev_b);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += !(h_sum[i] == h_a[i] + h_b[i]);
    printf("  a on cuda:0 + b on %s, refused with:\n    \"%s\"\n", dev_b,
           refused[0] ? refused : "(nothing: the add was never tried)");
    printf("  fixed by moving b to cuda:0: %s, %zu of %zu sums differ from the CPU's\n",
           rc == LAB_OK ? "LAB_OK" : err.msg, bad, n);
    lab02_fact_string(r, "cross_device_error", refused);
    lab02_fact_string(r, "cross_device_add_status", lab_status_name(rc));
    lab02_expect(r, strcmp(refused, want) == 0, "cross-device add refused",
                 "add_across_devices must try the add first and keep its message");
    lab02_expect(r, rc == LAB_OK && bad == 0, "cross-device add fixed",
                 "move b to a's device with lab_tensor_to, then add");

    /* The no-op: a tensor moved to its own device is the same tensor. */
    const char *last = ndev >= 2 ? "cuda:1" : "cuda:0";
    size_t shape[1] = { n };
    lab_tensor *z = NULL, *again = NULL;
    int same = 0;
    if (lab_tensor_create(&z, last, 1, shape, h_a, &err) == LAB_OK &&
        lab_tensor_to(&again, z, last, &err) == LAB_OK)
        same = again == z && lab_tensor_data(again) == lab_tensor_data(z);
    printf("  Z on %s: lab_tensor_to(Z, \"%s\") is Z: %s (no copy, no new memory)\n", last, last,
           same ? "yes" : "NO");
    lab02_fact_bool(r, "to_same_device_is_same", same);
    lab02_expect(r, same, "no-op lab_tensor_to", "the common library's lab_tensor_to is broken");
    lab_tensor_destroy(again);
    lab_tensor_destroy(z);
}
