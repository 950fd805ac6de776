// A channel against a GPU played by the test: operations end with a fence the host can read,
// temporaries live until their operation completes, waits add an interrupting fence when they
// need one, and a recorded error comes back with the operation's description and the GPU's text.
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "models/pcie/bar0_map.h"
#include "sw/runtime/channel.h"
#include "sw/runtime/commands.h"
#include "tests/unit/runtime/fake_host_bus.h"

namespace gpusoc::rt {
namespace {

using testing::FakeHostBus;

constexpr uint32_t kChannel = 1;
uint32_t reg(uint32_t r) {
  return bar0::channel_offset(kChannel, r);
}

// Executes the packets the host has published: fences and semaphore releases write host memory,
// everything else is only recorded. `fail_at` makes one packet fail with an error and log text.
class FakeChannelGpu {
 public:
  explicit FakeChannelGpu(FakeHostBus& bus) : bus_(bus) {
    bus_.read_hooks[reg(bar0::CH_GET)] = [this] { return get_; };
    bus_.read_hooks[reg(bar0::CH_STATUS)] = [this] {
      return bar0::kChannelEnabled * (bus_.regs[reg(bar0::CH_CONTROL)] & 1) |
             (bus_.regs[reg(bar0::CH_ERROR)] ? bar0::kChannelError : 0) |
             (stalled ? bar0::kChannelBusy : 0);
    };
  }
  void run() {
    const uint64_t base = uint64_t(bus_.regs[reg(bar0::CH_RING_BASE_HI)]) << 32 |
                          bus_.regs[reg(bar0::CH_RING_BASE_LO)];
    const uint32_t size = bus_.regs[reg(bar0::CH_RING_SIZE)];
    while (!stalled && get_ != bus_.regs[reg(bar0::CH_PUT)]) {
      const auto p = bus_.load<cmd::Packet>(base + get_);
      executed.push_back(p);
      if (executed.size() == fail_at) fail(get_);
      if (p.opcode == cmd::Opcode::Fence) bus_.store<uint64_t>(p.a[0], p.a[1]);
      get_ = (get_ + 64) % size;
    }
  }
  void fail(uint32_t offset) {
    const uint64_t log = uint64_t(bus_.regs[reg(bar0::CH_ERROR_LOG_HI)]) << 32 |
                         bus_.regs[reg(bar0::CH_ERROR_LOG_LO)];
    // As the command processor writes it (models/gigathread/channel.cpp, record_error).
    const std::string text = fmt::format(
        "LaunchFailed: channel 1, packet at ring offset {:#x} (Launch): kernel 'k' block (0,0,0) "
        "thread (3,0,0): illegal address",
        offset);
    std::memcpy(bus_.memory(log, text.size() + 1), text.c_str(), text.size() + 1);
    bus_.regs[reg(bar0::CH_ERROR)] = uint32_t(cmd::ErrorCode::LaunchFailed);
    bus_.regs[reg(bar0::CH_ERROR_GET)] = offset;
    bus_.regs[bar0::INTR_STATUS] |= bar0::kIntrError;
  }

  std::vector<cmd::Packet> executed;
  size_t fail_at = 0;    // 1-based index of the packet that fails; 0: none
  bool stalled = false;  // stops executing (and reports itself busy)

 private:
  FakeHostBus& bus_;
  uint32_t get_ = 0;
};

class ChannelTest : public ::testing::Test {
 protected:
  ChannelTest()
      : bar0_(bus_, FakeHostBus::kBar0),
        waiter_(bar0_, sc_core::sc_time(1, sc_core::SC_MS), sc_core::sc_time(1, sc_core::SC_US)),
        pinned_(bus_.dram_base(), bus_.dram(), 64 * 1024),
        gpu_(bus_) {
    ChannelSizes sizes;
    sizes.ring_bytes = 1024;
    sizes.error_log_bytes = 256;
    channel_ = std::make_unique<Channel>(bar0_, waiter_, pinned_, kChannel, sizes);
    channel_->enable();
    bus_.on_wait = [this] {
      gpu_.run();
      return true;
    };
  }

  FakeHostBus bus_;
  Bar0 bar0_;
  InterruptWaiter waiter_;
  PinnedMemory pinned_;
  FakeChannelGpu gpu_;
  std::unique_ptr<Channel> channel_;
};

TEST_F(ChannelTest, EnableProgramsRingAndLogThenEnables) {
  const std::vector<uint32_t> control = bus_.writes_to(reg(bar0::CH_CONTROL));
  EXPECT_EQ(control, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(bus_.regs[reg(bar0::CH_RING_SIZE)], 1024u);
  EXPECT_EQ(bus_.regs[reg(bar0::CH_ERROR_LOG_SIZE)], 256u);
  EXPECT_NE(bus_.regs[reg(bar0::CH_ERROR_LOG_LO)], 0u);
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_ERROR_CLEAR)), std::vector<uint32_t>{1});
  // The ring registers were written before the enable that latches them.
  size_t last_ring_write = 0, enable = 0;
  for (size_t i = 0; i < bus_.writes.size(); ++i) {
    if (bus_.writes[i].first == reg(bar0::CH_RING_SIZE)) last_ring_write = i;
    if (bus_.writes[i] == std::make_pair(reg(bar0::CH_CONTROL), 1u)) enable = i;
  }
  EXPECT_LT(last_ring_write, enable);
}

