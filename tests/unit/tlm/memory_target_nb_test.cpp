// MemoryTarget on nb_transport: the same completion times as b_transport while nothing waits,
// the bounded queue of each initiator (END_REQ exactly when its oldest request completes, the
// late request then served from that time by the bandwidth booking), independent initiators,
// errors, and one open response at a time, all through ProtocolCheckers that must find nothing.
#include <array>
#include <cstdint>
#include <functional>
#include <ostream>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/checked_bindings.h"
#include "models/common/memory_target.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;
using testing::prepare;

constexpr uint64_t kBase = 0x10000;

struct Backward {
  int tx;
  tlm::tlm_phase phase;
  sc_time time;
  bool operator==(const Backward& o) const {
    return tx == o.tx && phase == o.phase && time == o.time;
  }
};

std::ostream& operator<<(std::ostream& os, const Backward& b) {
  return os << "{tx " << b.tx << ", " << b.phase << ", " << b.time << "}";
}

/// An approximately timed initiator driven by `program` (an SC_THREAD): payloads managed by a
/// memory manager that counts how often they come back, backward calls recorded with the time
/// they take effect and answered with `response_status` for BEGIN_RESP.
struct NbInitiator : sc_core::sc_module, tlm::tlm_mm_interface {
  tlm_utils::simple_initiator_socket<NbInitiator> socket{"socket"};
  std::array<tlm::tlm_generic_payload, 8> tx;
  std::array<uint8_t, 64> data{};
  std::vector<Backward> backward;
  sc_core::sc_event arrived;
  tlm::tlm_sync_enum response_status = tlm::TLM_COMPLETED;
  unsigned freed = 0;
  std::function<void()> program;

  SC_HAS_PROCESS(NbInitiator);
  explicit NbInitiator(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_nb_transport_bw(this, &NbInitiator::nb_transport_bw);
    for (auto& t : tx) t.set_mm(this);
    SC_THREAD(run);
  }
  void run() {
    if (program) program();
  }
  void free(tlm::tlm_generic_payload*) override { ++freed; }

  /// BEGIN_REQ of payload i, `delay` ahead of SystemC time; `delay` returns annotated.
  tlm::tlm_sync_enum begin(int i, sc_time& delay, uint64_t address = kBase, unsigned bytes = 32) {
    prepare(tx[i], tlm::TLM_READ_COMMAND, address, data.data(), bytes);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    return socket->nb_transport_fw(tx[i], phase, delay);
  }
  tlm::tlm_sync_enum end_response(int i) {
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_time delay;
    return socket->nb_transport_fw(tx[i], phase, delay);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                     sc_time& delay) {
    backward.push_back({static_cast<int>(&t - tx.data()), phase, sc_core::sc_time_stamp() + delay});
    arrived.notify(delay);
    return phase == tlm::BEGIN_RESP ? response_status : tlm::TLM_ACCEPTED;
  }
};

MemoryTargetConfig memory(double bytes_per_ns, double latency_ns, uint32_t queue_depth) {
  MemoryTargetConfig config;
  config.base = kBase;
  config.size = 0x10000;
  config.bytes_per_ns = bytes_per_ns;
  config.latency = sc_time(latency_ns, SC_NS);
  config.queue_depth = queue_depth;
  return config;
}

/// cpu and dma, each through its own ProtocolChecker, to one memory; `program` runs in the
/// cpu's thread.
struct NbBench {
  StatGroup stats;
  NbInitiator cpu{"cpu"};
  NbInitiator dma{"dma"};
  MemoryTarget memory;
  CheckedBindings bindings{true};
  sc_core::sc_actions previous;

  explicit NbBench(const MemoryTargetConfig& config,
                   std::function<void(NbInitiator&)> program = nullptr)
      : memory("dram", config, stats) {
    if (program) cpu.program = [this, program] { program(cpu); };
    bindings.connect(cpu.socket, memory.target, "cpu");
    bindings.connect(dma.socket, memory.target, "dma");
    previous =
        sc_core::sc_report_handler::set_actions(ProtocolChecker::kMsgType, sc_core::SC_DISPLAY);
    testing::elaborate();
  }
  ~NbBench() { sc_core::sc_report_handler::set_actions(ProtocolChecker::kMsgType, previous); }
};

