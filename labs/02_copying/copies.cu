/*
 * copies.cu — lab 02, part 1: data lives on a device, and moves only when asked.
 *
 *   roundtrip_raw        host -> device -> host with cudaMalloc / cudaMemcpy
 *   roundtrip_tensor     the same through lab_tensor: cpu -> cuda:0 -> cpu
 *   peer_copy            device src -> device dst with cudaMemcpyPeer
 *   add_across_devices   an add of tensors on two devices: refused, then fixed
 *
 * The plain CPU code these port, where there is one memory and nothing has
 * to move (each line's GPU version beside it):
 *
 *   float *x = malloc(bytes);            cudaMalloc(&d_x, bytes)
 *   memcpy(x, h_in, bytes);              cudaMemcpy(d_x, h_in, bytes, cudaMemcpyHostToDevice)
 *   memcpy(h_out, x, bytes);             cudaMemcpy(h_out, d_x, bytes, cudaMemcpyDeviceToHost)
 *   free(x);                             cudaFree(d_x)
 *   for (i = 0; i < n; i++)              the add: only once a and b are on one device
 *       sum[i] = a[i] + b[i];
 *
 * Build and run (from the repository root):
 *   cmake --build build --target lab02 && build/bin/lab02-sim-student
 *   GPULAB_SIM_DEVICES=2 build/bin/lab02-sim-student     # two simulated devices
 */
#include "copying.h"

#include "lab/tensor.h"
#include "lab/todo.h"

#include <stdio.h>

/* ---------------------------------------------------------------------------
 * Round trips
 */

cudaError_t roundtrip_raw(float *h_out, const float *h_in, size_t n)
{
    // TODO 1: allocate n floats on the device (cudaMalloc), copy h_in there
    // (cudaMemcpyHostToDevice), copy them back into h_out
    // (cudaMemcpyDeviceToHost) and cudaFree. Return the first error met. About 10 lines.
    LAB_TODO_UNUSED(h_out, h_in, n);
    return cudaSuccess;
}

int roundtrip_tensor(float *h_out, const float *h_in, size_t n, const char *device, lab_error *err)
{
    // TODO 2: make a CPU tensor of h_in (lab_tensor_create on "cpu"), move it
    // to `device` with lab_tensor_to, move that back to "cpu", copy its
    // elements into h_out (lab_tensor_copy_to_host) and destroy every tensor
    // you were handed. Return the first status that is not LAB_OK. About 12 lines.
    LAB_TODO_UNUSED(h_out, h_in, n, device, err);
    return LAB_OK;
}

/* ---------------------------------------------------------------------------
 * Between devices
 */

cudaError_t peer_copy(float *h_out, const float *h_in, size_t n, int src_dev, int dst_dev)
{
    // TODO 3: cudaSetDevice(src_dev) and cudaMalloc a buffer there, copy h_in
    // into it; cudaSetDevice(dst_dev) and cudaMalloc a second buffer; copy
    // device to device with cudaMemcpyPeer(d_dst, dst_dev, d_src, src_dev,
    // bytes); copy the second buffer into h_out; free both. About 20 lines.
    LAB_TODO_UNUSED(h_out, h_in, n, src_dev, dst_dev);
    return cudaSuccess;
}

int add_across_devices(float *h_sum, const float *h_a, const float *h_b, size_t n,
                       const char *dev_a, const char *dev_b, char *refused, size_t refused_len,
                       lab_error *err)
{
    size_t shape[1] = { n };
    lab_tensor *a = NULL, *b = NULL, *b_moved = NULL, *sum = NULL;
    lab_error first;
    int rc = lab_tensor_create(&a, dev_a, 1, shape, h_a, err);
    if (rc == LAB_OK)
        rc = lab_tensor_create(&b, dev_b, 1, shape, h_b, err);
    if (rc != LAB_OK)
        goto destroy;
    // TODO 4: call lab_tensor_add(&sum, a, b, &first): with a and b on two
    // devices it must fail; copy its message (first.msg) into `refused`.
    // Then fix it: lab_tensor_to(&b_moved, b, dev_a, err), add a and b_moved,
    // and copy the sum into h_sum with lab_tensor_copy_to_host. About 10 lines.
    LAB_TODO_UNUSED(h_sum, first, refused, refused_len);
destroy:
    lab_tensor_destroy(sum);
    lab_tensor_destroy(b_moved);
    lab_tensor_destroy(b);
    lab_tensor_destroy(a);
    return rc;
}
