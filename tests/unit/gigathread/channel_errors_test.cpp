// Failing packets: each gives its ErrorCode in CH_ERROR (the first one latches until cleared),
// its message in the channel's error log, an error report to the interrupt controller, and the
// channel goes on with the next packet. Ring setup errors and fetch faults.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/systemc_test.h"
#include "tests/unit/gigathread/testbench.h"
#include "tests/unit/gigathread/tiny_module.h"

namespace gpusoc::gigathread::testing {
namespace {

using cmd::ErrorCode;
using cmd::Opcode;
using ::testing::HasSubstr;

struct Observed {
  uint32_t error = 0, error_get = 0, status = 0;
  std::string log;
  uint64_t next = 0;  // the fence after the failing packet
  size_t error_reports = 0;
};

/// Runs `failing` (with the tiny module loaded on channel 0, its handles given) as the second
/// packet of a fresh batch, followed by a fence, and observes the channel.
Observed run_failing(Testbench& tb,
                     const std::function<cmd::Packet(const Testbench::LoadResult&)>& failing) {
  Observed o;
  tb.run([&] {
    tb.enable(0);
    const Testbench::LoadResult m = tb.load_module(0, kTinyModule);
    const size_t reports_before = tb.irq.errors.size();
    const uint64_t done = tb.alloc(8);
    tb.push(0, packet(Opcode::Nop, {}));
    tb.push(0, failing(m));
    tb.push(0, fence(done, 5));
    tb.submit(0);
    tb.wait_value(done, 5);
    o.error = tb.reg(0, bar0::CH_ERROR);
    o.error_get = tb.reg(0, bar0::CH_ERROR_GET);
    o.status = tb.reg(0, bar0::CH_STATUS);
    o.log = tb.peek_string(tb.error_log(0));
    o.next = tb.peek<uint64_t>(done);
    o.error_reports = tb.irq.errors.size() - reports_before;
  });
  return o;
}

// The failing packet is the second of the batch after the two packets of the module load.
constexpr uint32_t kFailingOffset = 3 * 64;

void expect_reported(const Observed& o, ErrorCode code) {
  EXPECT_EQ(o.error, uint32_t(code));
  EXPECT_EQ(o.error_get, kFailingOffset);
  EXPECT_EQ(o.status, bar0::kChannelEnabled | bar0::kChannelError);
  EXPECT_EQ(o.next, 5u) << "the packet after the failing one must run";
  EXPECT_EQ(o.error_reports, 1u);
}

TEST(ChannelErrors, InvalidKernelHandle) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o = run_failing(tb, [&](const Testbench::LoadResult&) {
    return launch(tb.descriptor(0x0000'0007'0000'0000ull, {1}, {1}, {}));
  });
  expect_reported(o, ErrorCode::InvalidKernel);
  EXPECT_THAT(o.log, HasSubstr("InvalidKernel"));
  EXPECT_THAT(o.log, HasSubstr("kernel handle 0x700000000"));
  EXPECT_THAT(o.log, HasSubstr("module 7 was never loaded"));
  EXPECT_THAT(o.log, HasSubstr("ring offset 0xc0 (Launch)"));
  EXPECT_TRUE(tb.grid.calls.empty());
  EXPECT_EQ(tb.irq.errors.back().bits, bar0::kErrorChannel);
}

TEST(ChannelErrors, ParameterSizeMismatch) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o = run_failing(tb, [&](const Testbench::LoadResult& m) {
    return launch(tb.descriptor(m.kernels.at(0).handle, {3, 2, 1}, {128}, std::vector<uint8_t>(8)));
  });
  expect_reported(o, ErrorCode::InvalidLaunchParams);
  EXPECT_THAT(o.log, HasSubstr("launch of 'add_one' with grid (3,2,1), block (128,1,1)"));
  EXPECT_THAT(o.log, HasSubstr("param_bytes is 8; the kernel's 2 parameters take 12 bytes"));
  EXPECT_TRUE(tb.grid.calls.empty());
}

TEST(ChannelErrors, UnknownOpcode) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o =
      run_failing(tb, [](const Testbench::LoadResult&) { return packet(cmd::Opcode(99), {}); });
  expect_reported(o, ErrorCode::InvalidPacket);
  EXPECT_THAT(o.log, HasSubstr("opcode 99 is not a command"));
}

TEST(ChannelErrors, UndefinedFlagBits) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o =
      run_failing(tb, [](const Testbench::LoadResult&) { return packet(Opcode::Nop, {}, 0x6); });
  expect_reported(o, ErrorCode::InvalidPacket);
  EXPECT_THAT(o.log, HasSubstr("flags 0x6"));
}

TEST(ChannelErrors, BadHostAddress) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o = run_failing(tb, [](const Testbench::LoadResult&) { return fence(0x10, 1); });
  expect_reported(o, ErrorCode::HostAccessFault);
  EXPECT_THAT(o.log, HasSubstr("Fence: writing the fence value (8 bytes) to host 0x10 failed: "
                               "address error"));
}

