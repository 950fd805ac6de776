// MemorySystem: the SMs' approximately timed requests through the SystemC target complete
// exactly when the same packets complete in a MemoryHierarchy driven directly (plus the fixed
// latency), with END_REQ and BEGIN_RESP per the base protocol (checkers find nothing); errors
// answer at once; the loosely timed path annotates the unloaded latency and the partition's
// bandwidth; debug transport and DMI reach the data.
#include "models/memsys/memory_system.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <tuple>
#include <vector>

#include "models/common/checked_bindings.h"
#include "models/common/gpu_request.h"
#include "models/common/memory_target.h"
#include "models/sm/memory_request_port.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc::memsys {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

constexpr uint64_t kBase = 0x1'0000'0000;
constexpr uint64_t kSize = 1 << 26;

HierarchyConfig config(uint32_t ports) {
  HierarchyConfig h;
  h.ports = ports;
  h.l2_clock_mhz = 700;  // a cycle of 1428.57 ps: conversions to SystemC time must round alike
  h.dram = mempart::dram_preset("GDDR5");
  h.mapping.base = kBase;
  h.mapping.partitions = 2;
  h.mapping.bank_groups = h.dram.bank_groups;
  h.mapping.banks_per_group = h.dram.banks_per_group;
  h.mapping.rows = h.dram.rows;
  h.mapping.columns = h.dram.columns / h.dram.burst_length;
  h.mapping.burst_bytes = h.dram.burst_bytes();
  h.l2.size_bytes = 32 * 1024;
  h.fixed_latency_ns = 50;
  return h;
}

struct Driver : sc_core::sc_module {
  std::function<void()> program;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
  void run() {
    if (program) program();
  }
};

/// A loosely timed SM's side: plain blocking, debug and DMI calls.
struct LtInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<LtInitiator> socket{"socket"};
  explicit LtInitiator(sc_core::sc_module_name name) : sc_module(name) {}
};

/// Two SM ports and a loosely timed initiator -> checkers -> MemorySystem -> device memory.
struct Bench {
  StatGroup stats;
  Driver driver{"driver"};
  sm::MemoryRequestPort port0{"port0", 0, 8}, port1{"port1", 1, 8};
  LtInitiator lt{"lt"};
  MemoryTarget vram;
  MemorySystem memory;
  CheckedBindings bindings{true};

  explicit Bench(const HierarchyConfig& h)
      : vram("vram", vram_config(), stats), memory("memory", h, kBase, kSize, stats) {
    bindings.connect(port0.mem_initiator, memory.target, "sm0");
    bindings.connect(port1.mem_initiator, memory.target, "sm1");
    bindings.connect(lt.socket, memory.target, "lt");
    bindings.connect(memory.backing, vram.target, "data");
  }
  static MemoryTargetConfig vram_config() {
    MemoryTargetConfig c;
    c.base = kBase;
    c.size = kSize;
    return c;
  }
};

sm::MemoryRequest request(uint64_t tag, uint64_t offset, uint32_t bytes = 32,
                          AccessKind kind = AccessKind::Load) {
  sm::MemoryRequest r;
  r.address = kBase + offset;
  r.bytes = bytes;
  r.kind = kind;
  r.tag = tag;
  r.sectors = (bytes + 31) / 32;
  return r;
}

// When the hierarchy alone completes the packets: each offered at the first cycle at or after
// its time, in time order, and each reply's cycle as SystemC time plus the fixed latency.
struct Offer {
  uint32_t port;
  double time_ns;
  MemPacket packet;
};
std::vector<sc_time> reference(const HierarchyConfig& h, const std::vector<Offer>& offers) {
  StatGroup stats;
  MemoryHierarchy hierarchy(h, stats);
  std::vector<sc_time> done_at(offers.size());
  std::vector<HierarchyCompletion> done;
  for (size_t i = 0; i < offers.size(); ++i) {
    const uint64_t cycle = uint64_t(std::ceil(offers[i].time_ns * 1000 / hierarchy.cycle_ps()));
    hierarchy.advance(cycle, done);
    MemPacket p = offers[i].packet;
    p.id = i;
    hierarchy.offer(offers[i].port, p, cycle);
  }
  while (hierarchy.in_flight() > 0) hierarchy.advance(hierarchy.next_event(), done);
  for (const HierarchyCompletion& c : done) {
    done_at[c.packet.id] =
        sc_time(std::ceil(double(c.cycle) * hierarchy.cycle_ps()), SC_PS) + sc_time(50, SC_NS);
  }
  return done_at;
}