TEST_F(ChannelTest, OperationsEndWithAFenceAndReleaseTheirTemporaries) {
  const PinnedMemory::Block temp = pinned_.allocate(128);
  const size_t live = pinned_.allocator().live_blocks();
  const uint64_t seq =
      channel_->submit({commands::launch(temp.address)}, "launch k", {temp.address});
  EXPECT_EQ(seq, 1u);
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_PUT)).back(), 128u);
  EXPECT_FALSE(channel_->idle());
  gpu_.run();
  ASSERT_EQ(gpu_.executed.size(), 2u);
  EXPECT_EQ(gpu_.executed[0].opcode, cmd::Opcode::Launch);
  EXPECT_EQ(gpu_.executed[1].opcode, cmd::Opcode::Fence);
  EXPECT_EQ(gpu_.executed[1].a[1], 1u);
  EXPECT_EQ(gpu_.executed[1].flags, 0u);
  EXPECT_EQ(channel_->completed(), 1u);
  EXPECT_EQ(pinned_.allocator().live_blocks(), live);
  channel_->reclaim();
  EXPECT_EQ(pinned_.allocator().live_blocks(), live - 1);
}

TEST_F(ChannelTest, WaitAddsAnInterruptingFenceOnlyWhenNeeded) {
  const uint64_t quiet = channel_->submit({commands::memset(0x2'0000'0000, 64, 0, 4)}, "memset");
  channel_->wait(quiet, "stream 3");
  ASSERT_EQ(gpu_.executed.size(), 3u);  // memset, its fence, and a fence to wake the host
  EXPECT_EQ(gpu_.executed[2].opcode, cmd::Opcode::Fence);
  EXPECT_EQ(gpu_.executed[2].flags, cmd::kFlagInterrupt);
  EXPECT_EQ(gpu_.executed[2].a[1], 2u);

  const uint64_t loud = channel_->submit({commands::memset(0x2'0000'0000, 64, 0, 4)}, "memset", {},
                                         /*interrupt=*/true);
  channel_->wait(loud, "stream 3");
  EXPECT_EQ(gpu_.executed.size(), 5u);  // its own fence interrupts
  EXPECT_EQ(gpu_.executed[4].flags, cmd::kFlagInterrupt);
}

TEST_F(ChannelTest, RecordedErrorSurfacesWithDescriptionAndGpuText) {
  gpu_.fail_at = 3;  // the second operation's first packet
  channel_->submit({commands::memset(0x2'0000'0000, 64, 0, 4)}, "stream 1: memset");
  channel_->submit({commands::launch(0x1'0000'0000)}, "stream 1: launch of kernel k");
  channel_->wait(channel_->issued(), "stream 1");
  try {
    channel_->check_errors();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::LaunchFailed);
    EXPECT_EQ(e.message(),
              "stream 1: launch of kernel k: the GPU reported LaunchFailed: kernel 'k' block "
              "(0,0,0) thread (3,0,0): illegal address (channel 1, ring offset 0x80)");
  }
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_ERROR_CLEAR)).back(), 1u);
  EXPECT_EQ(bus_.writes_to(bar0::ERROR_CLEAR).back(), bar0::kErrorChannel);
  bus_.regs[reg(bar0::CH_ERROR)] = 0;  // what CH_ERROR_CLEAR does in the GPU
  EXPECT_NO_THROW(channel_->check_errors());
}

TEST_F(ChannelTest, ErrorsAreReadOnlyAfterNewWorkCompleted) {
  const uint32_t status = reg(bar0::CH_STATUS);
  const int reads = bus_.reads[status];
  channel_->check_new_errors();
  EXPECT_EQ(bus_.reads[status], reads);  // nothing has completed: no register read
  channel_->wait(channel_->submit({commands::memset(0x2'0000'0000, 64, 0, 4)}, "memset"), "s");
  const int after_wait = bus_.reads[status];
  channel_->check_new_errors();
  EXPECT_EQ(bus_.reads[status], after_wait + 1);
}

TEST_F(ChannelTest, WaitTimesOutNamingTheWaiter) {
  gpu_.stalled = true;
  bus_.on_wait = [] { return false; };  // no interrupt: each wait sleeps until the deadline
  const uint64_t seq = channel_->submit({commands::launch(0x1'0000'0000)}, "stream 2: launch of k");
  try {
    channel_->wait(seq, "stream 2");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::Timeout);
    EXPECT_NE(e.message().find("stream 2: channel 1 did not complete operation 1 within 1 ms"),
              std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("GET 0x0 at 'stream 2: launch of k'"), std::string::npos)
        << e.message();
  }
}

TEST_F(ChannelTest, AChannelStoppedByAnErrorIsRestartedAndItsWorkCountedDone) {
  // The GPU records an error and goes idle without running the rest (a refused ring fetch).
  bus_.on_wait = [this] {
    gpu_.fail(0);
    return true;
  };
  const uint64_t seq = channel_->submit({commands::launch(0x1'0000'0000)}, "stream 0: launch");
  try {
    channel_->wait(seq, "stream 0");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::LaunchFailed);
  }
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_CONTROL)), (std::vector<uint32_t>{0, 1, 0, 1}));
  EXPECT_TRUE(channel_->idle());
  EXPECT_EQ(channel_->completed(), channel_->issued());
}

}  // namespace
}  // namespace gpusoc::rt
