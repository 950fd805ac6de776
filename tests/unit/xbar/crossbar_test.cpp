// One crossbar network against hand-computed cycles: serialization ceil(wire / width) with
// wire = header + the data the direction carries, arrival at grant + s - 1 + latency,
// round-robin order, backpressure from a full output to a full input, exact statistics.
#include <gtest/gtest.h>

#include <string>

#include "models/common/error.h"
#include "models/xbar/crossbar.h"

namespace gpusoc::xbar {
namespace {

constexpr uint64_t kNever = Crossbar::kNever;

MemPacket packet(MemOp op, uint32_t mask, uint64_t id = 0) {
  MemPacket p;
  p.id = id;
  p.op = op;
  p.sector_mask = mask;
  return p;
}

// The cycle a lone packet pushed at 10 becomes ready at its output (defaults: width 32,
// latency 2, header 8), checking it is not ready a cycle earlier and next_event names both.
uint64_t lone_arrival(bool request_direction, const MemPacket& p) {
  StatGroup stats;
  Crossbar xbar(CrossbarConfig{}, 2, 2, request_direction, stats);
  xbar.push(0, 1, p, 10);
  EXPECT_EQ(xbar.next_event(), 10u);
  xbar.advance(9);
  EXPECT_EQ(xbar.stats().packets[0], 0u);
  xbar.advance(10);
  EXPECT_EQ(xbar.stats().packets[0], 1u);
  const uint64_t ready = xbar.next_event();
  EXPECT_FALSE(xbar.ready(1, ready - 1));
  EXPECT_TRUE(xbar.ready(1, ready));
  xbar.advance(ready);
  EXPECT_EQ(xbar.stats().delivered_packets[1], 1u);
  EXPECT_EQ(xbar.stats().delivered_bytes[1], xbar.wire_bytes(p));
  EXPECT_EQ(xbar.next_event(), kNever);
  return ready;
}

TEST(Crossbar, ALonePacketArrivesAfterItsSerializationPlusLatency) {
  // Request network: a read carries its 8-byte header only (1 cycle), a 4-sector write
  // 8 + 128 = 136 bytes (5 cycles), a 1-sector atomic 8 + 32 = 40 bytes (2 cycles).
  EXPECT_EQ(lone_arrival(true, packet(MemOp::Read, 0xF)), 10u + 1 - 1 + 2);
  EXPECT_EQ(lone_arrival(true, packet(MemOp::Write, 0xF)), 10u + 5 - 1 + 2);
  EXPECT_EQ(lone_arrival(true, packet(MemOp::Atomic, 0x1)), 10u + 2 - 1 + 2);
  // Reply network: the read's data comes back (5 cycles), the write's acknowledgement is a
  // header (1 cycle), the atomic's old value is data again (2 cycles).
  EXPECT_EQ(lone_arrival(false, packet(MemOp::Read, 0xF)), 10u + 5 - 1 + 2);
  EXPECT_EQ(lone_arrival(false, packet(MemOp::Write, 0xF)), 10u + 1 - 1 + 2);
  EXPECT_EQ(lone_arrival(false, packet(MemOp::Atomic, 0x1)), 10u + 2 - 1 + 2);
}

TEST(Crossbar, WireBytesAreHeaderPlusTheDataTheDirectionCarries) {
  CrossbarConfig config;
  config.header_bytes = 16;
  StatGroup stats;
  const Crossbar request(config, 1, 1, true, stats), reply(config, 1, 1, false, stats);
  EXPECT_EQ(request.wire_bytes(packet(MemOp::Write, 0b1011)), 16u + 3 * 32);
  EXPECT_EQ(request.wire_bytes(packet(MemOp::Read, 0b1011)), 16u);
  EXPECT_EQ(reply.wire_bytes(packet(MemOp::Read, 0b1011)), 16u + 3 * 32);
  EXPECT_EQ(reply.wire_bytes(packet(MemOp::Write, 0b1011)), 16u);
}

TEST(Crossbar, TwoInputsToOneOutputSerializeAndTheLoserCountsConflicts) {
  StatGroup stats;
  Crossbar xbar(CrossbarConfig{}, 2, 1, true, stats);  // 136-byte writes: 5 cycles each
  xbar.push(0, 0, packet(MemOp::Write, 0xF, 1), 0);
  xbar.push(1, 0, packet(MemOp::Write, 0xF, 2), 0);
  xbar.advance(0);
  EXPECT_EQ(xbar.stats().packets[0], 1u);
  EXPECT_EQ(xbar.next_event(), 5u);  // the output transmits through cycle 4
  for (uint64_t c = 1; c <= 4; ++c) {
    xbar.advance(c);
    EXPECT_EQ(xbar.stats().packets[1], 0u) << "granted while the output transmits, " << c;
  }
  xbar.advance(5);
  EXPECT_EQ(xbar.stats().packets[1], 1u);
  EXPECT_EQ(xbar.next_event(), 6u);  // the first packet: 0 + 5 - 1 + 2
  xbar.advance(6);
  EXPECT_EQ(xbar.front(0).id, 1u);
  xbar.pop(0);
  EXPECT_EQ(xbar.next_event(), 11u);  // the second: 5 + 5 - 1 + 2
  xbar.advance(11);
  EXPECT_EQ(xbar.front(0).id, 2u);

  const CrossbarStats& s = xbar.stats();
  EXPECT_EQ(s.conflict_cycles[0], 0u);
  EXPECT_EQ(s.conflict_cycles[1], 5u);  // cycles 0..4
  EXPECT_EQ(s.busy_cycles[0], 5u);
  EXPECT_EQ(s.busy_cycles[1], 5u);
  EXPECT_EQ(s.bytes[1], 136u);
  EXPECT_EQ(s.blocked_cycles[1], 0u);
  EXPECT_EQ(s.delivered_packets[0], 2u);
  EXPECT_EQ(s.delivered_bytes[0], 272u);
  EXPECT_EQ(s.output_busy_cycles[0], 10u);
}

TEST(Crossbar, RoundRobinGrantsEachInputInTurn) {
  CrossbarConfig config;
  config.latency = 1;
  config.output_buffer = 8;
  StatGroup stats;
  Crossbar xbar(config, 3, 1, true, stats);
  for (uint32_t i = 0; i < 3; ++i) {
    for (uint64_t k = 0; k < 2; ++k) xbar.push(i, 0, packet(MemOp::Read, 1, 10 * i + k), 0);
  }
  xbar.advance(20);
  const uint64_t order[] = {0, 10, 20, 1, 11, 21};  // the pointer moves past each winner
  for (uint64_t id : order) {
    ASSERT_TRUE(xbar.ready(0, 20));
    EXPECT_EQ(xbar.front(0).id, id);
    xbar.pop(0);
  }
  // Granted at cycles 0..5 in that order; each input's next packet waits from the cycle after
  // its grant: input 0 waits 1-2, input 1 waits 0 and 2-3, input 2 waits 0-1 and 3-4.
  EXPECT_EQ(xbar.stats().conflict_cycles[0], 2u);
  EXPECT_EQ(xbar.stats().conflict_cycles[1], 3u);
  EXPECT_EQ(xbar.stats().conflict_cycles[2], 4u);
  EXPECT_EQ(xbar.stats().output_busy_cycles[0], 6u);
}

TEST(Crossbar, AFullOutputBufferGetsNoGrantsAndCountsBlockedCycles) {
  CrossbarConfig config;
  config.latency = 1;
  config.output_buffer = 2;
  StatGroup stats;
  Crossbar xbar(config, 1, 1, true, stats);
  for (uint64_t k = 0; k < 4; ++k) xbar.push(0, 0, packet(MemOp::Read, 1, k), 0);
  xbar.advance(9);  // grants at 0 and 1 fill the buffer
  EXPECT_EQ(xbar.stats().packets[0], 2u);
  EXPECT_EQ(xbar.stats().blocked_cycles[0], 8u);  // cycles 2..9
  EXPECT_EQ(xbar.stats().conflict_cycles[0], 0u);
  EXPECT_EQ(xbar.next_event(), kNever);  // nothing happens until the receiver pops
  xbar.pop(0);
  EXPECT_EQ(xbar.next_event(), 10u);
  xbar.advance(15);  // granted at 10, the last packet blocked again from 11
  EXPECT_EQ(xbar.stats().packets[0], 3u);
  EXPECT_EQ(xbar.stats().blocked_cycles[0], 8u + 5);
  EXPECT_EQ(xbar.next_event(), kNever);
}

TEST(Crossbar, AFullInputRefusesPushesUntilAPopReleasesIt) {
  CrossbarConfig config;
  config.latency = 1;
  config.input_buffer = 3;
  config.output_buffer = 1;
  StatGroup stats;
  Crossbar xbar(config, 1, 1, true, stats);
  for (uint64_t k = 0; k < 3; ++k) {
    ASSERT_TRUE(xbar.can_accept(0));
    xbar.push(0, 0, packet(MemOp::Read, 1, k), 0);
  }
  EXPECT_FALSE(xbar.can_accept(0));
  EXPECT_THROW(xbar.push(0, 0, packet(MemOp::Read, 1), 0), ModelError);
  xbar.advance(0);  // the grant frees a slot
  EXPECT_TRUE(xbar.can_accept(0));
  xbar.push(0, 0, packet(MemOp::Read, 1, 3), 0);
  xbar.advance(50);  // the one-packet output stays full: no more grants
  EXPECT_FALSE(xbar.can_accept(0));
  EXPECT_EQ(xbar.stats().packets[0], 1u);
  EXPECT_EQ(xbar.front(0).id, 0u);
  xbar.pop(0);
  EXPECT_EQ(xbar.next_event(), 51u);
  xbar.advance(51);
  EXPECT_TRUE(xbar.can_accept(0));
  EXPECT_EQ(xbar.next_event(), 52u);  // its delivery
}

TEST(Crossbar, NextEventNamesTheFirstGrantOrDelivery) {
  StatGroup stats;
  Crossbar xbar(CrossbarConfig{}, 2, 1, true, stats);
  EXPECT_EQ(xbar.next_event(), kNever);
  xbar.push(0, 0, packet(MemOp::Write, 0xF), 3);  // 5 cycles on the switch
  EXPECT_EQ(xbar.next_event(), 3u);
  xbar.advance(3);
  xbar.push(1, 0, packet(MemOp::Read, 1), 4);
  EXPECT_EQ(xbar.next_event(), 8u);  // the output transmits through 7
  xbar.advance(7);
  EXPECT_EQ(xbar.stats().packets[1], 0u);
  EXPECT_EQ(xbar.stats().conflict_cycles[1], 4u);  // 4..7
  xbar.advance(8);
  EXPECT_EQ(xbar.stats().packets[1], 1u);
  EXPECT_EQ(xbar.next_event(), 9u);  // the write: 3 + 5 - 1 + 2
  xbar.advance(9);
  EXPECT_EQ(xbar.next_event(), 10u);  // the read: 8 + 1 - 1 + 2
  xbar.advance(10);
  EXPECT_EQ(xbar.next_event(), kNever);
  // A push for a cycle already advanced through waits for the next one.
  xbar.push(0, 0, packet(MemOp::Read, 1), 4);
  EXPECT_EQ(xbar.next_event(), 11u);
}

TEST(Crossbar, PoppingBeforeTheDeliveryIsAModelError) {
  StatGroup stats;
  Crossbar xbar(CrossbarConfig{}, 1, 1, true, stats, "gpu.xbar_request");
  xbar.push(0, 0, packet(MemOp::Read, 1), 0);
  xbar.advance(1);  // granted at 0, ready at 2
  try {
    xbar.pop(0);
    FAIL() << "popped a packet still on its way";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.module(), "gpu.xbar_request");
  }
  EXPECT_THROW(xbar.push(0, 1, packet(MemOp::Read, 1), 2), ModelError);  // no output 1
  EXPECT_THROW(xbar.push(1, 0, packet(MemOp::Read, 1), 2), ModelError);  // no input 1
}

TEST(Crossbar, BadConfigsNameTheKey) {
  const auto error_of = [](CrossbarConfig config, const std::string& prefix) -> std::string {
    try {
      StatGroup stats;
      Crossbar xbar(config, 2, 2, true, stats, prefix);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "accepted";
  };
  CrossbarConfig c;
  c.latency = 0;
  EXPECT_NE(error_of(c, "xbar").find("xbar.latency"), std::string::npos) << error_of(c, "xbar");
  c = CrossbarConfig{};
  c.input_buffer = 0;
  EXPECT_NE(error_of(c, "gpu.reply").find("gpu.reply.input_buffer"), std::string::npos);
  c = CrossbarConfig{};
  c.width_bytes = 0;
  EXPECT_NE(error_of(c, "xbar").find("xbar.width_bytes"), std::string::npos);
  c = CrossbarConfig{};
  c.arbiter = "wavefront";
  const std::string why = error_of(c, "xbar");
  EXPECT_NE(why.find("xbar.arbiter"), std::string::npos) << why;
  EXPECT_NE(why.find("islip"), std::string::npos) << why;
  EXPECT_EQ(CrossbarConfig{}.problem("xbar"), "");
}

}  // namespace
}  // namespace gpusoc::xbar
