// graph_exec.cpp — executable graphs (docs/simulator.md): instantiation
// orders a graph's nodes so that each comes after its dependencies (child
// graphs flattened in place); a launch puts them on the stream in that
// order, so they run one after another, in an order a GPU could have run
// them in. Updates change the parameters of the same nodes.
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "check.hpp"
#include "graph.hpp"
#include "model.hpp"
#include "trace.hpp"

namespace gpulab_sim
{
namespace graphs
{
namespace
{

// A memset node's work: elements of 1, 2 or 4 bytes, rows `pitch` apart.
cudaError_t run_memset(const cudaMemsetParams &p, cudaStream_t s)
{
    size_t esize = p.elementSize, row = p.width * esize;
    size_t pitch = p.height > 1 ? p.pitch : row;
    if (row == 0 || p.height == 0)
        return cudaSuccess;
    size_t span = pitch * (p.height - 1) + row;
    gpulab_sim::allocation a;
    if (!gpulab_sim::range_in_allocation(p.dst, span, &a)) {
        report("memset node: %zu bytes from %p are not inside one device allocation", span, p.dst);
        return cudaErrorInvalidValue;
    }
    cudaMemsetParams q = p;
    return gpulab_sim::enqueue(s, "cudaGraphMemsetNode", [q, esize, row, pitch, span, s]() {
        gpulab_sim::device_memory_scope open(q.dst, span);
        for (size_t r = 0; r < q.height; r++) {
            char *line = (char *)q.dst + r * pitch;
            for (size_t i = 0; i < q.width; i++)
                memcpy(line + i * esize, &q.value, esize); // little-endian: the low bytes
            gpulab_sim::check_mark_init(line, row);
        }
        gpulab_sim::model_memset(s, q.width * esize * q.height);
        return cudaSuccess;
    });
}

// Puts one node's work on stream s.
cudaError_t run_node(const CUgraphNode_st &n, cudaStream_t s)
{
    if (n.captured)
        return n.captured(s);
    switch (n.type) {
    case cudaGraphNodeTypeKernel: {
        std::vector<void *> args;
        for (size_t off : n.arg_at)
            args.push_back((void *)(n.args.data() + off));
        return gpulab_sim::launch_kernel_at("cudaGraphLaunch", n.kernel.func, n.kernel.gridDim,
                                            n.kernel.blockDim, args.data(), n.kernel.sharedMemBytes,
                                            s);
    }
    case cudaGraphNodeTypeMemcpy:
        return cudaMemcpy3DAsync(&n.copy, s);
    case cudaGraphNodeTypeMemset:
        return run_memset(n.set, s);
    case cudaGraphNodeTypeHost:
        return cudaLaunchHostFunc(s, n.host.fn, n.host.userData);
    case cudaGraphNodeTypeEventRecord:
        return cudaEventRecord(n.event, s);
    case cudaGraphNodeTypeWaitEvent:
        return cudaStreamWaitEvent(s, n.event, 0);
    default:
        return cudaSuccess; // empty; child graphs are flattened at instantiation
    }
}

} // namespace

// Ties in the order the nodes were added.
bool order(const CUgraph_st &g, std::vector<CUgraphExec_st::step> *out)
{
    std::map<const CUgraphNode_st *, size_t> index;
    for (size_t i = 0; i < g.nodes.size(); i++)
        index[g.nodes[i].get()] = i;
    std::vector<size_t> waiting(g.nodes.size());
    std::vector<std::vector<size_t>> after(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); i++)
        for (const CUgraphNode_st *d : g.nodes[i]->deps) {
            waiting[i]++;
            after[index[d]].push_back(i);
        }
    std::set<size_t> ready;
    for (size_t i = 0; i < g.nodes.size(); i++)
        if (!waiting[i])
            ready.insert(i);
    size_t done = 0;
    while (!ready.empty()) {
        size_t i = *ready.begin();
        ready.erase(ready.begin());
        done++;
        CUgraphNode_st *n = g.nodes[i].get();
        if (n->type == cudaGraphNodeTypeGraph && n->child) {
            if (!order(*n->child, out))
                return false;
        } else {
            out->push_back(CUgraphExec_st::step{ *n, n });
        }
        for (size_t j : after[i])
            if (--waiting[j] == 0)
                ready.insert(j);
    }
    return done == g.nodes.size();
}

} // namespace graphs
} // namespace gpulab_sim

