// graph.hpp — what the files of the simulator's CUDA graphs share
// (graph.cpp: graphs and their nodes; graph_exec.cpp: instantiation and
// launch; capture.cpp: stream capture): the graph, node and executable-graph
// objects and the registry of live ones. Not seen by lab code.
#ifndef GPULAB_SIM_GRAPH_HPP
#define GPULAB_SIM_GRAPH_HPP

#include <functional>
#include <memory>
#include <vector>

#include "internal.hpp"

struct CUgraphNode_st {
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    std::vector<CUgraphNode_st *> deps;
    const char *what = "";
    // A node made by capture: puts the captured work on a stream.
    std::function<cudaError_t(cudaStream_t)> captured;
    // Kernel: its parameters, and copies of the arguments (packed, each at a
    // 16-byte boundary).
    cudaKernelNodeParams kernel{};
    std::vector<char> args;
    std::vector<size_t> arg_at;
    cudaMemcpy3DParms copy{};
    cudaMemsetParams set{};
    cudaHostNodeParams host{};
    cudaEvent_t event = nullptr;
    std::shared_ptr<CUgraph_st> child; // a copy of the child graph
};

struct CUgraph_st {
    std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
    std::vector<CUgraphNode_st *> capture_tail; // what the next captured node depends on
    unsigned long long capture_id = 0;
};

struct CUgraphExec_st {
    struct step {
        CUgraphNode_st node;    // its own copy of the node's parameters
        CUgraphNode_st *origin; // the graph's node (cudaGraphExecKernelNodeSetParams)
    };
    std::vector<step> steps; // in launch order
};

namespace gpulab_sim
{
namespace graphs
{
// The registry of live graphs and executable graphs (graph.cpp).
bool valid_graph(cudaGraph_t g);
bool valid_exec(cudaGraphExec_t x);
cudaGraph_t new_graph();
void add_exec(cudaGraphExec_t x);
bool remove_exec(cudaGraphExec_t x);
// Whether node n belongs to g.
bool in_graph(cudaGraph_t g, cudaGraphNode_t n);
// Copies a kernel node's parameters and arguments into n (api names the call in reports).
cudaError_t set_kernel(CUgraphNode_st *n, const cudaKernelNodeParams *p, const char *api);
// A deep copy of g (its nodes, their dependencies mapped to the copies).
std::shared_ptr<CUgraph_st> clone(const CUgraph_st &g);
// g's nodes, each after its dependencies, child graphs flattened in place;
// false when the dependencies make a cycle (graph_exec.cpp).
bool order(const CUgraph_st &g, std::vector<CUgraphExec_st::step> *out);
} // namespace graphs
} // namespace gpulab_sim

#endif
