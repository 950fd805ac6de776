// The microbenchmarks of the validation suite (sw/kernels/microbench.cu; scripts/validate): each
// measures what published microbenchmarks measure on silicon and reports it as figures, and each
// checks what its kernels computed against the CPU, so a figure never comes from a broken run.
// Cycles are the SM's clock64(); bandwidths and rates use the launches' simulated time.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "sw/apps/app_util.h"

namespace gpusoc::apps::detail {
namespace {

constexpr uint32_t kLine = 128;  // the chase's stride: one line of every configured cache

// One cycle through `lines` slots in a random order (Sattolo's algorithm), as the byte offsets
// each slot points to next.
std::vector<uint64_t> random_cycle(uint64_t lines, uint32_t seed) {
  std::vector<uint64_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  for (uint64_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng() % i]);
  return order;
}

// Pointer chase over `footprint` bytes, a line per step in a random cycle: the first pass misses
// to DRAM, the last hits wherever the footprint fits.
AppResult latency(AppDevice& dev, uint64_t footprint) {
  dev.load("microbench.ptx");
  const uint64_t lines = std::max<uint64_t>(2, footprint / kLine);
  const DevicePtr chain = dev.malloc(lines * kLine), cycles = dev.malloc(16), sink = dev.malloc(8);
  const std::vector<uint64_t> next = random_cycle(lines, 7);
  std::vector<uint64_t> words(lines * kLine / 8, 0);
  for (uint64_t i = 0; i < lines; ++i) words[i * kLine / 8] = chain + next[i] * kLine;
  dev.copy_to_device(chain, words.data(), words.size() * 8);
  dev.run("pchase", LaunchConfig{Dim3(1), Dim3(1)}, chain, int32_t(lines), cycles, sink);
  const auto t = dev.download<int64_t>(cycles, 2);
  AppResult r;
  // Three whole turns of one cycle end where they began.
  r.verified = dev.download<uint64_t>(sink, 1)[0] == chain && t[0] > 0 && t[1] > 0;
  r.figures = {
      {"latency_cold", double(t[0]) / lines, "cycles", "load-to-use, first touch of each line"},
      {"latency_warm", double(t[1]) / lines, "cycles", "load-to-use, third pass"},
  };
  r.summary = fmt::format("pointer chase over {} lines of {} bytes: {}", lines, kLine,
                          r.verified ? "the chain ended where it began" : "the chain broke");
  return r;
}

// Streams a footprint of 8 KB segments through read and write kernels: a read from DRAM first,
// of data the copy engine put there (so that no dirty L2 line is written back under it, as in a
// published read benchmark), then the writes, then reads again and again from the L2 (segments
// another SM read last) and from the L1 (one segment for every block). The re-reads run kBlocks
// blocks, enough for every SM of every configuration.
AppResult bandwidth(AppDevice& dev, uint64_t footprint) {
  // A segment is one round of four float4 per thread: 8 KB, in the L1 of any configuration.
  // 128 threads: few enough for read_bw's registers on small.json's 8192-register SMs.
  constexpr uint32_t kThreads = 128, kSeg = 4 * kThreads, kBlocks = 1024, kL2Passes = 8,
                     kL1Passes = 32;
  dev.load("microbench.ptx");
  const uint32_t segments = uint32_t(std::max<uint64_t>(1, footprint / (kSeg * 16)));
  const uint64_t bytes = uint64_t(kSeg) * segments * 16, seg_bytes = kSeg * 16;
  const DevicePtr data = dev.upload(std::vector<float>(bytes / 4, 2.0f)), sink = dev.malloc(4);
  const LaunchConfig stream{Dim3(segments), Dim3(kThreads)}, many{Dim3(kBlocks), Dim3(kThreads)};
  const int32_t seg = int32_t(kSeg), all = int32_t(segments);
  AppResult r;
  const auto timed = [&](const char* name, const char* what, uint64_t moved, auto&&... args) {
    const double ns = simulated_ns(dev, [&] { dev.run(args...); });
    r.figures.push_back(rate(name, double(moved), ns, "GB/s", what));
  };
  timed("read_bw", "loads of each block's segment, of data copied in from the host", bytes,
        "read_bw", stream, data, seg, all, 1, 0, sink);
  timed("write_bw", "stores of each block's segment", bytes, "write_bw", stream, data, seg, 1.0f);
  timed("reread_l2_bw", "loads of segments another SM read last (L2 when the footprint fits)",
        seg_bytes * kBlocks * kL2Passes, "read_bw", many, data, seg, all, int32_t(kL2Passes), 1,
        sink);
  timed("reread_l1_bw", "loads of one segment by every block, again and again (L1)",
        seg_bytes * kBlocks * kL1Passes, "read_bw", many, data, seg, 1, int32_t(kL1Passes), 0,
        sink);
  const auto back = dev.download<float>(data, bytes / 4);
  r.verified = std::all_of(back.begin(), back.end(), [](float x) { return x == 1.0f; });
  r.summary = fmt::format("{} segments of {} bytes: {}", segments, seg_bytes,
                          r.verified ? "every written word read back" : "written data wrong");
  return r;
}

// Shared-memory bandwidth of one SM, and the latency of a load at each bank-conflict degree.
AppResult shared_memory(AppDevice& dev, uint64_t iters) {
  constexpr uint32_t kThreads = 256;  // few enough for shared_bw on the 8800 GTX
  dev.load("microbench.ptx");
  const DevicePtr cycles = dev.malloc(8), sink = dev.malloc(kThreads * 4);
  AppResult r;
  Tally t;
  dev.run("shared_bw", LaunchConfig{Dim3(1), Dim3(kThreads)}, int32_t(iters), cycles, sink);
  const int64_t bw_cycles = dev.download<int64_t>(cycles, 1)[0];
  t.exact(bw_cycles > 0);
  r.figures.push_back({"shared_bw", double(kThreads) * 32 * iters / double(bw_cycles),
                       "bytes/cycle", "conflict-free loads of one SM"});
  for (uint32_t stride : {1, 2, 4, 8, 16, 32}) {
    dev.run("shared_stride", LaunchConfig{Dim3(1), Dim3(32)}, int32_t(stride), int32_t(iters),
            cycles, sink);
    const int64_t c = dev.download<int64_t>(cycles, 1)[0];
    // Each lane chased its own word, whose value is its own shared address.
    const auto got = dev.download<uint32_t>(sink, 32);
    for (uint32_t lane = 1; lane < 32; ++lane) t.exact(got[lane] - got[0] == lane * stride * 4);
    r.figures.push_back({fmt::format("shared_stride{}_latency", stride), double(c) / iters,
                         "cycles", fmt::format("dependent loads, lanes {} words apart", stride)});
  }
  r.verified = t.ok();
  r.summary = fmt::format("shared memory, {} loads per thread: {}", iters, t.wrong_of());
  return r;
}

// One instruction class of the chains in microbench.cu: its kernel and CPU model.
struct Chain {
  const char* name;
  const char* kernel;
  const char* what;
};

// The CPU's value of one chain of `steps` instructions from `x`.
template <typename T>
T chain_value(const char* name, T x, T b, uint64_t steps) {
  const std::string n = name;
  for (uint64_t i = 0; i < steps; ++i) {
    if (n == "ffma" || n == "dfma")
      x = std::fma(x, b, b);
    else if (n == "fadd")
      x = x + b;
    else if (n == "imad")
      x = T(uint32_t(x) * uint32_t(b) + uint32_t(b));
    else if (n == "iadd")
      x = T(uint32_t(x) + uint32_t(b));
    else if (n == "cvt")
      x = std::nearbyint(x);
  }
  return x;
}

// Latency (one warp, one dependent chain) and throughput (512 threads of one SM, four chains
// each) of each instruction class.
AppResult instructions(AppDevice& dev, uint64_t iters) {
  constexpr uint32_t kThreads = 512;
  static const Chain kChains[] = {
      {"ffma", "chain_ffma", "fma.rn.f32"},         {"fadd", "chain_fadd", "add.f32"},
      {"imad", "chain_imad", "mad.lo.s32"},         {"iadd", "chain_iadd", "add.s32"},
      {"rsqrt", "chain_rsqrt", "rsqrt.approx.f32"}, {"dfma", "chain_dfma", "fma.rn.f64"},
      {"cvt", "chain_cvt", "cvt.rni.f32.f32"},      {"shfl", "chain_shfl", "shfl.sync.bfly.b32"},
  };
  dev.load("microbench.ptx");
  const DevicePtr cycles = dev.malloc(8), sink = dev.malloc(kThreads * 8);
  AppResult r;
  Tally t;
  for (const Chain& c : kChains) {
    const std::string name = c.name;
    const bool is_double = name == "dfma",
               is_int = name == "imad" || name == "iadd" || name == "shfl";
    const auto launch = [&](uint32_t threads, int32_t chains) {
      const LaunchConfig cfg{Dim3(1), Dim3(threads)};
      if (is_double)
        dev.run(c.kernel, cfg, 1.0, 0.5, int32_t(iters), chains, cycles, sink);
      else if (is_int)
        dev.run(c.kernel, cfg, int32_t(1), int32_t(3), int32_t(iters), chains, cycles, sink);
      else
        dev.run(c.kernel, cfg, 1.0f, 0.5f, int32_t(iters), chains, cycles, sink);
      return dev.download<int64_t>(cycles, 1)[0];
    };
    const uint64_t steps = 16 * iters;
    const int64_t lat = launch(32, 1);
    // Thread 5's sink: its chain x0 from seed + 5 (x1..x3 untouched), as the CPU computes it.
    if (name == "rsqrt") {
      const float got = dev.download<float>(sink, 6)[5], want = 1.0f + 7 + 8 + 9;
      t.bounded(std::fabs(got - want), 1e-3);  // the chain settles at 1
    } else if (name == "shfl") {
      // Pairs swap each step: an even number of steps leaves every lane its own value.
      t.exact(dev.download<int32_t>(sink, 6)[5] == 6 + 7 + 8 + 9);
    } else if (is_double) {
      const double x0 = 6.0;
      t.exact(dev.download<double>(sink, 6)[5] == chain_value(c.name, x0, 0.5, steps) + 7 + 8 + 9);
    } else if (is_int) {
      const uint32_t x0 = 6, want = chain_value<uint32_t>(c.name, x0, 3, steps) + 7 + 8 + 9;
      t.exact(dev.download<uint32_t>(sink, 6)[5] == want);
    } else {
      const float x0 = 6.0f;
      t.exact(dev.download<float>(sink, 6)[5] == chain_value(c.name, x0, 0.5f, steps) + 7 + 8 + 9);
    }
    const int64_t thr = launch(kThreads, 4);
    t.exact(lat > 0 && thr > 0);
    r.figures.push_back(
        {name + "_latency", double(lat) / steps, "cycles", std::string("dependent ") + c.what});
    r.figures.push_back({name + "_throughput", double(kThreads) * steps / double(thr),
                         "ops/cycle/SM", std::string("independent ") + c.what});
  }
  r.verified = t.ok();
  r.summary = fmt::format("{} instruction chains of {} steps: {}", std::size(kChains), 16 * iters,
                          t.wrong_of());
  return r;
}

// Atomic adds per nanosecond: global and shared, every thread on one word or each on its own.
AppResult atomic_rate(AppDevice& dev, uint64_t threads) {
  constexpr uint32_t kBlock = 256;
  constexpr int32_t kIters = 8;
  dev.load("microbench.ptx");
  const uint32_t blocks = blocks_of(threads, kBlock);
  const uint64_t n = uint64_t(blocks) * kBlock;
  const DevicePtr words = dev.malloc(n * 4);
  const LaunchConfig grid{Dim3(blocks), Dim3(kBlock)};
  AppResult r;
  Tally t;
  for (const char* space : {"global", "shared"}) {
    for (int32_t contended : {1, 0}) {
      dev.copy_to_device(words, std::vector<uint32_t>(n, 0).data(), n * 4);
      const double ns = simulated_ns(
          dev, [&] { dev.run(fmt::format("atomic_{}", space), grid, words, contended, kIters); });
      const auto got = dev.download<uint32_t>(words, n);
      const bool global = std::string(space) == "global";
      for (uint64_t i = 0; i < n; ++i) {
        // Shared: thread 0 of each block leaves its block's total; global: word 0 the grid's.
        const uint64_t want = !contended ? kIters
                              : global   ? (i == 0 ? n * kIters : 0)
                                         : (i % kBlock == 0 ? kBlock * kIters : 0);
        t.exact(got[i] == want);
      }
      r.figures.push_back(
          rate(fmt::format("atomic_{}_{}", space, contended ? "contended" : "distinct"),
               double(n) * kIters, ns, "atomics/ns",
               fmt::format("atomicAdd on {} memory, {}", space,
                           contended ? "every thread on one word" : "each thread its own word")));
    }
  }
  r.verified = t.ok();
  r.summary = fmt::format("atomic adds by {} threads: {}", n, t.wrong_of());
  return r;
}

}  // namespace

std::vector<App> microbench_apps() {
  return {
      {"latency",
       "pointer chase over a footprint, a line per step: cold and warm load latency",
       16384,
       {"footprint bytes", 256, AppSize::kMaxElements},
       latency},
      {"bandwidth",
       "read, write and re-read a footprint in per-block segments: bandwidth",
       64 << 20,
       {"footprint bytes", 1 << 21, AppSize::kMaxElements},
       bandwidth},
      {"shared_memory",
       "shared-memory bandwidth of one SM, load latency against bank conflicts",
       256,
       {"loads per thread", 1, 1 << 16},
       shared_memory},
      {"instructions",
       "latency and throughput of FMA, integer, SFU, double, conversion, shuffle",
       64,
       {"loop iterations of 16", 1, 1 << 16},
       instructions},
      {"atomic_rate",
       "atomic adds on global and shared words, contended and distinct",
       65536,
       {"threads", 1, 1 << 24},
       atomic_rate},
  };
}

}  // namespace gpusoc::apps::detail