TEST(MemoryTargetNbTest, CompletionTimesEqualBlockingTransportsForTheSameSequence) {
  testing::fresh_systemc();
  StatGroup stats;
  testing::TestInitiator blocking_cpu("blocking_cpu");
  NbInitiator cpu("cpu");
  MemoryTarget blocking("blocking", memory(4.0, 100, 0), stats);
  MemoryTarget timed("timed", memory(4.0, 100, 64), stats);  // the platform's default depth
  blocking_cpu.socket.bind(blocking.target);
  CheckedBindings bindings(true);
  bindings.connect(cpu.socket, timed.target, "cpu");
  testing::elaborate();

  struct Access {
    double at_ns;  // ahead of SystemC time
    uint64_t address;
    unsigned bytes;
  };
  const std::vector<Access> sequence = {{0, kBase, 4096},       {0, kBase + 64, 64},
                                        {2100, kBase, 64},      {50, kBase - 64, 32},
                                        {300, kBase + 512, 32}, {1600, kBase, 128}};
  std::vector<uint8_t> buffer(4096);
  int n = 0;
  for (int round = 0; round < 2; ++round) {  // at time 0, then with SystemC time at 1500 ns
    if (round == 1) sc_core::sc_start(sc_time(1500, SC_NS));
    for (const Access& a : sequence) {
      const sc_time issue(a.at_ns, SC_NS);
      tlm::tlm_generic_payload b;
      prepare(b, tlm::TLM_READ_COMMAND, a.address, buffer.data(), a.bytes);
      sc_time b_delay = issue;
      blocking_cpu.socket->b_transport(b, b_delay);

      tlm::tlm_generic_payload& t = cpu.tx[0];
      prepare(t, tlm::TLM_READ_COMMAND, a.address, buffer.data(), a.bytes);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_time nb_delay = issue;
      ASSERT_EQ(cpu.socket->nb_transport_fw(t, phase, nb_delay), tlm::TLM_COMPLETED) << n;
      EXPECT_EQ(nb_delay, b_delay) << "access " << n;
      EXPECT_EQ(t.get_response_status(), b.get_response_status()) << "access " << n;
      ++n;
    }
  }
  EXPECT_EQ(cpu.backward.size(), 0u) << "nothing waited, so nothing came backward";
  EXPECT_EQ(cpu.freed, 0u) << "the target never held a payload";
  EXPECT_EQ(timed.stats().reads.value(), blocking.stats().reads.value());
  EXPECT_EQ(timed.stats().errors.value(), 2u);
  EXPECT_EQ(bindings.violations(), 0u);
}

