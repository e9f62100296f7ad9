// graph.cpp — CUDA graphs and their nodes (docs/simulator.md): creating,
// cloning and querying graphs, and every kind of node the simulator has.
// Instantiation and launch: graph_exec.cpp; stream capture: capture.cpp.
//
// A graph is a list of nodes with their dependencies. Each node knows how to
// put its work on a stream: a kernel node launches its kernel with the
// arguments copied when the node was made, a memcpy or memset node queues the
// copy or set, a host node cudaLaunchHostFunc, event nodes record or wait,
// a child graph its own nodes; a node made by stream capture replays the
// work that was queued on the captured stream.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "graph.hpp"

namespace gpulab_sim
{
namespace graphs
{
namespace
{

std::mutex graphs_mutex;
std::set<cudaGraph_t> live_graphs;
std::set<cudaGraphExec_t> live_execs;

// Adds node n to g after deps (which must be nodes of g).
cudaError_t add_node(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                     std::unique_ptr<CUgraphNode_st> n)
{
    if (!out || !valid_graph(g) || (ndeps && !deps))
        return cudaErrorInvalidValue;
    for (size_t i = 0; i < ndeps; i++) {
        if (!in_graph(g, deps[i]))
            return cudaErrorInvalidValue;
        n->deps.push_back(deps[i]);
    }
    *out = n.get();
    g->nodes.push_back(std::move(n));
    return cudaSuccess;
}

// A new node of the given type; what names it in the stream's log.
std::unique_ptr<CUgraphNode_st> make_node(cudaGraphNodeType type, const char *what)
{
    auto n = std::make_unique<CUgraphNode_st>();
    n->type = type;
    n->what = what;
    return n;
}

// An event-record or event-wait node.
cudaError_t add_event_node(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps,
                           size_t ndeps, cudaEvent_t event, cudaGraphNodeType type,
                           const char *what)
{
    if (!event)
        return cudaErrorInvalidValue;
    auto n = make_node(type, what);
    n->event = event;
    return add_node(out, g, deps, ndeps, std::move(n));
}

} // namespace

bool valid_graph(cudaGraph_t g)
{
    std::lock_guard<std::mutex> lock(graphs_mutex);
    return g && live_graphs.count(g);
}

bool valid_exec(cudaGraphExec_t x)
{
    std::lock_guard<std::mutex> lock(graphs_mutex);
    return x && live_execs.count(x);
}

cudaGraph_t new_graph()
{
    cudaGraph_t g = new CUgraph_st;
    std::lock_guard<std::mutex> lock(graphs_mutex);
    live_graphs.insert(g);
    return g;
}

static bool remove_graph(cudaGraph_t g)
{
    std::lock_guard<std::mutex> lock(graphs_mutex);
    return g && live_graphs.erase(g);
}

void add_exec(cudaGraphExec_t x)
{
    std::lock_guard<std::mutex> lock(graphs_mutex);
    live_execs.insert(x);
}

bool remove_exec(cudaGraphExec_t x)
{
    std::lock_guard<std::mutex> lock(graphs_mutex);
    return x && live_execs.erase(x);
}

bool in_graph(cudaGraph_t g, cudaGraphNode_t n)
{
    for (auto &p : g->nodes)
        if (p.get() == n)
            return true;
    return false;
}

// Copies the kernel's arguments into the node.
cudaError_t set_kernel(CUgraphNode_st *n, const cudaKernelNodeParams *p, const char *api)
{
    const size_t *sizes;
    int count;
    if (!p || !p->func)
        return cudaErrorInvalidValue;
    if (p->extra) {
        report("%s: kernel arguments passed through `extra` are not simulated; use kernelParams",
               api);
        return cudaErrorNotSupported;
    }
    if (!gpulab_sim::kernel_params(p->func, &sizes, &count)) {
        report("%s: %p is not a kernel of this program that the simulator knows (a template "
               "kernel's instance cast to void * is not known)",
               api, p->func);
        return cudaErrorInvalidDeviceFunction;
    }
    if (count && !p->kernelParams)
        return cudaErrorInvalidValue;
    std::vector<char> args;
    std::vector<size_t> at;
    for (int i = 0; i < count; i++) {
        size_t off = (args.size() + 15) / 16 * 16;
        at.push_back(off);
        args.resize(off + sizes[i]);
        memcpy(args.data() + off, p->kernelParams[i], sizes[i]);
    }
    n->type = cudaGraphNodeTypeKernel;
    n->kernel = *p;
    n->kernel.kernelParams = nullptr;
    n->args = std::move(args);
    n->arg_at = std::move(at);
    n->what = gpulab_sim::kernel_entry_name(p->func);
    return cudaSuccess;
}

std::shared_ptr<CUgraph_st> clone(const CUgraph_st &g)
{
    auto c = std::make_shared<CUgraph_st>();
    std::map<const CUgraphNode_st *, CUgraphNode_st *> to;
    for (auto &n : g.nodes) {
        auto m = std::make_unique<CUgraphNode_st>(*n);
        to[n.get()] = m.get();
        c->nodes.push_back(std::move(m));
    }
    for (auto &n : c->nodes)
        for (auto &d : n->deps)
            d = to[d];
    return c;
}

} // namespace graphs
} // namespace gpulab_sim

