// Atomics apps: every atomic operation on global and shared counters (atomics.cu), and 256-bin
// byte histograms through shared and global atomics (histogram.cu). Results are exact.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/atomics.h"
#include "sw/apps/reference/histogram.h"

namespace gpusoc::apps::detail {
namespace {

constexpr uint32_t kBlock = 128;

// The final counters are order-independent by construction; the values the atomics returned
// (tickets, exchanges, atomicInc) depend on the order and are checked as multisets.
AppResult atomics(AppDevice& dev, uint64_t size) {
  dev.load("atomics.ptx");
  const int n = int(size);
  const std::vector<int> vals = reference::atomic_inputs(n, 7);
  const AtomicCounters init = reference::initial_counters();
  const DevicePtr dvals = dev.upload(vals), counters = dev.malloc(sizeof init);
  dev.copy_to_device(counters, &init, sizeof init);
  const DevicePtr tickets = dev.malloc(size * 4), exch = dev.malloc(size * 4),
                  inc = dev.malloc(size * 4);
  const uint32_t blocks = blocks_of(size, kBlock);
  dev.run("atomics_global", {blocks, kBlock}, dvals, n, counters, tickets, exch, inc);
  AtomicCounters got;
  dev.copy_to_host(&got, counters, sizeof got);
  AppResult r;
  r.notes = reference::counter_mismatches(got, reference::expected_counters(vals));
  const bool returned_ok =
      reference::is_ticket_sequence(dev.download<uint32_t>(tickets, size)) &&
      reference::is_exchange_chain(dev.download<int32_t>(exch, size), got.exch_i) &&
      reference::is_wrapping_increment(dev.download<uint32_t>(inc, size));

  const DevicePtr out = dev.malloc(blocks * 8 * 4);
  dev.run("atomics_shared", {blocks, kBlock}, dvals, n, out);
  const auto results = dev.download<int32_t>(out, blocks * 8);
  Tally shared;
  for (uint32_t b = 0; b < blocks; ++b) {
    const auto want = reference::shared_block_results(vals, b * kBlock,
                                                      std::min<uint64_t>(size, (b + 1) * kBlock));
    for (int j = 0; j < 8; ++j)
      shared.exact(reference::shared_result_matches(j, results[b * 8 + j], want[j]));
  }
  r.verified = r.notes.empty() && returned_ok && shared.ok();
  r.summary = fmt::format(
      "atomics n={}: {} of {} global counters wrong, returned old values {}; shared-memory "
      "block results {}",
      n, r.notes.size(), reference::kCheckedCounters, returned_ok ? "consistent" : "WRONG",
      shared.wrong_of());
  return r;
}

AppResult histogram(AppDevice& dev, uint64_t n) {
  dev.load("histogram.ptx");
  const std::vector<uint8_t> inputs[2] = {reference::uniform_bytes(n, 5),
                                          reference::skewed_bytes(n, 6)};
  const std::vector<uint32_t> zeros(256, 0);
  const uint32_t blocks = reference::histogram_blocks(n);
  Tally bins;
  for (const auto& data : inputs) {
    const DevicePtr d = dev.upload(data);
    const std::vector<uint32_t> want = reference::host_histogram(data);
    for (const char* kernel : {"histogram_shared", "histogram_global"}) {
      const DevicePtr counts = dev.upload(zeros);
      dev.run(kernel, {blocks, uint32_t(reference::kHistogramBlockThreads)}, d, int32_t(n), counts);
      const auto got = dev.download<uint32_t>(counts, 256);
      for (int b = 0; b < 256; ++b) bins.exact(got[b] == want[b]);
    }
  }
  AppResult r;
  r.verified = bins.ok();
  r.summary = fmt::format(
      "histogram n={} bytes, uniform and skewed, histogram_shared and histogram_global: bins {}", n,
      bins.wrong_of());
  return r;
}

}  // namespace

std::vector<App> atomic_apps() {
  return {
      {"atomics", "every atomic operation on global and shared counters", 1 << 16, "threads",
       atomics, /*needs_soc=*/false, /*order_dependent_counts=*/true},
      {"histogram", "256-bin byte histograms, shared-memory and global atomics", 1 << 20, "bytes",
       histogram},
  };
}

}  // namespace gpusoc::apps::detail
