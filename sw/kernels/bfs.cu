// Breadth-first search over a graph in CSR form (row_ptr[n+1], col_idx[edges]); dist[v] is the
// BFS level of v, -1 while unvisited. The host launches one kernel per level until nothing changes.
// Divergent by nature: threads own vertices of different degree and mostly find nothing to do.

// Frontier queue: one thread per vertex of the current frontier. A neighbour is claimed with
// atomicCAS on its distance, so it is appended to the next frontier exactly once.
extern "C" __global__ void bfs_expand(const int* row_ptr, const int* col_idx, const int* frontier,
                                      int frontier_size, int* next_frontier, int* next_size,
                                      int* dist, int level) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_size) return;
  int u = frontier[i];
  int end = row_ptr[u + 1];
  for (int e = row_ptr[u]; e < end; ++e) {
    int v = col_idx[e];
    if (atomicCAS(&dist[v], -1, level + 1) == -1) {
      int slot = atomicAdd(next_size, 1);
      next_frontier[slot] = v;
    }
  }
}

// Level-synchronous, one thread per vertex: vertices at `level` label unvisited neighbours with
// level + 1 and raise *changed. Racing writers all store the same value, so plain stores do.
extern "C" __global__ void bfs_level(const int* row_ptr, const int* col_idx, int n, int* dist,
                                     int level, int* changed) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || dist[u] != level) return;
  for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
    int v = col_idx[e];
    if (dist[v] == -1) {
      dist[v] = level + 1;
      atomicOr(changed, 1);
    }
  }
}
