// BusWidthBridge and CheckedBindings across bus widths: a 64-bit initiator, as VCML-style
// platforms have, reaches a 32-bit MemoryTarget with every call of both directions unchanged
// (blocking, approximately timed, debug, DMI and its invalidation), checked on the 32-bit side.
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/checked_bindings.h"
#include "models/common/memory_target.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using testing::prepare;

constexpr uint64_t kBase = 0x10000;

struct WideInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<WideInitiator, 64> socket{"socket"};
  std::vector<std::pair<tlm::tlm_phase, sc_time>> backward;
  std::vector<std::pair<uint64_t, uint64_t>> revoked;

  explicit WideInitiator(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_nb_transport_bw(this, &WideInitiator::nb_transport_bw);
    socket.register_invalidate_direct_mem_ptr(this, &WideInitiator::invalidate);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase,
                                     sc_time& delay) {
    backward.emplace_back(phase, sc_core::sc_time_stamp() + delay);
    return tlm::TLM_ACCEPTED;
  }
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { revoked.emplace_back(start, end); }
};

TEST(BusWidthBridge, ASixtyFourBitInitiatorReachesAThirtyTwoBitTargetUnchanged) {
  gpusoc::testing::fresh_systemc();
  static_assert(socket_width<decltype(WideInitiator::socket)>() == 64);
  static_assert(socket_width<decltype(MemoryTarget::target)>() == 32);
  StatGroup stats;
  MemoryTargetConfig config;
  config.base = kBase;
  config.size = 0x1000;
  config.latency = sc_time(20, SC_NS);
  config.queue_depth = 1;  // a second request waits for the first: the backward path
  MemoryTarget memory("memory", config, stats);
  WideInitiator cpu("cpu");
  CheckedBindings bindings(true);
  bindings.connect(cpu.socket, memory.target, "cpu");
  EXPECT_EQ(bindings.checkers(), 1u) << "a checker on the bridge's 32-bit side";

  sc_core::sc_spawn([&] {
    uint32_t word = 0xA5A5F00D, back = 0;
    tlm::tlm_generic_payload tx;
    prepare(tx, tlm::TLM_WRITE_COMMAND, kBase + 8, &word, 4);
    sc_time delay = sc_core::SC_ZERO_TIME;
    cpu.socket->b_transport(tx, delay);
    EXPECT_TRUE(tx.is_response_ok());
    EXPECT_EQ(delay, sc_time(20, SC_NS)) << "the target's own latency, nothing added";
    EXPECT_EQ(std::memcmp(memory.backdoor(kBase + 8, 4), &word, 4), 0);
    prepare(tx, tlm::TLM_READ_COMMAND, kBase + 8, &back, 4);
    EXPECT_EQ(cpu.socket->transport_dbg(tx), 4u);
    EXPECT_EQ(back, word);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(cpu.socket->get_direct_mem_ptr(tx, dmi));
    EXPECT_EQ(dmi.get_dmi_ptr(), memory.backdoor(kBase, 1));
    for (unsigned i = 0; i < memory.target.size(); ++i)
      memory.target[i]->invalidate_direct_mem_ptr(kBase, kBase + 0xFFF);
    ASSERT_EQ(cpu.revoked.size(), 1u);
    EXPECT_EQ(cpu.revoked[0], std::make_pair(kBase, kBase + 0xFFF));
    // Approximately timed. With room at once the target answers on the return path
    // (TLM_COMPLETED, the response 20 ns on); a second request before the first one's END_REQ...
    // is not allowed, so a queue of one holds the second back: END_REQ and BEGIN_RESP then come
    // on the backward path, through the bridge.
    prepare(tx, tlm::TLM_READ_COMMAND, kBase + 8, &back, 4);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    delay = sc_core::SC_ZERO_TIME;
    ASSERT_EQ(cpu.socket->nb_transport_fw(tx, phase, delay), tlm::TLM_COMPLETED);
    EXPECT_EQ(delay, sc_time(20, SC_NS));
    EXPECT_EQ(back, word);
    back = 0;
    tlm::tlm_generic_payload second;
    uint32_t second_data = 0;
    prepare(second, tlm::TLM_READ_COMMAND, kBase + 8, &second_data, 4);
    phase = tlm::BEGIN_REQ;
    delay = sc_core::SC_ZERO_TIME;
    const sc_time start = sc_core::sc_time_stamp();
    ASSERT_EQ(cpu.socket->nb_transport_fw(second, phase, delay), tlm::TLM_ACCEPTED);
    wait(sc_time(100, SC_NS));
    ASSERT_EQ(cpu.backward.size(), 2u);
    EXPECT_EQ(cpu.backward[0].first, tlm::END_REQ);
    EXPECT_EQ(cpu.backward[0].second, start + sc_time(20, SC_NS)) << "when the first one is done";
    EXPECT_EQ(cpu.backward[1].first, tlm::BEGIN_RESP);
    EXPECT_EQ(cpu.backward[1].second, start + sc_time(40, SC_NS));
    phase = tlm::END_RESP;
    delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu.socket->nb_transport_fw(second, phase, delay), tlm::TLM_COMPLETED);
    EXPECT_TRUE(second.is_response_ok());
    EXPECT_EQ(second_data, word);
  });
  sc_core::sc_start();
  EXPECT_EQ(bindings.violations(), 0u);
}

}  // namespace
}  // namespace gpusoc