MemPacket packet(uint64_t offset, uint32_t mask = 1, MemOp op = MemOp::Read) {
  MemPacket p;
  p.address = kBase + offset;
  p.sector_mask = mask;
  p.op = op;
  return p;
}

TEST(MemorySystemTest, TimedRequestsCompleteWhenTheHierarchyAnswersThem) {
  testing::fresh_systemc();
  const HierarchyConfig h = config(3);
  Bench bench(h);
  bench.driver.program = [&] {
    bench.port0.send(request(0, 0x0), sc_time(0, SC_NS));
    bench.port1.send(request(1, 0x2000, 64, AccessKind::Store), sc_time(3, SC_NS));
    sc_core::wait(sc_time(10, SC_NS));
    bench.port0.send(request(2, 0x20), sc_time(10, SC_NS));  // the same line: an MSHR merge
    sc_core::wait(sc_time(400, SC_NS));
    bench.port1.send(request(3, 0x0), sc_core::sc_time_stamp());  // an L2 hit by now
  };
  sc_core::sc_start();
  std::vector<sm::MemoryCompletion> done;
  bench.port0.take_completions(done);
  bench.port1.take_completions(done);
  const std::vector<sc_time> expected =
      reference(h, {{0, 0, packet(0x0)},
                    {1, 3, packet(0x2000, 0b11, MemOp::Write)},
                    {0, 10, packet(0x20)},
                    {1, 410, packet(0x0)}});
  ASSERT_EQ(done.size(), 4u);
  for (const sm::MemoryCompletion& c : done) {
    EXPECT_EQ(c.time, expected[c.tag]) << "request " << c.tag;
    EXPECT_FALSE(c.error);
  }
  EXPECT_LT(expected[3] - sc_time(410, SC_NS), expected[0]) << "the hit is faster than the miss";
  EXPECT_EQ(bench.memory.hierarchy().slice(0).stats().read_hits.value() +
                bench.memory.hierarchy().slice(1).stats().read_hits.value(),
            1u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

// A port queue of one: the first request is taken at once (END_REQ with the call), the second
// waits for END_REQ until the first enters the crossbar, at the first L2 cycle at or after its
// arrival: 101 ns is 70.7 cycles of 1428.57 ps, so cycle 71, at 101428.57 ps rounded up.
TEST(MemorySystemTest, AFullPortQueueHoldsEndReqUntilItsHeadEntersTheCrossbar) {
  testing::fresh_systemc();
  HierarchyConfig h = config(3);
  h.port_queue = 1;
  Bench bench(h);
  sc_time woken;
  bool sendable_after_first = false, sendable_after_second = true;
  bench.driver.program = [&] {
    bench.port0.send(request(0, 0x0), sc_time(101, SC_NS));
    sendable_after_first = bench.port0.can_send();
    bench.port0.send(request(1, 0x1000), sc_time(101, SC_NS));
    sendable_after_second = bench.port0.can_send();
    sc_core::wait(bench.port0.activity());
    woken = sc_core::sc_time_stamp();
    EXPECT_TRUE(bench.port0.can_send());
  };
  sc_core::sc_start();
  EXPECT_TRUE(sendable_after_first);
  EXPECT_FALSE(sendable_after_second);
  EXPECT_EQ(woken, sc_time(101429, SC_PS));
  std::vector<sm::MemoryCompletion> done;
  bench.port0.take_completions(done);
  EXPECT_EQ(done.size(), 2u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

TEST(MemorySystemTest, AccessesOutsideDeviceMemoryAnswerAnErrorAtOnce) {
  testing::fresh_systemc();
  Bench bench(config(3));
  bench.driver.program = [&] {
    bench.port0.send(request(7, kSize), sc_time(5, SC_NS));  // one past the end
  };
  sc_core::sc_start();
  std::vector<sm::MemoryCompletion> done;
  bench.port0.take_completions(done);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(done[0].error);
  EXPECT_EQ(done[0].time, sc_time(5, SC_NS));
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

// Loosely timed: an idle system annotates the unloaded path (both networks with a header's
// cycle, the L2 lookup, PRE + ACT + RD + burst, the fixed latency) plus the bytes' time on the
// partition at its peak; a second access right behind it waits for the first's bytes.
TEST(MemorySystemTest, LooselyTimedAccessesPayTheUnloadedPathAndThePartitionsBandwidth) {
  testing::fresh_systemc();
  const HierarchyConfig h = config(3);
  Bench bench(h);
  const mempart::DramTiming& d = h.dram;
  const double unloaded_ns = (2.0 * (h.xbar.latency + 1) + h.l2.hit_latency) * 1000 / 700 +
                             (d.tRP + d.tRCD + d.CL + d.burst_cycles()) * d.tck_ns + 50;
  EXPECT_NEAR(bench.memory.unloaded_latency().to_seconds() * 1e9, unloaded_ns, 1e-3);
  sc_time first, second;
  bench.driver.program = [&] {
    tlm::tlm_generic_payload tx;
    auto* gpu = new GpuRequest;  // the payload owns it
    tx.set_extension(gpu);
    uint8_t scratch[128] = {};
    tx.set_command(tlm::TLM_IGNORE_COMMAND);  // a timing request: a read
    tx.set_address(kBase);
    tx.set_data_ptr(scratch);
    tx.set_data_length(128);
    tx.set_streaming_width(128);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = sc_core::SC_ZERO_TIME;
    bench.lt.socket->b_transport(tx, delay);
    first = delay;
    EXPECT_TRUE(tx.is_response_ok());
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    delay = sc_core::SC_ZERO_TIME;
    bench.lt.socket->b_transport(tx, delay);
    second = delay;
  };
  sc_core::sc_start();
  // 128 bytes at the partition's 32 GB/s (one 32-bit GDDR5 channel at 8 bytes per ns): 4 ns.
  const double bytes_per_ns = d.peak_gbytes_per_s();
  EXPECT_NEAR(first.to_seconds() * 1e9, unloaded_ns + 128 / bytes_per_ns, 1e-3);
  EXPECT_NEAR(second.to_seconds() * 1e9, unloaded_ns + 2 * 128 / bytes_per_ns, 1e-3);
}

// An ignore command without the GpuRequest of a timing request is what the base protocol makes
// of it: an address check, answered at once, taking no time and counting as no access.
TEST(MemorySystemTest, APlainIgnoreCommandOnlyChecksTheAddress) {
  testing::fresh_systemc();
  Bench bench(config(3));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  uint8_t data[4] = {};
  tlm::tlm_generic_payload tx;
  testing::prepare(tx, tlm::TLM_IGNORE_COMMAND, kBase + 0x40, data, 4);
  sc_time delay = sc_core::SC_ZERO_TIME;
  bench.lt.socket->b_transport(tx, delay);
  EXPECT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
  testing::prepare(tx, tlm::TLM_IGNORE_COMMAND, kBase - 4, data, 4);  // outside device memory
  bench.lt.socket->b_transport(tx, delay);
  EXPECT_EQ(tx.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(MemorySystemTest, DebugTransportAndDmiReachTheDeviceMemory) {
  testing::fresh_systemc();
  Bench bench(config(3));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  uint32_t value = 0x12345678;
  tlm::tlm_generic_payload tx;
  tx.set_command(tlm::TLM_WRITE_COMMAND);
  tx.set_address(kBase + 0x100);
  tx.set_data_ptr(reinterpret_cast<uint8_t*>(&value));
  tx.set_data_length(4);
  tx.set_streaming_width(4);
  EXPECT_EQ(bench.lt.socket->transport_dbg(tx), 4u);
  uint32_t back = 0;
  std::memcpy(&back, bench.vram.backdoor(kBase + 0x100, 4), 4);
  EXPECT_EQ(back, value);
  tlm::tlm_dmi dmi;
  tx.set_address(kBase);
  ASSERT_TRUE(bench.lt.socket->get_direct_mem_ptr(tx, dmi));
  EXPECT_EQ(dmi.get_start_address(), kBase);
  EXPECT_EQ(dmi.get_dmi_ptr() + 0x100, bench.vram.backdoor(kBase + 0x100, 4));
}

}  // namespace
}  // namespace gpusoc::memsys