TEST(MemoryTargetNbTest, FirstAccessesCompleteAtTheHandComputedTimes) {
  testing::fresh_systemc();
  NbBench bench(memory(4.0, 100, 64));
  sc_time a, b;
  EXPECT_EQ(bench.cpu.begin(0, a, kBase, 64), tlm::TLM_COMPLETED);
  EXPECT_EQ(bench.cpu.begin(1, b, kBase, 64), tlm::TLM_COMPLETED);
  EXPECT_EQ(a, sc_time(16 + 100, SC_NS));       // 64 bytes at 4 B/ns, then the latency
  EXPECT_EQ(b, sc_time(16 + 16 + 100, SC_NS));  // behind the first on the port
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

// Depth 2, 1 byte/ns, 10 ns latency, 32-byte reads (32 ns on the port), all sent at 0:
//   r0: port [0, 32), completes 42;  r1: port [32, 64), completes 74;
//   r2: both incomplete at 0: accepted at 42 (END_REQ), port free at 64: [64, 96), completes 106;
//   r3, sent at its END_REQ time 42: r1 and r2 incomplete: accepted at 74, port [96, 128), 138.
TEST(MemoryTargetNbTest, TheThirdRequestIsAcceptedWhenTheFirstCompletes) {
  testing::fresh_systemc();
  std::vector<sc_time> immediate;
  std::vector<tlm::tlm_sync_enum> status;
  NbBench b(memory(1.0, 10, 2), [&](NbInitiator& cpu) {
    for (int i = 0; i < 3; ++i) {
      sc_time delay;
      status.push_back(cpu.begin(i, delay));
      immediate.push_back(delay);
    }
    sc_core::wait(cpu.arrived);  // END_REQ of r2
    sc_time delay;
    status.push_back(cpu.begin(3, delay));
    immediate.push_back(delay);
  });
  sc_core::sc_start();

  const std::vector<tlm::tlm_sync_enum> expected_status = {tlm::TLM_COMPLETED, tlm::TLM_COMPLETED,
                                                           tlm::TLM_ACCEPTED, tlm::TLM_ACCEPTED};
  EXPECT_EQ(status, expected_status);
  EXPECT_EQ(immediate[0], sc_time(42, SC_NS));
  EXPECT_EQ(immediate[1], sc_time(74, SC_NS));
  EXPECT_EQ(immediate[2], sc_core::SC_ZERO_TIME) << "TLM_ACCEPTED leaves the delay alone";
  const std::vector<Backward> expected = {{2, tlm::END_REQ, sc_time(42, SC_NS)},
                                          {3, tlm::END_REQ, sc_time(74, SC_NS)},
                                          {2, tlm::BEGIN_RESP, sc_time(106, SC_NS)},
                                          {3, tlm::BEGIN_RESP, sc_time(138, SC_NS)}};
  EXPECT_EQ(b.cpu.backward, expected);
  EXPECT_TRUE(b.cpu.tx[2].is_response_ok());
  EXPECT_EQ(b.cpu.freed, 2u) << "the target held the two late payloads and released them";
  EXPECT_EQ(b.memory.stats().reads.value(), 4u);
  EXPECT_DOUBLE_EQ(b.memory.stats().busy_ns.value(), 4 * 32.0);
  EXPECT_EQ(b.bindings.violations(), 0u);
}

// Depth 2, unlimited bandwidth, 50 ns latency: two requests at 0 complete at 50. One more from
// the same initiator is refused at 49.999 ns and served at once at 50 ns; the other initiator's
// queue is its own.
TEST(MemoryTargetNbTest, TheQueueFreesExactlyWhenItsOldestRequestCompletesPerInitiator) {
  testing::fresh_systemc();
  NbBench bench(memory(0, 50, 2));
  sc_time d[6];
  EXPECT_EQ(bench.cpu.begin(0, d[0]), tlm::TLM_COMPLETED);
  EXPECT_EQ(bench.cpu.begin(1, d[1]), tlm::TLM_COMPLETED);
  d[2] = sc_time(49'999, SC_PS);
  EXPECT_EQ(bench.cpu.begin(2, d[2]), tlm::TLM_ACCEPTED) << "blocked 1 ps before room";
  EXPECT_EQ(bench.dma.begin(0, d[3]), tlm::TLM_COMPLETED) << "the cpu's queue is not the dma's";
  EXPECT_EQ(bench.dma.begin(1, d[4]), tlm::TLM_COMPLETED);
  d[5] = sc_time(50, SC_NS);
  EXPECT_EQ(bench.dma.begin(2, d[5]), tlm::TLM_COMPLETED) << "allowed at the completion";
  EXPECT_EQ(d[5], sc_time(100, SC_NS));
  sc_core::sc_start();
  const std::vector<Backward> expected = {{2, tlm::END_REQ, sc_time(50, SC_NS)},
                                          {2, tlm::BEGIN_RESP, sc_time(100, SC_NS)}};
  EXPECT_EQ(bench.cpu.backward, expected);
  EXPECT_TRUE(bench.dma.backward.empty());
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

TEST(MemoryTargetNbTest, ErrorsAnswerAtAcceptanceWithTheErrorStatus) {
  testing::fresh_systemc();
  NbBench bench(memory(0, 100, 1), [](NbInitiator& cpu) {
    sc_time a, b, c;
    EXPECT_EQ(cpu.begin(0, a), tlm::TLM_COMPLETED);
    EXPECT_EQ(a, sc_time(100, SC_NS));
    EXPECT_EQ(cpu.begin(1, b, kBase + 0x10000), tlm::TLM_ACCEPTED);  // out of range, queue full
    sc_core::wait(cpu.arrived);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(100, SC_NS));
    EXPECT_EQ(cpu.begin(2, c, kBase - 32), tlm::TLM_COMPLETED) << "the error took no time";
    EXPECT_EQ(c, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(cpu.tx[2].get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  sc_core::sc_start();
  const std::vector<Backward> expected = {{1, tlm::END_REQ, sc_time(100, SC_NS)},
                                          {1, tlm::BEGIN_RESP, sc_time(100, SC_NS)}};
  EXPECT_EQ(bench.cpu.backward, expected);
  EXPECT_EQ(bench.cpu.tx[1].get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(bench.memory.stats().errors.value(), 2u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

// Depth 1, unlimited bandwidth, 10 ns latency; the cpu answers BEGIN_RESP with TLM_ACCEPTED.
// r1 is accepted at 10 and responds at 20; r2 is accepted at 20 and due at 30, but r1's response
// stays open until END_RESP at 35, so r2's goes out then.
TEST(MemoryTargetNbTest, AResponseWaitsForTheEndOfTheOpenOne) {
  testing::fresh_systemc();
  NbBench bench(memory(0, 10, 1), [](NbInitiator& cpu) {
    cpu.response_status = tlm::TLM_ACCEPTED;
    sc_time d[3];
    EXPECT_EQ(cpu.begin(0, d[0]), tlm::TLM_COMPLETED);
    EXPECT_EQ(cpu.begin(1, d[1]), tlm::TLM_ACCEPTED);
    sc_core::wait(cpu.arrived);  // END_REQ of r1 at 10
    EXPECT_EQ(cpu.begin(2, d[2]), tlm::TLM_ACCEPTED);
    sc_core::wait(sc_time(25, SC_NS));
    EXPECT_EQ(cpu.end_response(1), tlm::TLM_COMPLETED);
    sc_core::wait(sc_time(5, SC_NS));
    EXPECT_EQ(cpu.end_response(2), tlm::TLM_COMPLETED);
  });
  sc_core::sc_start();
  const std::vector<Backward> expected = {{1, tlm::END_REQ, sc_time(10, SC_NS)},
                                          {1, tlm::BEGIN_RESP, sc_time(20, SC_NS)},
                                          {2, tlm::END_REQ, sc_time(20, SC_NS)},
                                          {2, tlm::BEGIN_RESP, sc_time(35, SC_NS)}};
  EXPECT_EQ(bench.cpu.backward, expected);
  EXPECT_EQ(bench.cpu.freed, 2u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
}

}  // namespace
}  // namespace gpusoc