using namespace gpulab_sim::graphs;
using gpulab_sim::record;
using gpulab_sim::report;

extern "C" {

// ---------------------------------------------------------------------------
// Executable graphs

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags)
{
    gpulab_sim::trace_api api_call_("cudaGraphInstantiate");
    (void)flags; // upload and auto-free change nothing here; device launch is not simulated
    if (!pGraphExec || !valid_graph(graph))
        return record(cudaErrorInvalidValue);
    auto x = std::make_unique<CUgraphExec_st>();
    if (!order(*graph, &x->steps)) {
        report("cudaGraphInstantiate: the graph's dependencies make a cycle");
        return record(cudaErrorInvalidValue);
    }
    *pGraphExec = x.release();
    add_exec(*pGraphExec);
    return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    int d;
    if (!valid_exec(graphExec))
        return record(cudaErrorInvalidValue);
    if (!gpulab_sim::stream_device(stream, &d))
        return record(cudaErrorInvalidResourceHandle);
    return cudaSuccess; // nothing to upload: the nodes are in host memory
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    gpulab_sim::trace_api api_call_("cudaGraphLaunch");
    int d;
    cudaError_t e = gpulab_sim::enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!valid_exec(graphExec))
        return record(cudaErrorInvalidValue);
    if (!gpulab_sim::stream_device(stream, &d))
        return record(cudaErrorInvalidResourceHandle);
    for (const CUgraphExec_st::step &s : graphExec->steps) {
        e = run_node(s.node, stream);
        if (e != cudaSuccess)
            return record(e);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    if (!remove_exec(graphExec))
        return record(cudaErrorInvalidValue);
    delete graphExec;
    return cudaSuccess;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    if (!valid_exec(hGraphExec) || !node)
        return record(cudaErrorInvalidValue);
    for (CUgraphExec_st::step &s : hGraphExec->steps)
        if (s.origin == node && s.node.type == cudaGraphNodeTypeKernel && !s.node.captured)
            return record(set_kernel(&s.node, pNodeParams, "cudaGraphExecKernelNodeSetParams"));
    return record(cudaErrorInvalidValue);
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo)
{
    cudaGraphExecUpdateResultInfo info{ cudaGraphExecUpdateError, nullptr, nullptr };
    std::vector<CUgraphExec_st::step> steps;
    cudaError_t e = cudaErrorInvalidValue;
    if (valid_exec(hGraphExec) && valid_graph(hGraph) && order(*hGraph, &steps)) {
        // The update keeps the executable graph's shape: the same nodes, of
        // the same types, in the same order; only their parameters change.
        e = cudaErrorGraphExecUpdateFailure;
        if (steps.size() != hGraphExec->steps.size()) {
            info.result = cudaGraphExecUpdateErrorTopologyChanged;
        } else {
            info.result = cudaGraphExecUpdateSuccess;
            for (size_t i = 0; i < steps.size(); i++) {
                const CUgraphNode_st &a = hGraphExec->steps[i].node, &b = steps[i].node;
                if (a.type != b.type || (bool)a.captured != (bool)b.captured ||
                    a.deps.size() != b.deps.size()) {
                    info.result = a.type != b.type ? cudaGraphExecUpdateErrorNodeTypeChanged
                                                   : cudaGraphExecUpdateErrorTopologyChanged;
                    info.errorNode = steps[i].origin;
                    break;
                }
            }
            if (info.result == cudaGraphExecUpdateSuccess) {
                hGraphExec->steps = std::move(steps);
                e = cudaSuccess;
            }
        }
    }
    if (resultInfo)
        *resultInfo = info;
    return record(e);
}

} // extern "C"
