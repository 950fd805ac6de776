// MemoryRequestPort: an SM's approximately timed requests against the device memory's bounded
// queue (immediate completions, END_REQ backpressure, deferred completions arriving backward,
// the in-flight limit) at hand-computed times, the payload it sends, the other answers the base
// protocol allows, and its errors, all through ProtocolCheckers that must find nothing.
#include "models/sm/memory_request_port.h"

#include <cstdint>
#include <functional>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/checked_bindings.h"
#include "models/common/error.h"
#include "models/common/memory_target.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc::sm {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

constexpr uint64_t kBase = 0x10000;

/// Runs `program` in an SC_THREAD: the SM's side.
struct Driver : sc_core::sc_module {
  std::function<void()> program;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
  void run() {
    if (program) program();
  }
};

MemoryRequest load(uint64_t tag, uint64_t address = kBase, uint32_t bytes = 32) {
  MemoryRequest r;
  r.address = address;
  r.bytes = bytes;
  r.tag = tag;
  r.sectors = bytes / 32;
  return r;
}

/// A completion as a comparable, printable value.
using Done = std::tuple<uint64_t, sc_time, bool>;

std::vector<Done> as_done(const std::vector<MemoryCompletion>& completions) {
  std::vector<Done> out;
  for (const MemoryCompletion& c : completions) out.emplace_back(c.tag, c.time, c.error);
  return out;
}

/// port -> checker -> device memory; `program` runs in the driver's thread.
struct PortBench {
  StatGroup stats;
  Driver sm{"sm"};
  MemoryRequestPort port;
  MemoryTarget memory;
  CheckedBindings bindings{true};
  sc_core::sc_actions previous;

