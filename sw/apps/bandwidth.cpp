// STREAM (McCalpin) on the GPU: copy, scale, add and triad over three float arrays, each checked
// against the CPU bit for bit, each reported with the bytes it moved and, on the SoC, the memory
// bandwidth it achieved in simulated time: the end-to-end measure of the memory system.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::detail {
namespace {

constexpr float kScalar = 3.0f;
// 128 threads: few enough for stream_add's registers on small.json's 8192-register SMs
// (`gpusoc ptx info sw/kernels/stream.ptx`).
constexpr uint32_t kBlock = 128;

// Runs one kernel and notes what it moved and, where the device keeps simulated time, how fast.
template <typename... Args>
void timed(AppDevice& dev, AppResult& r, const char* label, uint64_t bytes, const char* kernel,
           uint64_t n, const Args&... args) {
  // One element a thread, as BabelStream launches them (the kernels' loops cover any rest).
  const LaunchConfig cfg{Dim3(blocks_of(n, kBlock)), Dim3(kBlock)};
  const double ns = simulated_ns(dev, [&] { dev.run(kernel, cfg, args..., int64_t(n)); });
  r.figures.push_back(rate(std::string(label) + "_bw", bytes, ns, "GB/s",
                           std::string("STREAM ") + label +
                               ", bytes read and written as STREAM counts"));
  if (ns > 0) {
    r.notes.push_back(fmt::format("{:<6} {:9.3f} MB in {:10.3f} us simulated: {:8.2f} GB/s", label,
                                  bytes / 1e6, ns / 1e3, bytes / ns));
  } else {
    r.notes.push_back(
        fmt::format("{:<6} {:9.3f} MB (no simulated time on this device)", label, bytes / 1e6));
  }
}

// The STREAM sequence: c = a; b = q c; c = a + b; a = b + q c. Each result is one correctly
// rounded float operation per element (triad one fma, as nvcc contracts it): exact comparison.
AppResult stream(AppDevice& dev, uint64_t n) {
  dev.load("stream.ptx");
  std::vector<float> a = reference::random_floats(n, -1.f, 1.f, 61),
                     b = reference::random_floats(n, -1.f, 1.f, 62),
                     c = reference::random_floats(n, -1.f, 1.f, 63);
  const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c);
  AppResult r;
  Tally t;
  const auto check = [&](DevicePtr p, const std::vector<float>& want) {
    const auto got = dev.download<float>(p, n);
    for (uint64_t i = 0; i < n; ++i) t.exact(reference::f2u(got[i]) == reference::f2u(want[i]));
  };
  const uint64_t two = 2 * 4 * n, three = 3 * 4 * n;  // bytes read + written, as STREAM counts

  timed(dev, r, "copy", two, "stream_copy", n, da, dc);
  c = a;
  check(dc, c);
  timed(dev, r, "scale", two, "stream_scale", n, db, dc, kScalar);
  for (uint64_t i = 0; i < n; ++i) b[i] = kScalar * c[i];
  check(db, b);
  timed(dev, r, "add", three, "stream_add", n, da, db, dc);
  for (uint64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
  check(dc, c);
  timed(dev, r, "triad", three, "stream_triad", n, da, db, dc, kScalar);
  for (uint64_t i = 0; i < n; ++i) a[i] = std::fma(kScalar, c[i], b[i]);
  check(da, a);

  r.verified = t.ok();
  r.summary =
      fmt::format("stream n={}: copy, scale, add, triad: {} against the CPU", n, t.wrong_of());
  return r;
}

}  // namespace

std::vector<App> bandwidth_apps() {
  return {
      {"stream", "STREAM copy, scale, add, triad over n floats: memory bandwidth in simulated time",
       1 << 22, "elements", stream},
  };
}

}  // namespace gpusoc::apps::detail