TEST(ChannelErrors, UnreadableLaunchDescriptor) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o = run_failing(tb, [](const Testbench::LoadResult&) { return launch(0x40); });
  expect_reported(o, ErrorCode::HostAccessFault);
  EXPECT_THAT(o.log, HasSubstr("reading the LaunchDescriptor at host 0x40 failed"));
}

TEST(ChannelErrors, KernelFaultReportsTheGridsMessage) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  GridResult fault;
  fault.error = ErrorCode::LaunchFailed;
  fault.message = "illegal address 0x0 at block (1,0,0) thread (3,0,0), ptx line 17";
  tb.grid.scripted.push_back(fault);
  const Observed o = run_failing(tb, [&](const Testbench::LoadResult& m) {
    return launch(tb.descriptor(m.kernels.at(1).handle, {2}, {32}, {}));
  });
  expect_reported(o, ErrorCode::LaunchFailed);
  EXPECT_THAT(o.log, HasSubstr("LaunchFailed: channel 0, packet at ring offset 0xc0 (Launch): "
                               "launch of 'empty' with grid (2,1,1), block (32,1,1), 0 bytes of "
                               "dynamic shared memory: illegal address 0x0 at block (1,0,0)"));
}

TEST(ChannelErrors, BadMemsetElementSize) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o = run_failing(tb, [](const Testbench::LoadResult&) {
    return packet(Opcode::Memset, {Testbench::kVramBase, 12, 0, 3});
  });
  expect_reported(o, ErrorCode::InvalidPacket);
  EXPECT_THAT(o.log, HasSubstr("element size 3"));
  EXPECT_TRUE(tb.copy_log.empty());
}

TEST(ChannelErrors, CopyEngineFaultIsReported) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const Observed o = run_failing(tb, [](const Testbench::LoadResult&) {
    return packet(Opcode::Copy, {0x100, Testbench::kVramBase, 64, 0});
  });
  expect_reported(o, ErrorCode::HostAccessFault);
  EXPECT_THAT(o.log, HasSubstr("copy of 64 bytes from host 0x100 to device 0x200000000 on copy "
                               "engine 0 failed: HostAccessFault"));
}

TEST(ChannelErrors, FirstErrorLatchesUntilCleared) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  uint32_t first = 0, first_get = 0, after_clear = 0, second = 0, second_get = 0;
  std::string log;
  tb.run([&] {
    tb.enable(1);
    const uint64_t done = tb.alloc(8);
    tb.push(1, packet(cmd::Opcode(42), {}));
    tb.push(1, fence(0x10, 1));
    tb.push(1, fence(done, 1));
    tb.submit(1);
    tb.wait_value(done, 1);
    first = tb.reg(1, bar0::CH_ERROR);
    first_get = tb.reg(1, bar0::CH_ERROR_GET);
    log = tb.peek_string(tb.error_log(1));
    tb.clear_error(1);
    after_clear = tb.reg(1, bar0::CH_STATUS);
    tb.push(1, fence(0x18, 1));
    tb.push(1, fence(done, 2));
    tb.submit(1);
    tb.wait_value(done, 2);
    second = tb.reg(1, bar0::CH_ERROR);
    second_get = tb.reg(1, bar0::CH_ERROR_GET);
  });
  EXPECT_EQ(first, uint32_t(ErrorCode::InvalidPacket));
  EXPECT_EQ(first_get, 0u);
  EXPECT_THAT(log, HasSubstr("opcode 42"));
  EXPECT_EQ(after_clear, bar0::kChannelEnabled);
  EXPECT_EQ(second, uint32_t(ErrorCode::HostAccessFault));
  EXPECT_EQ(second_get, 3 * 64u);
  EXPECT_EQ(tb.irq.errors.size(), 3u);  // every error is reported, latched or not
  EXPECT_EQ(tb.cp.channel(1).stats().errors.value(), 3u);
}

TEST(ChannelErrors, DoorbellOnADisabledChannelExecutesNothing) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  uint64_t word = 0;
  tb.run([&] {
    tb.enable(0);
    tb.driver.write_reg(0, bar0::CH_CONTROL, 0);
    word = tb.alloc(8);
    tb.push(0, fence(word, 1));
    tb.submit(0);
    sc_core::wait(sc_time(10, SC_US));
  });
  EXPECT_EQ(tb.peek<uint64_t>(word), 0u);
  EXPECT_EQ(tb.cp.channel(0).registers().read(bar0::CH_ERROR), uint32_t(ErrorCode::InvalidPacket));
  EXPECT_THAT(tb.peek_string(tb.error_log(0)), HasSubstr("disabled"));
  EXPECT_EQ(tb.cp.stats().packets.value(), 0u);
}

struct RingCase {
  const char* name;
  uint32_t size;
  uint64_t base_offset;
  uint32_t put;
  const char* message;
};

class BadRing : public ::testing::TestWithParam<RingCase> {};

