// Data-parallel primitives: bitonic sort (bitonic.cu) and prefix sums (scan.cu), both driven
// by the host over many launches. Keys and integer sums are exact.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/bitonic.h"
#include "sw/apps/reference/scan.h"

namespace gpusoc::apps::detail {
namespace {

constexpr uint32_t kSortBlock = 256;  // bitonic_sort_shared sorts 2 * 256 keys per block

uint64_t count_differences(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want) {
  uint64_t wrong = 0;
  for (size_t i = 0; i < want.size(); ++i) wrong += got[i] != want[i];
  return wrong;
}

// The whole array through the global network: keys padded to a power of two with 0xFFFFFFFF,
// one bitonic_step launch per (k, j). Then each 512-key segment in shared memory.
AppResult bitonic_sort(AppDevice& dev, uint64_t n) {
  dev.load("bitonic.ptx");
  const std::vector<uint32_t> keys = reference::bitonic_keys(n, 29);
  uint64_t padded = 1;
  while (padded < n) padded <<= 1;
  std::vector<uint32_t> want(keys);
  want.resize(padded, 0xFFFFFFFFu);
  const DevicePtr d = dev.upload(want);
  int launches = 0;
  for (uint64_t k = 2; k <= padded; k <<= 1) {
    for (uint64_t j = k >> 1; j > 0; j >>= 1, ++launches)
      dev.run("bitonic_step", {blocks_of(padded, 256), 256}, d, int32_t(padded), int32_t(j),
              int32_t(k));
  }
  std::sort(want.begin(), want.end());
  const uint64_t wrong_full = count_differences(dev.download<uint32_t>(d, padded), want);

  const uint32_t segment = 2 * kSortBlock;
  const DevicePtr s = dev.upload(keys);
  dev.run("bitonic_sort_shared", {blocks_of(n, segment), kSortBlock, segment * 4}, s, int32_t(n));
  const uint64_t wrong_segments =
      count_differences(dev.download<uint32_t>(s, n), reference::sorted_segments(keys, segment));
  AppResult r;
  r.verified = wrong_full == 0 && wrong_segments == 0;
  r.summary = fmt::format(
      "bitonic n={} (padded to {}): bitonic_step x {} launches, {} keys out of place; "
      "bitonic_sort_shared in segments of {}, {} keys out of place",
      n, padded, launches, wrong_full, segment, wrong_segments);
  return r;
}

constexpr uint32_t kScanThreads = 256;
constexpr int kExclusivePerBlock = 512;

// Exclusive scan of n ints: per-block Blelloch scans, the scan of the block sums (recursively),
// then the scanned sums added to each block.
void exclusive_scan(AppDevice& dev, DevicePtr in, DevicePtr out, int n) {
  const uint32_t blocks = blocks_of(n, kExclusivePerBlock);
  if (blocks == 1) {
    dev.run("scan_exclusive_block", {1, kScanThreads}, in, out, DevicePtr(0), n);
    return;
  }
  const DevicePtr sums = dev.malloc(blocks * 4), offsets = dev.malloc(blocks * 4);
  dev.run("scan_exclusive_block", {blocks, kScanThreads}, in, out, sums, n);
  exclusive_scan(dev, sums, offsets, int(blocks));
  dev.run("scan_add_offsets", {blocks, kScanThreads}, out, offsets, n, kExclusivePerBlock);
}

// Inclusive scan: per-block shuffle scans, then the exclusive scan of the block totals added.
void inclusive_scan(AppDevice& dev, DevicePtr in, DevicePtr out, int n) {
  const uint32_t blocks = blocks_of(n, kScanThreads);
  if (blocks == 1) {
    dev.run("scan_inclusive_shfl", {1, kScanThreads}, in, out, DevicePtr(0), n);
    return;
  }
  const DevicePtr sums = dev.malloc(blocks * 4), offsets = dev.malloc(blocks * 4);
  dev.run("scan_inclusive_shfl", {blocks, kScanThreads}, in, out, sums, n);
  exclusive_scan(dev, sums, offsets, int(blocks));
  dev.run("scan_add_offsets", {blocks, kScanThreads}, out, offsets, n, int32_t(kScanThreads));
}

AppResult scan(AppDevice& dev, uint64_t size) {
  dev.load("scan.ptx");
  const int n = int(size);
  const std::vector<int> data = reference::random_ints(n, -100, 100, 31);
  const DevicePtr in = dev.upload(data), ex = dev.malloc(size * 4), inc = dev.malloc(size * 4);
  exclusive_scan(dev, in, ex, n);
  inclusive_scan(dev, in, inc, n);
  const auto got_ex = dev.download<int>(ex, size), got_inc = dev.download<int>(inc, size);
  const auto want_ex = reference::exclusive_scan(data), want_inc = reference::inclusive_scan(data);
  Tally t;
  for (size_t i = 0; i < size; ++i) {
    t.exact(got_ex[i] == want_ex[i]);
    t.exact(got_inc[i] == want_inc[i]);
  }
  AppResult r;
  r.verified = t.ok();
  r.summary = fmt::format(
      "scan n={}: exclusive (Blelloch) and inclusive (shuffle) prefix sums, {} elements", n,
      t.wrong_of());
  return r;
}

}  // namespace

std::vector<App> sort_scan_apps() {
  return {
      {"bitonic_sort",
       "bitonic sort: global compare-exchange steps, 512-key segments in shared memory", 1 << 13,
       "keys", bitonic_sort},
      {"scan", "exclusive and inclusive prefix sums of ints, multi-block", 1 << 18, "elements",
       scan},
  };
}

}  // namespace gpusoc::apps::detail
