// Picoseconds at SystemC time resolutions from 1 fs to 1 ns: reading floors, scheduling rounds up,
// both saturate; and device memory's approximately timed answer at 1 ns, which counts in them.
#include <cstdint>

#include <gtest/gtest.h>

#include "models/common/memory_target.h"
#include "models/common/picoseconds.h"
#include "models/common/stat_group.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc {
namespace {

using sc_core::sc_time;

struct Case {
  double resolution_ps;
  uint64_t ps, scheduled_ps;  // time(ps) lands on the grid at or after ps: scheduled_ps
  uint64_t units, units_ps;   // a time of `units` of the resolution reads as units_ps (floored)
};

TEST(Picoseconds, ReadingFloorsAndSchedulingRoundsUpAtEveryResolution) {
  for (const Case& c : {Case{1000, 1500, 2000, 2, 2000}, Case{10, 1505, 1510, 151, 1510},
                        Case{1, 1505, 1505, 1505, 1505}, Case{0.1, 1505, 1505, 15057, 1505},
                        Case{0.001, 1505, 1505, 1505700, 1505}}) {
    SCOPED_TRACE(c.resolution_ps);
    gpusoc::testing::fresh_systemc();
    sc_core::sc_set_time_resolution(c.resolution_ps, sc_core::SC_PS);
    const Picoseconds ps;
    EXPECT_EQ(ps.of(ps.time(c.ps)), c.scheduled_ps) << "a scheduled time is never early";
    EXPECT_EQ(ps.of(sc_time::from_value(c.units)), c.units_ps);
    EXPECT_EQ(ps.time(0), sc_core::SC_ZERO_TIME);
    EXPECT_EQ(ps.until(0), sc_core::SC_ZERO_TIME) << "never a negative wait";
  }
}

TEST(Picoseconds, BothDirectionsSaturate) {
  gpusoc::testing::fresh_systemc();
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
  const Picoseconds fine;
  EXPECT_EQ(fine.time(~uint64_t(0)), sc_core::sc_max_time()) << "2^64 ps is beyond 2^64 fs";
  gpusoc::testing::fresh_systemc();
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
  const Picoseconds coarse;
  EXPECT_EQ(coarse.of(sc_core::sc_max_time()), ~uint64_t(0)) << "2^64 ns is beyond 2^64 ps";
}

TEST(Picoseconds, DeviceMemoryAnswersAtOnceWithItsLatencyAtOneNanosecond) {
  gpusoc::testing::fresh_systemc();
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
  StatGroup stats;
  MemoryTargetConfig config;
  config.size = 0x1000;
  config.latency = sc_time(20, sc_core::SC_NS);
  config.bytes_per_ns = 32;  // 64 bytes: 2 ns of the port
  MemoryTarget memory("memory", config, stats);
  testing::TestInitiator cpu("cpu");
  cpu.socket.bind(memory.target);
  testing::elaborate();
  uint8_t data[64] = {};
  tlm::tlm_generic_payload tx;
  testing::prepare(tx, tlm::TLM_READ_COMMAND, 0, data, 64);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = sc_core::SC_ZERO_TIME;
  ASSERT_EQ(cpu.socket->nb_transport_fw(tx, phase, delay), tlm::TLM_COMPLETED);
  EXPECT_EQ(delay, sc_time(22, sc_core::SC_NS));
}

}  // namespace
}  // namespace gpusoc