TEST_P(BadRing, IsRefusedWithNothingExecuted) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const RingCase c = GetParam();
  uint64_t word = 0;
  tb.run([&] {
    word = tb.alloc(8);
    tb.poke(tb.ring_base(0) + c.base_offset, fence(word, 1));
    tb.enable(0, 4096);
    tb.driver.write_reg(0, bar0::CH_CONTROL, 0);
    tb.driver.write_reg(0, bar0::CH_RING_BASE_LO, uint32_t(tb.ring_base(0) + c.base_offset));
    tb.driver.write_reg(0, bar0::CH_RING_SIZE, c.size);
    tb.driver.write_reg(0, bar0::CH_CONTROL, 1);
    tb.driver.write_reg(0, bar0::CH_PUT, c.put);
    tb.driver.write_reg(0, bar0::CH_DOORBELL, 1);
    sc_core::wait(sc_time(10, SC_US));
  });
  EXPECT_EQ(tb.peek<uint64_t>(word), 0u);
  EXPECT_EQ(tb.cp.channel(0).registers().read(bar0::CH_ERROR), uint32_t(ErrorCode::InvalidPacket));
  EXPECT_THAT(tb.peek_string(tb.error_log(0)), HasSubstr(c.message));
  EXPECT_EQ(tb.cp.stats().packets.value(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Setup, BadRing,
    ::testing::Values(RingCase{"SizeNotPowerOfTwo", 100, 0, 64, "CH_RING_SIZE 100"},
                      RingCase{"SizeBelow64", 32, 0, 0x20, "CH_RING_SIZE 32"},
                      RingCase{"SizeAbove16MiB", 32u << 20, 0, 64, "CH_RING_SIZE 33554432"},
                      RingCase{"BaseMisaligned", 4096, 32, 64, "is not 64-byte aligned"},
                      RingCase{"PutMisaligned", 4096, 0, 96, "CH_PUT 0x60"},
                      RingCase{"PutBeyondSize", 4096, 0, 4096, "CH_PUT 0x1000"}),
    [](const ::testing::TestParamInfo<RingCase>& info) { return std::string(info.param.name); });

TEST(ChannelErrors, FetchFaultStopsTheChannelUntilReenabled) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  uint64_t word = 0;
  uint32_t error = 0, reports_while_stopped = 0;
  tb.run([&] {
    word = tb.alloc(8);
    tb.driver.write_reg(0, bar0::CH_ERROR_LOG_LO, uint32_t(tb.error_log(0)));
    tb.driver.write_reg(0, bar0::CH_ERROR_LOG_SIZE, Testbench::kErrorLogBytes);
    tb.driver.write_reg(0, bar0::CH_RING_BASE_LO, 0x1000);  // no host memory there
    tb.driver.write_reg(0, bar0::CH_RING_SIZE, 4096);
    tb.driver.write_reg(0, bar0::CH_CONTROL, 1);
    tb.driver.write_reg(0, bar0::CH_PUT, 64);
    tb.driver.write_reg(0, bar0::CH_DOORBELL, 1);
    sc_core::wait(sc_time(10, SC_US));
    error = tb.reg(0, bar0::CH_ERROR);
    tb.driver.write_reg(0, bar0::CH_DOORBELL, 1);  // ignored while stopped
    sc_core::wait(sc_time(10, SC_US));
    reports_while_stopped = uint32_t(tb.irq.errors.size());
    tb.clear_error(0);
    tb.driver.write_reg(0, bar0::CH_CONTROL, 0);
    tb.enable(0);
    tb.push(0, fence(word, 9));
    tb.submit(0);
    tb.wait_value(word, 9);
  });
  EXPECT_EQ(error, uint32_t(ErrorCode::HostAccessFault));
  EXPECT_EQ(reports_while_stopped, 1u);
  EXPECT_THAT(tb.peek_string(tb.error_log(0)), HasSubstr("fetching 1 packets at host 0x1000"));
  EXPECT_EQ(tb.peek<uint64_t>(word), 9u);
}

TEST(ChannelErrors, RegisterFaultsAreReported) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  tlm::tlm_response_status unmapped_channel{}, unmapped_register{}, read_only{};
  tb.run([&] {
    uint32_t v = 5;
    read_only = tb.driver.access(tlm::TLM_WRITE_COMMAND, bar0::CH_GET, &v, 4);
    unmapped_register = tb.driver.access(tlm::TLM_READ_COMMAND, 0x80, &v, 4);
    unmapped_channel = tb.driver.access(tlm::TLM_READ_COMMAND, 4 * bar0::kChannelStride, &v, 4);
  });
  EXPECT_EQ(read_only, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(unmapped_register, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(unmapped_channel, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // Error responses are the host interface's to flag; the ignored write is reported here.
  EXPECT_TRUE(tb.irq.errors.empty());
  ASSERT_EQ(tb.irq.mmio_faults.size(), 1u);
  EXPECT_EQ(tb.irq.mmio_faults[0].bits, bar0::kErrorReadOnlyWrite);
  EXPECT_EQ(tb.irq.mmio_faults[0].offset, bar0::kChannelBase + bar0::CH_GET);
  EXPECT_EQ(tb.cp.channel(0).registers().read(bar0::CH_GET), 0u);
}

}  // namespace
}  // namespace gpusoc::gigathread::testing
