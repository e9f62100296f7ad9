// 60_graphs — CUDA graphs: a stream capture that forks to a second stream
// and joins back through events, replayed many times; an explicit graph of
// memset, memcpy, kernel, host and child-graph nodes with dependencies,
// cloned; a kernel node's parameters changed in the executable graph and
// by cudaGraphExecUpdate; node counts and types; capture refused on the
// legacy stream.
#include "conformance.h"

#define N 1024
#define THREADS 128

__global__ void scale(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

__global__ void add_to(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}

static void count_call(void *data)
{
    ++*(int *)data;
}

int main(void)
{
    conf_require_device();
    static float h[N];
    float *x, *y;
    const size_t bytes = N * sizeof(float);
    const int blocks = (N + THREADS - 1) / THREADS;
    CHECK_CUDA(cudaMalloc(&x, bytes));
    CHECK_CUDA(cudaMalloc(&y, bytes));
    cudaStream_t s1, s2;
    CHECK_CUDA(cudaStreamCreate(&s1));
    CHECK_CUDA(cudaStreamCreate(&s2));
    cudaEvent_t fork, join;
    CHECK_CUDA(cudaEventCreate(&fork));
    CHECK_CUDA(cudaEventCreate(&join));

    // 1. Capture: y = 0; x = 1 (on s1) ; fork: x *= 2 on s2; join; y += x.
    for (int i = 0; i < N; i++)
        h[i] = 1.0f;
    cudaGraph_t g;
    cudaStreamCaptureStatus status;
    CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
    conf_check(status == cudaStreamCaptureStatusActive, "s1 is not capturing (%d)", (int)status);
    CHECK_CUDA(cudaMemsetAsync(y, 0, bytes, s1));
    CHECK_CUDA(cudaMemcpyAsync(x, h, bytes, cudaMemcpyHostToDevice, s1));
    CHECK_CUDA(cudaEventRecord(fork, s1));
    CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
    scale<<<blocks, THREADS, 0, s2>>>(x, N, 2.0f);
    CHECK_CUDA(cudaEventRecord(join, s2));
    CHECK_CUDA(cudaStreamWaitEvent(s1, join, 0));
    add_to<<<blocks, THREADS, 0, s1>>>(y, x, N);
    CHECK_CUDA(cudaStreamEndCapture(s1, &g));
    CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
    conf_check(status == cudaStreamCaptureStatusNone, "s1 still capturing (%d)", (int)status);
    size_t nodes = 0;
    CHECK_CUDA(cudaGraphGetNodes(g, NULL, &nodes));
    conf_check(nodes >= 4, "the captured graph has %zu nodes", nodes);
    cudaGraphExec_t gx;
    CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
    for (int launch = 0; launch < 5; launch++)
        CHECK_CUDA(cudaGraphLaunch(gx, s1));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_CUDA(cudaMemcpy(h, y, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += h[i] != 2.0f; // each launch starts again from y = 0, x = 1
    conf_check(bad == 0, "captured graph: %d wrong values (y[0] = %g)", bad, h[0]);

    // 2. An explicit graph: memset y, memcpy x, then the kernel, then a host
    // node; a child graph of one kernel after it.
    cudaGraph_t e, child;
    CHECK_CUDA(cudaGraphCreate(&e, 0));
    CHECK_CUDA(cudaGraphCreate(&child, 0));
    cudaMemsetParams ms;
    memset(&ms, 0, sizeof(ms));
    ms.dst = y;
    ms.value = 0;
    ms.elementSize = 4;
    ms.width = N;
    ms.height = 1;
    cudaGraphNode_t set_node, copy_node, kernel_node, host_node, child_node;
    CHECK_CUDA(cudaGraphAddMemsetNode(&set_node, e, NULL, 0, &ms));
    static float src[N]; // read by the memcpy node each time the graph runs
    for (int i = 0; i < N; i++)
        src[i] = (float)i;
    CHECK_CUDA(
        cudaGraphAddMemcpyNode1D(&copy_node, e, NULL, 0, x, src, bytes, cudaMemcpyHostToDevice));
    cudaGraphNode_t both[2] = { set_node, copy_node };
    int n = N;
    float three = 3.0f;
    void *scale_args[3] = { &x, &n, &three };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scale;
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(THREADS);
    kp.kernelParams = scale_args;
    CHECK_CUDA(cudaGraphAddKernelNode(&kernel_node, e, both, 2, &kp));
    three = 100.0f; // the node copied the arguments when it was made
    int calls = 0;
    cudaHostNodeParams hp = { count_call, &calls };
    CHECK_CUDA(cudaGraphAddHostNode(&host_node, e, &kernel_node, 1, &hp));
    void *add_args[3] = { &y, &x, &n };
    cudaKernelNodeParams ap = kp;
    ap.func = (void *)add_to;
    ap.kernelParams = add_args;
    cudaGraphNode_t child_kernel;
    CHECK_CUDA(cudaGraphAddKernelNode(&child_kernel, child, NULL, 0, &ap));
    CHECK_CUDA(cudaGraphAddChildGraphNode(&child_node, e, &kernel_node, 1, child));
    cudaGraphNodeType type;
    CHECK_CUDA(cudaGraphNodeGetType(kernel_node, &type));
    conf_check(type == cudaGraphNodeTypeKernel, "node type %d", (int)type);
    CHECK_CUDA(cudaGraphGetNodes(e, NULL, &nodes));
    conf_check(nodes == 5, "the explicit graph has %zu nodes", nodes);
    cudaGraph_t copy;
    CHECK_CUDA(cudaGraphClone(&copy, e));
    cudaGraphExec_t ex, cx;
    CHECK_CUDA(cudaGraphInstantiate(&ex, e, 0));
    CHECK_CUDA(cudaGraphInstantiate(&cx, copy, 0));
    CHECK_CUDA(cudaGraphLaunch(ex, s1));
    CHECK_CUDA(cudaGraphLaunch(cx, s1));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    conf_check(calls == 2, "the host node ran %d times", calls);
    CHECK_CUDA(cudaMemcpy(h, y, bytes, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += h[i] != 3.0f * (float)i;
    conf_check(bad == 0, "explicit graph: %d wrong values (y[5] = %g)", bad, h[5]);

    // 3. New parameters for the kernel node in the executable graph.
    float five = 5.0f;
    void *args5[3] = { &x, &n, &five };
    kp.kernelParams = args5;
    CHECK_CUDA(cudaGraphExecKernelNodeSetParams(ex, kernel_node, &kp));
    CHECK_CUDA(cudaGraphLaunch(ex, s1));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_CUDA(cudaMemcpy(h, y, bytes, cudaMemcpyDeviceToHost));
    conf_check(h[7] == 35.0f, "after cudaGraphExecKernelNodeSetParams y[7] = %g", h[7]);

    // 4. cudaGraphExecUpdate from the graph (factor 3 again), and a refusal
    // when the shape differs.
    cudaGraphExecUpdateResultInfo info;
    CHECK_CUDA(cudaGraphExecUpdate(ex, e, &info));
    conf_check(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int)info.result);
    CHECK_CUDA(cudaGraphLaunch(ex, s1));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_CUDA(cudaMemcpy(h, y, bytes, cudaMemcpyDeviceToHost));
    conf_check(h[7] == 21.0f, "after cudaGraphExecUpdate y[7] = %g", h[7]);
    conf_check_err(cudaGraphExecUpdate(ex, child, &info), cudaErrorGraphExecUpdateFailure);
    conf_check(info.result != cudaGraphExecUpdateSuccess, "a different graph updated");
    (void)cudaGetLastError();

    // 5. The legacy stream cannot be captured.
    conf_check_err(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
                   cudaErrorStreamCaptureUnsupported);
    (void)cudaGetLastError();

    CHECK_CUDA(cudaGraphExecDestroy(gx));
    CHECK_CUDA(cudaGraphExecDestroy(ex));
    CHECK_CUDA(cudaGraphExecDestroy(cx));
    CHECK_CUDA(cudaGraphDestroy(g));
    CHECK_CUDA(cudaGraphDestroy(e));
    CHECK_CUDA(cudaGraphDestroy(copy));
    CHECK_CUDA(cudaGraphDestroy(child));
    CHECK_CUDA(cudaEventDestroy(fork));
    CHECK_CUDA(cudaEventDestroy(join));
    CHECK_CUDA(cudaStreamDestroy(s1));
    CHECK_CUDA(cudaStreamDestroy(s2));
    CHECK_CUDA(cudaFree(x));
    CHECK_CUDA(cudaFree(y));
    return conf_finish();
}
