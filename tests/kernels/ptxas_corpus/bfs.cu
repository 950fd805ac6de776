// Breadth-first search: Rodinia-style frontier masks and Lonestar-style worklist
#include <cuda_runtime.h>

struct Node { int starting; int no_of_edges; };

extern "C" __global__ void bfs_Kernel(Node* g_graph_nodes, int* g_graph_edges, bool* g_graph_mask,
                                      bool* g_updating_graph_mask, bool* g_graph_visited, int* g_cost, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

extern "C" __global__ void bfs_Kernel2(bool* g_graph_mask, bool* g_updating_graph_mask, bool* g_graph_visited,
                                       bool* g_over, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}

// Topology-driven worklist BFS in CSR with warp-aggregated atomic push
extern "C" __global__ void bfs_worklist(const int* __restrict__ row_start, const int* __restrict__ edge_dst,
                                        unsigned int* __restrict__ dist, const int* __restrict__ in_wl, int in_size,
                                        int* __restrict__ out_wl, int* __restrict__ out_size, unsigned int level)
{
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < in_size; idx += blockDim.x * gridDim.x) {
        int src = in_wl[idx];
        int beg = row_start[src], end = row_start[src + 1];
        for (int e = beg; e < end; ++e) {
            int dst = edge_dst[e];
            if (dist[dst] == 0xffffffffu) {
                unsigned int old = atomicMin(&dist[dst], level + 1);
                if (old == 0xffffffffu) {
                    unsigned int mask = __activemask();
                    int leader = __ffs(mask) - 1;
                    int lane = threadIdx.x & 31;
                    int base = 0;
                    if (lane == leader) base = atomicAdd(out_size, __popc(mask));
                    base = __shfl_sync(mask, base, leader);
                    out_wl[base + __popc(mask & ((1u << lane) - 1))] = dst;
                }
            }
        }
    }
}

// Single-source shortest path relaxation (Bellman-Ford style, data-driven)
extern "C" __global__ void sssp_relax(const int* __restrict__ row_start, const int* __restrict__ edge_dst,
                                      const int* __restrict__ weight, int* dist, int n, int* changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    int dv = dist[v];
    if (dv == 0x7fffffff) return;
    bool any = false;
    for (int e = row_start[v]; e < row_start[v + 1]; ++e) {
        int u = edge_dst[e];
        int nd = dv + weight[e];
        if (nd < dist[u]) {
            atomicMin(&dist[u], nd);
            any = true;
        }
    }
    if (any) *changed = 1;
}
