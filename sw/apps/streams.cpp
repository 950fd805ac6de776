// Two streams: the work of a vector add in chunks, alternating between two streams so that one
// chunk's copies run on the copy engines while another's kernel runs on the SMs. The report
// shows each chunk's timeline and how much of the copies the kernels hid, in simulated time.
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "sw/apps/apps.h"
#include "sw/apps/soc_app_device.h"

namespace gpusoc::apps::detail {
namespace {

constexpr int kChunks = 4;

struct ChunkEvents {
  rt::Event start, uploaded, computed, done;
};

double us(const rt::Event& e, uint64_t origin_ps) {
  return double(e.timestamp_ps() - origin_ps) / 1e6;
}

AppResult two_streams(AppDevice& base, uint64_t n) {
  auto& soc = dynamic_cast<SocAppDevice&>(base);
  rt::Device& dev = soc.runtime();
  soc.load("vector_add.ptx");
  const uint64_t chunk = (n + kChunks - 1) / kChunks;
  n = chunk * kChunks;
  // Asynchronous copies need pinned host memory, as in CUDA.
  rt::HostBuffer<float> a = dev.alloc_host<float>(n), b = dev.alloc_host<float>(n),
                        c = dev.alloc_host<float>(n);
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (uint64_t i = 0; i < n; ++i) {
    a[i] = dist(rng);
    b[i] = dist(rng);
  }
  const DevicePtr da = soc.malloc(n * 4), db = soc.malloc(n * 4), dc = soc.malloc(n * 4);
  rt::Stream streams[2] = {dev.create_stream(), dev.create_stream()};
  std::vector<LaunchStats> records(kChunks);
  std::vector<ChunkEvents> ev(kChunks);
  const uint64_t bytes = chunk * 4;
  for (int k = 0; k < kChunks; ++k) {
    rt::Stream& s = streams[k % 2];
    ChunkEvents& e = ev[k];
    e = {dev.create_event(), dev.create_event(), dev.create_event(), dev.create_event()};
    const uint64_t off = k * chunk;
    s.record(e.start);
    s.memcpy_htod(da + off * 4, a.data() + off, bytes);
    s.memcpy_htod(db + off * 4, b.data() + off, bytes);
    s.record(e.uploaded);
    const LaunchConfig cfg{Dim3(uint32_t((chunk + 255) / 256)), Dim3(256), 0, &records[k]};
    s.launch(soc.kernel("vector_add"), cfg, da + off * 4, db + off * 4, dc + off * 4,
             int32_t(chunk));
    s.record(e.computed);
    s.memcpy_dtoh(c.data() + off, dc + off * 4, bytes);
    s.record(e.done);
  }
  dev.synchronize();

  AppResult r;
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
  uint64_t origin = ~uint64_t(0);
  for (const ChunkEvents& e : ev) origin = std::min(origin, e.start.timestamp_ps());
  uint64_t last = 0;
  double serial_us = 0, copy_us = 0;
  for (int k = 0; k < kChunks; ++k) {
    const ChunkEvents& e = ev[k];
    last = std::max(last, e.done.timestamp_ps());
    serial_us += us(e.done, origin) - us(e.start, origin);
    copy_us += (us(e.uploaded, origin) - us(e.start, origin)) +
               (us(e.done, origin) - us(e.computed, origin));
    soc.account(records[k]);
    r.notes.push_back(fmt::format(
        "chunk {} on stream {}: upload {:8.1f}-{:8.1f} us, kernel -{:8.1f} us, download -{:8.1f} us",
        k, k % 2 + 1, us(e.start, origin), us(e.uploaded, origin), us(e.computed, origin),
        us(e.done, origin)));
  }
  soc.account_copy(copy_us * 1000, 2 * n * 4, n * 4);
  const double elapsed_us = double(last - origin) / 1e6;
  // Time the two streams' work overlapped: what one stream would have taken, minus the elapsed.
  const double overlap_us = serial_us - elapsed_us;
  r.notes.push_back(fmt::format(
      "two streams: {:.1f} us elapsed for {:.1f} us of stream work: {:.1f} us ({:.0f}%) overlapped",
      elapsed_us, serial_us, overlap_us, 100 * overlap_us / serial_us));
  r.verified = wrong == 0 && overlap_us > 0;
  r.summary = fmt::format("two_streams n={} in {} chunks: {} elements differ from the CPU; {}", n,
                          kChunks, wrong, overlap_us > 0 ? "copies overlapped kernels"
                                                         : "NO overlap between the streams");
  return r;
}

}  // namespace

std::vector<App> stream_apps() {
  return {{"two_streams",
           "vector add in 4 chunks on two streams: copies of one chunk overlap another's kernel",
           1 << 20, "elements", two_streams, /*needs_soc=*/true}};
}

}  // namespace gpusoc::apps::detail
