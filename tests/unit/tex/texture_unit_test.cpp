// The texture unit at hand-computed times: a 1 GHz unit (1 ns cycles), a 1 KB texture cache with
// 128-byte lines and a 10-cycle hit, 4 texels filtered a cycle and 5 cycles of filter latency, in
// front of device memory that takes 100 ns plus 1 ns per 128-byte line. A request for two sectors
// of line 0x10000, 8 texels, 2 quads: address generation 2 cycles; the miss lands at 101 ns; its
// texels are ready at 111; filtering takes [111, 113); the result reaches the SM at 118 ns. The
// same request again, right behind: address generation [2, 4), a hit on the line landing at 101,
// ready at 111, filtered [113, 115) after the first, answered at 120 ns. Both ways in, loosely
// timed (b_transport) and approximately timed (the SM's MemoryRequestPort), give these times.
#include "models/tex/texture_unit.h"

#include <functional>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/common/checked_bindings.h"
#include "models/common/memory_target.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc::tex {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kBase = 0x10000;

TextureUnitConfig unit_config(uint32_t queue_depth = 32) {
  TextureUnitConfig c;
  c.cache.name = "tex.cache";
  c.cache.size_bytes = 1024;
  c.cache.ways = 2;
  c.cache.line_bytes = 128;
  c.cache.sector_bytes = 32;
  c.cache.hit_latency = 10;
  c.cache.mshrs = 4;
  c.quads_per_cycle = 1;
  c.texels_per_cycle = 4;
  c.filter_latency = 5;
  c.queue_depth = queue_depth;
  c.clock_mhz = 1000;
  return c;
}

MemoryTargetConfig memory_config() {
  MemoryTargetConfig c;
  c.base = kBase;
  c.size = 0x10000;
  c.bytes_per_ns = 128;
  c.latency = sc_time(100, SC_NS);
  c.queue_depth = 64;
  return c;
}

/// The SMs' side: a loosely timed socket and an approximately timed port, and a program to run.
struct Sm : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Sm> lt;
  sm::MemoryRequestPort port;
  std::function<void()> program;
  SC_HAS_PROCESS(Sm);
  explicit Sm(sc_core::sc_module_name name) : sc_module(name), lt("lt"), port("port", 0, 8) {
    SC_THREAD(run);
  }
  void run() {
    if (program) program();
  }
};

struct Bench {
  StatGroup stats;
  Sm sm{"sm"};
  TextureUnit unit;
  MemoryTarget memory;
  CheckedBindings bindings{true};
  const std::vector<uint64_t> sectors = {kBase, kBase + 32};

  explicit Bench(uint32_t queue_depth = 32)
      : unit("tex", unit_config(queue_depth), stats), memory("vram", memory_config(), stats) {
    bindings.connect(sm.lt, unit.sm_target, "sm_lt");
    bindings.connect(sm.port.mem_initiator, unit.sm_target, "sm_at");
    bindings.connect(unit.mem_initiator, memory.target, "tex_mem");
  }
  sm::MemoryRequest at_request(uint64_t tag) const {
    sm::MemoryRequest r;
    r.address = kBase;
    r.bytes = 32;
    r.kind = AccessKind::Texture;
    r.texture_sectors = &sectors;
    r.texels = 8;
    r.quads = 2;
    r.tag = tag;
    return r;
  }
  /// A loosely timed request at time 0: the answer's delay.
  sc_time lt_request() {
    tlm::tlm_generic_payload tx;
    GpuRequest r;
    r.kind = AccessKind::Texture;
    r.texture_sectors = sectors;
    r.texels = 8;
    r.quads = 2;
    uint8_t data[32];
    tx.set_extension(&r);
    tx.set_command(tlm::TLM_IGNORE_COMMAND);  // a timing request
    tx.set_address(kBase);
    tx.set_data_ptr(data);
    tx.set_data_length(32);
    tx.set_streaming_width(32);
    sc_time delay = sc_core::SC_ZERO_TIME;
    sm.lt->b_transport(tx, delay);
    tx.clear_extension(&r);
    return delay;
  }
  uint64_t stat(const char* name) const {
    for (const StatGroup* g : stats.children())
      if (g->name() == "tex")
        for (const Stat* s : g->stats())
          if (s->name() == name) return static_cast<const Counter*>(s)->value();
    return ~0ull;
  }
};

TEST(TextureUnitTest, LooselyTimedRequestsMissThenHitAtExactTimes) {
  testing::fresh_systemc();
  Bench bench;
  std::vector<sc_time> delays;
  bench.sm.program = [&] {
    delays.push_back(bench.lt_request());
    delays.push_back(bench.lt_request());
  };
  sc_core::sc_start();
  EXPECT_EQ(delays, (std::vector<sc_time>{sc_time(118, SC_NS), sc_time(120, SC_NS)}));
  EXPECT_EQ(bench.stat("cache_misses"), 1u);
  EXPECT_EQ(bench.stat("cache_hits"), 1u);
  EXPECT_EQ(bench.memory.stats().reads.value(), 1u);
  EXPECT_EQ(bench.stat("texels"), 16u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

TEST(TextureUnitTest, ApproximatelyTimedRequestsAnswerInOrderAtTheSameTimes) {
  testing::fresh_systemc();
  Bench bench;
  std::vector<sm::MemoryCompletion> done;
  bench.sm.program = [&] {
    bench.sm.port.send(bench.at_request(1), sc_core::SC_ZERO_TIME);
    bench.sm.port.send(bench.at_request(2), sc_core::SC_ZERO_TIME);
    while (done.size() < 2) {
      wait(bench.sm.port.activity());
      bench.sm.port.take_completions(done);
    }
  };
  sc_core::sc_start();
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].tag, 1u);
  EXPECT_EQ(done[0].time, sc_time(118, SC_NS));
  EXPECT_EQ(done[1].tag, 2u);
  EXPECT_EQ(done[1].time, sc_time(120, SC_NS));
  EXPECT_EQ(bench.stat("cache_misses"), 1u);
  // Device memory answers with the miss's time at once, so the line is filled (landing at 101)
  // before the second request looks it up: a hit on a line still to land.
  EXPECT_EQ(bench.stat("cache_hits"), 1u);
  EXPECT_EQ(bench.stat("queue_cycles"), 2u);  // the second waited for the address units
  EXPECT_EQ(bench.memory.stats().reads.value(), 1u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

TEST(TextureUnitTest, AFullUnitWithholdsEndReqUntilItAnswers) {
  testing::fresh_systemc();
  Bench bench(/*queue_depth=*/1);
  std::vector<sm::MemoryCompletion> done;
  bool refused = false;
  sc_time accepted;
  bench.sm.program = [&] {
    bench.sm.port.send(bench.at_request(1), sc_core::SC_ZERO_TIME);
    bench.sm.port.send(bench.at_request(2), sc_core::SC_ZERO_TIME);
    refused = !bench.sm.port.can_send();  // waits for END_REQ
    while (!bench.sm.port.can_send()) wait(bench.sm.port.activity());
    accepted = sc_core::sc_time_stamp();
    while (done.size() < 2) {
      bench.sm.port.take_completions(done);
      if (done.size() < 2) wait(bench.sm.port.activity());
    }
  };
  sc_core::sc_start();
  EXPECT_TRUE(refused);
  // The first request's answer is known when its miss's time is (at once: the memory answers
  // with its time), so the second is taken at 0 and answered as before.
  EXPECT_EQ(accepted, sc_core::SC_ZERO_TIME);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[1].time, sc_time(120, SC_NS));
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

}  // namespace
}  // namespace gpusoc::tex