const char gpulab_sim::graph_memory_api[] = "cudaGraphAddMemAllocNode";

using namespace gpulab_sim::graphs;
using gpulab_sim::record;
using gpulab_sim::report;

extern "C" {

// ---------------------------------------------------------------------------
// Graphs and nodes

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    if (!pGraph || flags != 0)
        return record(cudaErrorInvalidValue);
    *pGraph = new_graph();
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    if (!remove_graph(graph))
        return record(cudaErrorInvalidValue);
    gpulab_sim::stream_capture_end(graph); // a graph destroyed while captured into
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    if (!pGraphClone || !valid_graph(originalGraph))
        return record(cudaErrorInvalidValue);
    cudaGraph_t g = new_graph();
    std::shared_ptr<CUgraph_st> c = clone(*originalGraph);
    g->nodes = std::move(c->nodes);
    *pGraphClone = g;
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    if (!numNodes || !valid_graph(graph))
        return record(cudaErrorInvalidValue);
    if (!nodes) {
        *numNodes = graph->nodes.size();
        return cudaSuccess;
    }
    size_t n = std::min(*numNodes, graph->nodes.size());
    for (size_t i = 0; i < n; i++)
        nodes[i] = graph->nodes[i].get();
    for (size_t i = n; i < *numNodes; i++)
        nodes[i] = nullptr;
    *numNodes = n;
    return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes)
{
    if (!pNumRootNodes || !valid_graph(graph))
        return record(cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> roots;
    for (auto &n : graph->nodes)
        if (n->deps.empty())
            roots.push_back(n.get());
    if (!pRootNodes) {
        *pNumRootNodes = roots.size();
        return cudaSuccess;
    }
    size_t n = std::min(*pNumRootNodes, roots.size());
    std::copy(roots.begin(), roots.begin() + (long)n, pRootNodes);
    *pNumRootNodes = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, size_t numDependencies)
{
    if (!valid_graph(graph) || (numDependencies && (!from || !to)))
        return record(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        if (!in_graph(graph, from[i]) || !in_graph(graph, to[i]) || from[i] == to[i])
            return record(cudaErrorInvalidValue);
        to[i]->deps.push_back(from[i]);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    if (!node || !pType)
        return record(cudaErrorInvalidValue);
    *pType = node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         size_t *pNumDependencies)
{
    if (!node || !pNumDependencies)
        return record(cudaErrorInvalidValue);
    if (!pDependencies) {
        *pNumDependencies = node->deps.size();
        return cudaSuccess;
    }
    size_t n = std::min(*pNumDependencies, node->deps.size());
    std::copy(node->deps.begin(), node->deps.begin() + (long)n, pDependencies);
    *pNumDependencies = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams)
{
    auto n = std::make_unique<CUgraphNode_st>();
    cudaError_t e = set_kernel(n.get(), pNodeParams, "cudaGraphAddKernelNode");
    if (e == cudaSuccess)
        e = add_node(pGraphNode, graph, pDependencies, numDependencies, std::move(n));
    return record(e);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                         struct cudaKernelNodeParams *pNodeParams)
{
    if (!node || !pNodeParams || node->type != cudaGraphNodeTypeKernel || node->captured)
        return record(cudaErrorInvalidValue);
    // kernelParams points at the node's own copies of the arguments.
    static thread_local std::vector<void *> params;
    params.clear();
    for (size_t off : node->arg_at)
        params.push_back(node->args.data() + off);
    *pNodeParams = node->kernel;
    pNodeParams->kernelParams = params.data();
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *pNodeParams)
{
    if (!node || node->type != cudaGraphNodeTypeKernel || node->captured)
        return record(cudaErrorInvalidValue);
    return record(set_kernel(node, pNodeParams, "cudaGraphKernelNodeSetParams"));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams)
{
    if (!pCopyParams)
        return record(cudaErrorInvalidValue);
    if (pCopyParams->srcArray || pCopyParams->dstArray) {
        report("cudaGraphAddMemcpyNode: CUDA arrays (cudaArray_t) are not simulated");
        return record(cudaErrorNotSupported);
    }
    auto n = make_node(cudaGraphNodeTypeMemcpy, "cudaGraphMemcpyNode");
    n->copy = *pCopyParams;
    return record(add_node(pGraphNode, graph, pDependencies, numDependencies, std::move(n)));
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind)
{
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr((void *)src, count, count, 1);
    p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
    p.extent = make_cudaExtent(count, 1, 1);
    p.kind = kind;
    return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams)
{
    const cudaMemsetParams *p = pMemsetParams;
    if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) ||
        (p->height > 1 && p->pitch < p->width * p->elementSize))
        return record(cudaErrorInvalidValue);
    auto n = make_node(cudaGraphNodeTypeMemset, "cudaGraphMemsetNode");
    n->set = *p;
    return record(add_node(pGraphNode, graph, pDependencies, numDependencies, std::move(n)));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams || !pNodeParams->fn)
        return record(cudaErrorInvalidValue);
    auto n = make_node(cudaGraphNodeTypeHost, "cudaGraphHostNode");
    n->host = *pNodeParams;
    return record(add_node(pGraphNode, graph, pDependencies, numDependencies, std::move(n)));
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph)
{
    if (!valid_graph(childGraph) || childGraph == graph)
        return record(cudaErrorInvalidValue);
    auto n = make_node(cudaGraphNodeTypeGraph, "cudaGraphChildGraphNode");
    n->child = clone(*childGraph); // CUDA copies the child graph into the node
    return record(add_node(pGraphNode, graph, pDependencies, numDependencies, std::move(n)));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
    return record(add_node(pGraphNode, graph, pDependencies, numDependencies,
                           make_node(cudaGraphNodeTypeEmpty, "cudaGraphEmptyNode")));
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event)
{
    return record(add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                                 cudaGraphNodeTypeEventRecord, "cudaGraphEventRecordNode"));
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                      cudaEvent_t event)
{
    return record(add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                                 cudaGraphNodeTypeWaitEvent, "cudaGraphEventWaitNode"));
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams)
{
    if (!nodeParams || nodeParams->bytesize == 0 ||
        nodeParams->poolProps.allocType != cudaMemAllocationTypePinned ||
        nodeParams->poolProps.location.type != cudaMemLocationTypeDevice ||
        !gpulab_sim::valid_device(nodeParams->poolProps.location.id))
        return record(cudaErrorInvalidValue);
    // The memory is made now and kept (a GPU maps it when the graph runs and
    // gives the same address each time): a use after the free node is not
    // caught, and it is left out of the leak check.
    void *p = gpulab_sim::allocate_on(nodeParams->poolProps.location.id, nodeParams->bytesize,
                                      gpulab_sim::graph_memory_api);
    if (!p)
        return record(cudaErrorMemoryAllocation);
    auto n = make_node(cudaGraphNodeTypeMemAlloc, "cudaGraphMemAllocNode");
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, std::move(n));
    if (e != cudaSuccess) {
        gpulab_sim::free_allocation(p, "cudaGraphAddMemAllocNode");
        return record(e);
    }
    nodeParams->dptr = p;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    void *dptr)
{
    gpulab_sim::allocation a;
    if (!dptr || !gpulab_sim::find_allocation(dptr, &a) || a.base != (uintptr_t)dptr ||
        a.api != gpulab_sim::graph_memory_api)
        return record(cudaErrorInvalidValue);
    auto n = make_node(cudaGraphNodeTypeMemFree, "cudaGraphMemFreeNode");
    return record(add_node(pGraphNode, graph, pDependencies, numDependencies, std::move(n)));
}

} // extern "C"
