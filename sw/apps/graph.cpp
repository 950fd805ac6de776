// Irregular apps: breadth-first search over a random graph, with a frontier queue and with a
// level sweep (bfs.cu), and a CSR sparse matrix times a vector (spmv.cu).
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/bfs.h"
#include "sw/apps/reference/spmv.h"

namespace gpusoc::apps::detail {
namespace {

struct BfsRun {
  int levels = 0;           // launches that reached a new level
  uint64_t wrong_dist = 0;  // vertices whose level differs from the host BFS
  uint64_t wrong_frontiers = 0;
};

uint64_t count_differences(const std::vector<int>& got, const std::vector<int>& want) {
  uint64_t wrong = 0;
  for (size_t i = 0; i < want.size(); ++i) wrong += got[i] != want[i];
  return wrong;
}

// One thread per frontier vertex; each next frontier must hold exactly the vertices of the next
// level, in any order.
BfsRun frontier_queue(AppDevice& dev, DevicePtr row_ptr, DevicePtr col_idx,
                      const std::vector<int>& start, const std::vector<int>& want) {
  const int n = int(want.size()), zero = 0;
  const DevicePtr dist = dev.upload(start), size_slot = dev.malloc(4);
  DevicePtr frontier = dev.malloc(n * 4), next = dev.malloc(n * 4);
  dev.copy_to_device(frontier, &zero, 4);  // vertex 0
  BfsRun run;
  int size = 1;
  for (int level = 0; size > 0 && level <= n; ++level) {
    dev.copy_to_device(size_slot, &zero, 4);
    dev.run("bfs_expand", {blocks_of(size, 128), 128}, row_ptr, col_idx, frontier, size, next,
            size_slot, dist, level);
    dev.copy_to_host(&size, size_slot, 4);
    if (size < 0 || size > n) {
      ++run.wrong_frontiers;
      break;
    }
    auto got = dev.download<int>(next, size);
    std::sort(got.begin(), got.end());
    run.wrong_frontiers += got != reference::vertices_at_level(want, level + 1);
    run.levels += size > 0;
    std::swap(frontier, next);
  }
  run.wrong_dist = count_differences(dev.download<int>(dist, n), want);
  return run;
}

// One thread per vertex and launch per level, until no vertex changes.
BfsRun level_sweep(AppDevice& dev, DevicePtr row_ptr, DevicePtr col_idx,
                   const std::vector<int>& start, const std::vector<int>& want) {
  const int n = int(want.size()), zero = 0;
  const DevicePtr dist = dev.upload(start), changed = dev.malloc(4);
  BfsRun run;
  for (int level = 0, flag = 1; flag && level <= n; ++level) {
    dev.copy_to_device(changed, &zero, 4);
    dev.run("bfs_level", {blocks_of(n, 64), 64}, row_ptr, col_idx, n, dist, level, changed);
    dev.copy_to_host(&flag, changed, 4);
    run.levels += flag != 0;
  }
  run.wrong_dist = count_differences(dev.download<int>(dist, n), want);
  return run;
}

AppResult bfs(AppDevice& dev, uint64_t size) {
  dev.load("bfs.ptx");
  const int n = int(size);
  const reference::Csr g = reference::random_graph(n, 4, 17);
  const std::vector<int> want = reference::host_bfs(g, n, 0);
  const int depth = *std::max_element(want.begin(), want.end());
  std::vector<int> start(n, -1);
  start[0] = 0;
  const DevicePtr row_ptr = dev.upload(g.row_ptr),
                  col_idx = dev.upload(g.col_idx.empty() ? std::vector<int>{0} : g.col_idx);
  const BfsRun queue = frontier_queue(dev, row_ptr, col_idx, start, want);
  const BfsRun sweep = level_sweep(dev, row_ptr, col_idx, start, want);
  AppResult r;
  r.verified = queue.wrong_dist == 0 && queue.wrong_frontiers == 0 && queue.levels == depth &&
               sweep.wrong_dist == 0 && sweep.levels == depth;
  r.summary = fmt::format(
      "bfs {} vertices, {} edges, {} levels from vertex 0: frontier queue {} vertices and {} "
      "frontiers wrong in {} levels; level sweep {} vertices wrong in {} levels",
      n, g.col_idx.size(), depth, queue.wrong_dist, queue.wrong_frontiers, queue.levels,
      sweep.wrong_dist, sweep.levels);
  return r;
}

// A square matrix; each row is a sequential chain of multiply-adds (reference/spmv.h bounds it).
AppResult spmv(AppDevice& dev, uint64_t size) {
  dev.load("spmv.ptx");
  const int rows = int(size);
  const reference::CsrMatrix m = reference::random_csr(rows, rows, 23);
  const std::vector<float> x = reference::random_floats(rows, -1, 1, 24);
  const DevicePtr row_ptr = dev.upload(m.row_ptr), col_idx = dev.upload(m.col_idx),
                  vals = dev.upload(m.vals), dx = dev.upload(x), dy = dev.malloc(size * 4);
  dev.run("spmv_csr", {blocks_of(size, 128), 128}, rows, row_ptr, col_idx, vals, dx, dy);
  const auto y = dev.download<float>(dy, size);
  Tally t;
  for (int r = 0; r < rows; ++r) {
    const reference::RowProduct want = reference::spmv_row(m, x, r);
    t.bounded(std::fabs(double(y[r]) - want.value), want.tolerance);
  }
  AppResult r;
  r.verified = t.ok();
  r.summary = fmt::format("spmv {}x{} with {} non-zeros: rows {}", rows, rows, m.row_ptr.back(),
                          t.bounded_summary());
  return r;
}

}  // namespace

std::vector<App> graph_apps() {
  return {
      {"bfs", "breadth-first search, frontier queue and level sweep", 1 << 16, "vertices", bfs,
       /*needs_soc=*/false, /*order_dependent_counts=*/true},
      {"spmv", "y = A x, CSR sparse matrix, one thread per row", 1 << 15, "rows", spmv},
  };
}

}  // namespace gpusoc::apps::detail
