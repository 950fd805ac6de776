// sw/kernels/bfs.cu: level-by-level BFS over a CSR graph, with a frontier queue (atomicCAS
// claims, atomicAdd appends) and with a per-vertex level sweep (changed flag). Exact. The graph
// and the host BFS are in sw/apps/reference/bfs.h.
#include "sw/apps/reference/bfs.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class BfsTest : public KernelTestWithParam<int> {
 protected:
  void SetUp() override {
    n_ = GetParam();
    graph_ = random_graph(n_, 4, 71 + n_);
    expected_ = host_bfs(graph_, n_, 0);
    row_ptr_ = dev.upload(graph_.row_ptr);
    col_idx_ = dev.upload(graph_.col_idx.empty() ? std::vector<int>{0} : graph_.col_idx);
    std::vector<int> dist(n_, -1);
    dist[0] = 0;
    dist_ = dev.upload(dist);
  }
  int n_ = 0;
  Csr graph_;
  std::vector<int> expected_;
  DevicePtr row_ptr_ = 0, col_idx_ = 0, dist_ = 0;
};

TEST_P(BfsTest, FrontierQueue) {
  Kernel k = load("bfs.ptx").kernel("bfs_expand");
  DevicePtr frontier = dev.malloc(n_ * sizeof(int)), next = dev.malloc(n_ * sizeof(int));
  DevicePtr next_size = dev.malloc(sizeof(int));
  std::vector<int> start{0};
  dev.copy_to_device(frontier, start.data(), sizeof(int));
  int size = 1;
  for (int level = 0; size > 0; ++level) {
    ASSERT_LE(level, n_) << "BFS does not terminate";
    dev.memset(next_size, 0, sizeof(int));
    dev.launch(k, Dim3(ceil_div(size, 128)), Dim3(128), row_ptr_, col_idx_, frontier, size, next,
               next_size, dist_, level);
    size = dev.download<int>(next_size, 1)[0];
    // The next frontier holds exactly the vertices at level + 1, each once (any order).
    auto got = dev.download<int>(next, size);
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, vertices_at_level(expected_, level + 1)) << "frontier after level " << level;
    std::swap(frontier, next);
  }
  EXPECT_EQ(dev.download<int>(dist_, n_), expected_);
}

TEST_P(BfsTest, LevelSweepWithChangedFlag) {
  Kernel k = load("bfs.ptx").kernel("bfs_level");
  DevicePtr changed = dev.malloc(sizeof(int));
  int levels = 0;
  for (int level = 0;; ++level) {
    ASSERT_LE(level, n_) << "BFS does not terminate";
    dev.memset(changed, 0, sizeof(int));
    dev.launch(k, Dim3(ceil_div(n_, 64)), Dim3(64), row_ptr_, col_idx_, n_, dist_, level, changed);
    if (dev.download<int>(changed, 1)[0] == 0) break;
    ++levels;
  }
  EXPECT_EQ(dev.download<int>(dist_, n_), expected_);
  EXPECT_EQ(levels, *std::max_element(expected_.begin(), expected_.end()));
}

INSTANTIATE_TEST_SUITE_P(Sizes, BfsTest, ::testing::Values(1, 2, 31, 33, 1000, 5000));

}  // namespace
}  // namespace gpusoc::kernel_test
