// Control flow and memory spaces: divergence and reconvergence made observable (divergence.cu),
// threads of one warp waiting on each other (spin_wait.cu), and volatile global/shared accesses
// and a dynamically indexed local array (memory.cu).
#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/divergence.h"
#include "sw/apps/reference/memory.h"

namespace gpusoc::apps::detail {
namespace {

constexpr int kDivergenceBlock = 96;  // three full warps (the kernels read one input per thread)

// Random branch inputs. divergence_trace: each thread's path and, beside each step, exactly the
// lanes of its warp on the same path. divergence_order: which slots took tickets, and within
// each warp the fall-through side first (the order of reference/divergence.h).
AppResult divergence(AppDevice& dev, uint64_t size) {
  using reference::kOrderSlots;
  using reference::kTraceSlots;
  dev.load("divergence.ptx");
  const reference::DivergenceLaunch l{int(blocks_of(size, kDivergenceBlock)), kDivergenceBlock, 1};
  const int n = l.threads();
  const std::vector<uint32_t> v = reference::divergence_inputs(l);
  const DevicePtr din = dev.upload(v), tags = dev.malloc(n * kTraceSlots * 4),
                  masks = dev.malloc(n * kTraceSlots * 4), counts = dev.malloc(n * 4);
  const LaunchConfig cfg{Dim3(l.grid), Dim3(l.block)};
  dev.run("divergence_trace", cfg, din, tags, masks, counts);
  const auto got_tags = dev.download<uint32_t>(tags, n * kTraceSlots);
  const auto got_masks = dev.download<uint32_t>(masks, n * kTraceSlots);
  const auto got_counts = dev.download<int>(counts, n);
  uint64_t wrong_traces = 0;
  for (int t = 0; t < n; ++t) {
    const auto want = reference::expected_trace(l, v, t);
    bool same = got_counts[t] == int(want.size());
    for (size_t s = 0; same && s < want.size(); ++s)
      same = got_tags[t * kTraceSlots + s] == want[s].first &&
             got_masks[t * kTraceSlots + s] == want[s].second;
    wrong_traces += !same;
  }

  const uint32_t zero = 0;
  const DevicePtr counter = dev.malloc(4);
  dev.copy_to_device(counter, &zero, 4);
  const DevicePtr seq =
      dev.upload(std::vector<uint32_t>(size_t(n) * kOrderSlots, reference::kNoTicket));
  dev.run("divergence_order", cfg, din, counter, seq);
  const auto tickets = dev.download<uint32_t>(seq, size_t(n) * kOrderSlots);
  uint64_t wrong_slots = 0;
  for (int t = 0; t < n; ++t)
    for (int s = 0; s < kOrderSlots; ++s)
      wrong_slots += (tickets[t * kOrderSlots + s] != reference::kNoTicket) !=
                     reference::order_slot_runs(v[t], s);
  const bool dense = reference::tickets_are_dense(tickets);
  const std::string violation = reference::ticket_order_violation(l, tickets);
  AppResult r;
  if (!violation.empty()) r.notes.push_back(violation);
  r.verified = wrong_traces == 0 && wrong_slots == 0 && dense && violation.empty();
  r.summary = fmt::format(
      "divergence {} threads in blocks of {}: {} of {} traces wrong (paths, __activemask); "
      "divergence_order: {} slots wrong, tickets {}, warp order {}",
      n, l.block, wrong_traces, n, wrong_slots, dense ? "dense" : "NOT dense",
      violation.empty() ? "fall-through first" : "WRONG");
  return r;
}

// One warp of `size` threads: threads 0 and 1 spin until the others set a flag. Completes only
// when the warp can switch between its two paths (independent thread scheduling).
AppResult spin_wait(AppDevice& dev, uint64_t size) {
  if (size < 3 || size > 32) throw std::invalid_argument("spin_wait needs 3 to 32 threads");
  dev.load("spin_wait.ptx");
  const int n = int(size);
  const int zero = 0;
  const DevicePtr flag = dev.malloc(4), out = dev.malloc(size * 4);
  dev.copy_to_device(flag, &zero, 4);
  dev.run("spin_wait", {1, uint32_t(n)}, flag, out);
  const auto got = dev.download<int>(out, size);
  Tally t;
  for (int i = 0; i < n; ++i) t.exact(got[i] == (i < 2 ? 100 : 200) + i);
  AppResult r;
  r.verified = t.ok();
  r.summary = fmt::format("spin_wait {} threads of one warp: 2 spinners released by {} setters, {}",
                          n, n - 2, t.wrong_of());
  return r;
}

AppResult memory(AppDevice& dev, uint64_t size) {
  dev.load("memory.ptx");
  const int n = int(size);
  constexpr int kBlock = 256;  // volatile_ops keeps one shared word per thread, 256 at most
  const std::vector<int> in = reference::volatile_inputs(n, 59);
  const DevicePtr din = dev.upload(in), scratch = dev.malloc(size * 4), out = dev.malloc(size * 12);
  dev.run("volatile_ops", {blocks_of(size, kBlock), kBlock}, din, scratch, out, n);
  const auto got = dev.download<int>(out, size * 3), sc = dev.download<int>(scratch, size);
  Tally vol;
  for (int i = 0; i < n; ++i) {
    vol.exact(sc[i] == 2 * in[i] && got[i * 3] == 2 * in[i] && got[i * 3 + 1] == 2 * in[i]);
    vol.exact(got[i * 3 + 2] == reference::volatile_neighbour(in, i, kBlock));
  }

  const std::vector<int> idx = reference::local_array_indices(n, 60);
  const DevicePtr didx = dev.upload(idx), lout = dev.malloc(size * 4);
  dev.run("local_array", {blocks_of(size, 128), 128}, didx, lout, n);
  const auto local = dev.download<int>(lout, size);
  Tally loc;
  for (int i = 0; i < n; ++i) loc.exact(local[i] == reference::local_array_result(i, idx[i]));
  AppResult r;
  r.verified = vol.ok() && loc.ok();
  r.summary = fmt::format(
      "memory n={}: volatile global and shared accesses {}; dynamically indexed local array {}", n,
      vol.wrong_of(), loc.wrong_of());
  return r;
}

}  // namespace

std::vector<App> control_apps() {
  return {
      {"divergence",
       "divergent if/else and loops: paths, active masks, order of the divergent paths", 1 << 14,
       "threads, in whole blocks of 96", divergence},
      {"memory", "volatile global and shared accesses, a dynamically indexed local array", 1 << 16,
       "elements", memory},
      {"spin_wait",
       "threads of a warp spin on a flag others of the warp set: needs sm.simt_model=independent",
       4,
       {"threads of one warp", 3, 32},
       spin_wait,
       false,
       false,
       true},
  };
}

}  // namespace gpusoc::apps::detail