  PortBench(uint32_t max_in_flight, double bytes_per_ns, double latency_ns, uint32_t queue_depth,
            std::function<void(PortBench&)> program = nullptr)
      : port("port", 3, max_in_flight),
        memory("vram", config(bytes_per_ns, latency_ns, queue_depth), stats) {
    if (program) sm.program = [this, program] { program(*this); };
    bindings.connect(port.mem_initiator, memory.target, "sm_mem");
    previous =
        sc_core::sc_report_handler::set_actions(ProtocolChecker::kMsgType, sc_core::SC_DISPLAY);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  ~PortBench() { sc_core::sc_report_handler::set_actions(ProtocolChecker::kMsgType, previous); }

  static MemoryTargetConfig config(double bytes_per_ns, double latency_ns, uint32_t depth) {
    MemoryTargetConfig c;
    c.base = kBase;
    c.size = 0x10000;
    c.bytes_per_ns = bytes_per_ns;
    c.latency = sc_time(latency_ns, SC_NS);
    c.queue_depth = depth;
    return c;
  }
  /// The completions that became known since the last call.
  std::vector<Done> take() {
    std::vector<MemoryCompletion> out;
    port.take_completions(out);
    return as_done(out);
  }
};

TEST(MemoryRequestPortTest, ImmediateCompletionsAreKnownAtOnceWithExactTimes) {
  testing::fresh_systemc();
  PortBench bench(4, 4.0, 100, 64);
  MemoryRequest store = load(8, kBase + 64, 64);
  store.kind = AccessKind::Store;
  bench.port.send(load(7, kBase, 64), sc_time(0, SC_NS));
  bench.port.send(store, sc_time(10, SC_NS));
  bench.port.send(load(9, kBase - 32), sc_time(20, SC_NS));  // outside device memory
  // 64 bytes at 4 B/ns are 16 ns on the port: [0, 16) + 100, then [16, 32) + 100.
  const std::vector<Done> expected = {{7, sc_time(116, SC_NS), false},
                                      {8, sc_time(132, SC_NS), false},
                                      {9, sc_time(20, SC_NS), true}};
  EXPECT_EQ(bench.take(), expected);
  EXPECT_TRUE(bench.take().empty()) << "taken once";
  EXPECT_EQ(bench.port.in_flight(), 0u);
  EXPECT_TRUE(bench.port.can_send());
  EXPECT_EQ(bench.memory.stats().reads.value(), 1u);
  EXPECT_EQ(bench.memory.stats().writes.value(), 1u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

// Queue depth 2, 1 byte/ns, 10 ns latency, 32-byte loads (32 ns on the port), two in flight:
//   t0: [0, 32) -> 42 and t1: [32, 64) -> 74, known at once;
//   t2 at 0 waits: END_REQ at 42, port [64, 96) -> 106;
//   t3 at 42 waits: END_REQ at 74, port [96, 128) -> 138. From 74 t2 and t3 are both in flight,
//   so the port may not send until t2 completes at 106.
TEST(MemoryRequestPortTest, BackpressureAndTheInFlightLimitHoldSendsUntilExactTimes) {
  testing::fresh_systemc();
  std::vector<sc_time> woken;
  PortBench bench(2, 1.0, 10, 2, [&](PortBench& b) {
    MemoryRequestPort& port = b.port;
    port.send(load(0), sc_core::SC_ZERO_TIME);
    port.send(load(1), sc_core::SC_ZERO_TIME);
    port.send(load(2), sc_core::SC_ZERO_TIME);
    EXPECT_FALSE(port.can_send()) << "t2 waits for END_REQ";
    EXPECT_EQ(port.in_flight(), 1u);
    sc_core::wait(sc_time(41'999, SC_PS));
    EXPECT_FALSE(port.can_send()) << "1 ps before END_REQ";
    sc_core::wait(port.activity());
    woken.push_back(sc_core::sc_time_stamp());
    EXPECT_TRUE(port.can_send());
    port.send(load(3), sc_core::sc_time_stamp());
    EXPECT_FALSE(port.can_send());
    sc_core::wait(port.activity());
    woken.push_back(sc_core::sc_time_stamp());
    EXPECT_EQ(port.in_flight(), 2u);
    EXPECT_FALSE(port.can_send()) << "END_REQ came, but two requests are in flight";
    EXPECT_THROW(port.send(load(4), sc_core::sc_time_stamp()), ModelError);
    sc_core::wait(port.activity());
    woken.push_back(sc_core::sc_time_stamp());
    EXPECT_EQ(port.in_flight(), 1u);
    EXPECT_TRUE(port.can_send());
    sc_core::wait(port.activity());
    woken.push_back(sc_core::sc_time_stamp());
    EXPECT_EQ(port.in_flight(), 0u);
  });
  sc_core::sc_start();
  const std::vector<sc_time> expected_wakes = {sc_time(42, SC_NS), sc_time(74, SC_NS),
                                               sc_time(106, SC_NS), sc_time(138, SC_NS)};
  EXPECT_EQ(woken, expected_wakes);
  const std::vector<Done> expected = {{0, sc_time(42, SC_NS), false},
                                      {1, sc_time(74, SC_NS), false},
                                      {2, sc_time(106, SC_NS), false},
                                      {3, sc_time(138, SC_NS), false}};
  EXPECT_EQ(bench.take(), expected);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

/// Answers BEGIN_REQ with `status` (and `phase` when TLM_UPDATED) `extra` later, and keeps what
/// it was sent.
struct ScriptedTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<ScriptedTarget> socket{"socket"};
  tlm::tlm_sync_enum status = tlm::TLM_COMPLETED;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time extra;
  std::vector<tlm::tlm_phase> received;
  tlm::tlm_generic_payload* last = nullptr;
  tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
  GpuRequest request;

  explicit ScriptedTarget(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_nb_transport_fw(this, &ScriptedTarget::nb_transport_fw);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& p,
                                     sc_time& delay) {
    received.push_back(p);
    if (p != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP
    last = &tx;
    command = tx.get_command();
    request = *tx.get_extension<GpuRequest>();
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    delay += extra;
    if (status == tlm::TLM_UPDATED) p = phase;
    return status;
  }
};

struct ScriptedBench {
  MemoryRequestPort port{"port", 3, 2};
  ScriptedTarget target{"target"};
  CheckedBindings bindings{true};

  ScriptedBench() {
    bindings.connect(port.mem_initiator, target.socket, "sm_mem");
    testing::elaborate();
  }
};

TEST(MemoryRequestPortTest, SendsTimingOnlyPayloadsAndHandlesEveryBaseProtocolAnswer) {
  testing::fresh_systemc();
  ScriptedBench bench;
  MemoryRequestPort& port = bench.port;
  std::vector<MemoryCompletion> done;

  // BEGIN_RESP on the return path: complete at once, and the port ends the response.
  bench.target.status = tlm::TLM_UPDATED;
  bench.target.extra = sc_time(30, SC_NS);
  MemoryRequest atomic = load(11, 0x1000, 96);
  atomic.kind = AccessKind::Atomic;
  atomic.warp = 5;
  port.send(atomic, sc_time(4, SC_NS));
  port.take_completions(done);
  EXPECT_EQ(as_done(done), (std::vector<Done>{{11, sc_time(34, SC_NS), false}}));
  const std::vector<tlm::tlm_phase> phases = {tlm::BEGIN_REQ, tlm::END_RESP};
  EXPECT_EQ(bench.target.received, phases);
  EXPECT_EQ(bench.target.command, tlm::TLM_IGNORE_COMMAND);  // a timing request
  EXPECT_FALSE(bench.target.request.write);
  EXPECT_EQ(bench.target.last->get_address(), 0x1000u);
  EXPECT_EQ(bench.target.last->get_data_length(), 96u);
  EXPECT_EQ(bench.target.request.sm, 3u);
  EXPECT_EQ(bench.target.request.warp, 5u);
  EXPECT_EQ(bench.target.request.kind, AccessKind::Atomic);
  EXPECT_EQ(bench.target.request.sectors, 3u);

  // END_REQ on the return path: the channel is free, the response comes backward later.
  bench.target.phase = tlm::END_REQ;
  MemoryRequest store = load(12);
  store.kind = AccessKind::Store;
  port.send(store, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(bench.target.command, tlm::TLM_IGNORE_COMMAND);
  EXPECT_TRUE(bench.target.request.write);
  EXPECT_TRUE(port.can_send());
  EXPECT_EQ(port.in_flight(), 1u);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay(5, SC_NS);
  EXPECT_EQ(bench.target.socket->nb_transport_bw(*bench.target.last, phase, delay),
            tlm::TLM_COMPLETED);
  done.clear();
  port.take_completions(done);
  EXPECT_EQ(as_done(done), (std::vector<Done>{{12, sc_time(5, SC_NS), false}}));
  EXPECT_EQ(port.in_flight(), 0u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

TEST(MemoryRequestPortTest, MisuseIsAModelErrorNamingThePort) {
  testing::fresh_systemc();
  EXPECT_THROW(MemoryRequestPort("empty", 0, 0), ModelError);
  ScriptedBench bench;
  bench.target.status = tlm::TLM_ACCEPTED;
  sc_core::sc_start(sc_time(10, SC_NS));
  EXPECT_THROW(bench.port.send(load(1), sc_time(5, SC_NS)), ModelError) << "in the past";
  bench.port.send(load(2), sc_time(10, SC_NS));
  EXPECT_FALSE(bench.port.can_send());
  EXPECT_THROW(bench.port.send(load(3), sc_time(10, SC_NS)), ModelError) << "before END_REQ";
}

TEST(MemoryRequestPortTest, ADmiRevocationGoesToWhoeverHoldsThePointer) {
  testing::fresh_systemc();
  ScriptedBench bench;
  bench.target.socket->invalidate_direct_mem_ptr(kBase, kBase + 0xFFFF);  // nobody listens yet
  std::vector<std::pair<uint64_t, uint64_t>> revoked;
  bench.port.on_dmi_revoked([&](uint64_t start, uint64_t end) { revoked.emplace_back(start, end); });
  bench.target.socket->invalidate_direct_mem_ptr(kBase, kBase + 0xFFFF);
  EXPECT_EQ(revoked, (std::vector<std::pair<uint64_t, uint64_t>>{{kBase, kBase + 0xFFFF}}));
}

}  // namespace
}  // namespace gpusoc::sm
