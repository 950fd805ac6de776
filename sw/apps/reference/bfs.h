// Host reference for sw/kernels/bfs.cu (tests/kernels/bfs_test.cpp, the bfs app): the test
// graph and a queue-based BFS. Levels are integers: exact.
#pragma once

#include <queue>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

struct Csr {
  std::vector<int> row_ptr, col_idx;
};

// A random directed graph: a long path 0 -> 1 -> ... keeps many levels, random extra edges
// give each vertex 0..max_degree neighbours (duplicates and self loops allowed), and every 7th
// vertex gets no random edges (its degree is at most 1).
inline Csr random_graph(int n, int max_degree, uint64_t seed) {
  Rng rng(seed);
  Csr g;
  g.row_ptr.push_back(0);
  for (int u = 0; u < n; ++u) {
    if (u % 5 != 4 && u + 1 < n) g.col_idx.push_back(u + 1);  // path, broken every 5th vertex
    int deg = u % 7 == 3 ? 0 : static_cast<int>(rng.integer(0, max_degree));
    for (int e = 0; e < deg; ++e) g.col_idx.push_back(static_cast<int>(rng.integer(0, n - 1)));
    g.row_ptr.push_back(static_cast<int>(g.col_idx.size()));
  }
  return g;
}

/// BFS levels from `source`; -1 for unreachable vertices.
inline std::vector<int> host_bfs(const Csr& g, int n, int source) {
  std::vector<int> dist(n, -1);
  std::queue<int> q;
  dist[source] = 0;
  q.push(source);
  while (!q.empty()) {
    int u = q.front();
    q.pop();
    for (int e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e)
      if (dist[g.col_idx[e]] < 0) {
        dist[g.col_idx[e]] = dist[u] + 1;
        q.push(g.col_idx[e]);
      }
  }
  return dist;
}

/// The vertices at `level`, ascending.
inline std::vector<int> vertices_at_level(const std::vector<int>& dist, int level) {
  std::vector<int> v;
  for (int u = 0; u < static_cast<int>(dist.size()); ++u)
    if (dist[u] == level) v.push_back(u);
  return v;
}

}  // namespace gpusoc::apps::reference
