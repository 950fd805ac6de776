// Warp- and grid-level apps: the warp collectives and reducing barriers (warp_ops.cu), and the
// special registers of a 3D launch (thread_ids.cu). Exact.
#include <fmt/format.h>

#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/thread_ids.h"
#include "sw/apps/reference/warp_ops.h"

namespace gpusoc::apps::detail {
namespace {

constexpr uint32_t kWarpBlock = 128;  // the kernels need full warps and read one word a thread

template <size_t N, typename Expected>
Tally check_words(const std::vector<uint32_t>& got, int n, Expected expected) {
  Tally t;
  for (int i = 0; i < n; ++i) {
    const auto want = expected(i);
    for (size_t j = 0; j < N; ++j) t.exact(got[i * N + j] == uint32_t(want[j]));
  }
  return t;
}

AppResult warp_ops(AppDevice& dev, uint64_t size) {
  dev.load("warp_ops.ptx");
  const uint32_t blocks = blocks_of(size, kWarpBlock);
  const int n = int(blocks * kWarpBlock);
  auto run = [&](const char* kernel, size_t words, const std::vector<uint32_t>& in) {
    const DevicePtr din = dev.upload(in), out = dev.malloc(in.size() * words * 4);
    dev.run(kernel, {blocks, kWarpBlock}, din, out);
    return dev.download<uint32_t>(out, in.size() * words);
  };
  const auto vote_in = reference::warp_inputs(n, 71), match_in = reference::warp_inputs(n, 72),
             shfl_in = reference::warp_inputs(n, 73),
             bar_in = reference::block_vote_inputs(n, kWarpBlock, 74);
  const Tally vote = check_words<8>(run("warp_vote", 8, vote_in), n, [&](int t) {
    return reference::warp_vote_expected(vote_in, t);
  });
  const Tally match = check_words<12>(run("warp_match_reduce", 12, match_in), n, [&](int t) {
    return reference::warp_match_reduce_expected(match_in, t);
  });
  const Tally shuffle = check_words<10>(run("warp_shuffle", 10, shfl_in), n, [&](int t) {
    return reference::warp_shuffle_expected(shfl_in, t);
  });
  const Tally barrier = check_words<3>(run("block_vote", 3, bar_in), n, [&](int t) {
    return reference::block_vote_expected(bar_in, kWarpBlock, t / kWarpBlock);
  });
  AppResult r;
  r.verified = vote.ok() && match.ok() && shuffle.ok() && barrier.ok();
  r.summary = fmt::format(
      "warp_ops {} threads: vote {}; match and redux {}; shuffles {}; reducing barriers {}", n,
      vote.wrong_of(), match.wrong_of(), shuffle.wrong_of(), barrier.wrong_of());
  return r;
}

// A 3D grid of 3D blocks of 42 threads (a full warp and a partial one). The SM count is the
// device's own (%nsmid of the first thread): every thread must agree with it.
AppResult thread_ids(AppDevice& dev, uint64_t size) {
  dev.load("thread_ids.ptx");
  const Dim3 block(7, 3, 2);
  const Dim3 grid(blocks_of(size, uint32_t(block.count()) * 4), 2, 2);
  const uint64_t threads = grid.count() * block.count();
  const DevicePtr out = dev.malloc(threads * reference::kThreadIdWords * 4);
  dev.run("thread_ids", {grid, block}, out);
  const auto got = dev.download<uint32_t>(out, threads * reference::kThreadIdWords);
  const uint32_t sms = got[14];
  const reference::ThreadIdCheck c = reference::check_thread_ids(got, grid, block, sms);
  AppResult r;
  if (!c.first.empty()) r.notes.push_back("first wrong: " + c.first);
  r.notes.push_back(fmt::format("%nsmid {}", sms));
  r.verified = c.wrong_words == 0 && sms > 0;
  r.summary = fmt::format(
      "thread_ids grid {}x{}x{} of blocks {}x{}x{} ({} threads): {} of {} special-register "
      "words wrong",
      grid.x, grid.y, grid.z, block.x, block.y, block.z, threads, c.wrong_words, threads * 16);
  return r;
}

}  // namespace

std::vector<App> warp_apps() {
  return {
      {"warp_ops", "vote, match, redux, shuffles and reducing barriers", 1 << 14,
       "threads, in whole blocks of 128", warp_ops},
      {"thread_ids", "special registers (%tid, %ctaid, %laneid, %smid, ...) in a 3D launch",
       1 << 14, "threads, rounded up to whole blocks", thread_ids},
  };
}

}  // namespace gpusoc::apps::detail
