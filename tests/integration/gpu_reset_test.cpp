// Resetting the GPU while a kernel runs, as a driver recovering a hung GPU does (a Function Level
// Reset through config space) and as a virtual platform does (the GPU's reset input). Expected
// values come from the PCI Express rules (what an FLR keeps, what it clears), from the register
// map's documented reset values, and from a CPU reference for the run after the reset.
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include "models/common/logging.h"

#include "models/common/stats_report.h"
#include "models/pcie/bar0_map.h"
#include "models/pcie/config_space.h"
#include "platform/gpu_soc.h"
#include "sw/runtime/pci_function.h"
#include "tests/integration/soc_fixture.h"

namespace gpusoc::rt {
namespace {

using namespace testing;
namespace cfg = pcie::cfg;

// Counts to n (2^31 in the tests: seconds of simulated time), then stores the count.
const char* const kCountPtx = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry count(.param .u64 out, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, 0;
  ld.param.u32 %r2, [n];
LOOP:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p, %r1, %r2;
  @%p bra LOOP;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

constexpr uint32_t kPattern = 0x5EC2E7u;
constexpr uint32_t kWords = 1024;

uint64_t stat(const Soc& soc, const char* group, const char* name) {
  return stats_values_json(soc.stats())["gpu"][group][name].get<uint64_t>();
}
uint64_t stat(const Soc& soc, const char* name) { return stat(soc, "pcie", name); }

// Opens a device, leaves data in VRAM, a kernel of 2^31 iterations running on every SM and a
// 64 MiB copy from host memory under way on another channel, and lets them run for a while;
// returns the device address of the data. The device is closed after the reset: its last waits
// time out, as they would for a driver whose GPU was reset under it.
template <typename Reset>
uint64_t reset_under_a_running_kernel(host::HostBus& bus, Reset&& reset) {
  RuntimeOptions options;
  options.sync_timeout = sc_core::sc_time(50, sc_core::SC_US);
  Device device(bus, options);
  const Module m = device.load_module(kCountPtx, "count.ptx");
  auto data = device.alloc<uint32_t>(kWords);
  data.upload(std::vector<uint32_t>(kWords, kPattern));
  const uint64_t address = data.ptr();
  device.launch(m.kernel("count"), {8, 256}, data, uint32_t(1) << 31);
  constexpr uint64_t kCopyBytes = 64 << 20;
  auto source = device.alloc_host<uint8_t>(kCopyBytes);
  auto destination = device.alloc<uint8_t>(kCopyBytes);
  Stream copies = device.create_stream();
  copies.memcpy_htod(destination.ptr(), source.data(), kCopyBytes);
  bus.compute(sc_core::sc_time(20, sc_core::SC_US));
  const uint64_t bar0 = device.properties().bar0_address;
  EXPECT_TRUE(bus.read32(bar0 + bar0::channel_offset(0, bar0::CH_STATUS)) & bar0::kChannelBusy)
      << "the kernel should still run";
  EXPECT_TRUE(bus.read32(bar0 + bar0::copy_engine_offset(0, bar0::CE_STATUS)) & 1)
      << "the copy should still run";
  reset();
  return address;
}

// Waits, as software does after a reset, until the function answers config reads again.
void wait_until_present(host::HostBus& bus, PciFunction& fn) {
  for (int i = 0; fn.vendor_id() == 0xFFFF; ++i) {
    ASSERT_LT(i, 1000) << "the function did not come back within 1 ms";
    bus.compute(sc_core::sc_time(1, sc_core::SC_US));
  }
}

// Places BAR0 by hand and turns memory decoding on, so that registers can be read as the reset
// left them: opening a Device clears interrupts and errors itself. Returns BAR0's address.
uint64_t place_bar0(host::HostBus& bus, PciFunction& fn) {
  PciBar bar0 = fn.size_memory_bars().at(0);
  bar0.address = bus.address_map().mmio_base;  // aligned to any BAR's size
  fn.assign(bar0);
  fn.set_command(PciFunction::kCommandMemory);
  return bar0.address;
}

// After a reset: the registers are at their documented reset values before any driver touches
// them; a new driver finds VRAM erased and runs on the GPU.
void expect_a_clean_gpu(host::HostBus& bus, PciFunction& fn, uint64_t old_data) {
  const uint64_t bar0 = place_bar0(bus, fn);
  EXPECT_EQ(bus.read32(bar0 + bar0::INTR_STATUS), 0u);
  EXPECT_EQ(bus.read32(bar0 + bar0::ERROR_STATUS), 0u);
  EXPECT_EQ(bus.read32(bar0 + bar0::BAR1_WINDOW_LO), 0u);
  for (uint32_t c = 0; c < 2; ++c) {
    EXPECT_EQ(bus.read32(bar0 + bar0::channel_offset(c, bar0::CH_ERROR)), 0u)
        << "channel " << c << ": the aborted work's error went with the reset";
    EXPECT_EQ(bus.read32(bar0 + bar0::channel_offset(c, bar0::CH_STATUS)), 0u)
        << "channel " << c << ": disabled, idle";
  }
  EXPECT_EQ(bus.read32(bar0 + bar0::copy_engine_offset(0, bar0::CE_COPIES)), 0u);
  EXPECT_EQ(bus.read32(bar0 + bar0::copy_engine_offset(0, bar0::CE_STATUS)), 0u);
  Device device(bus);
  auto data = device.alloc<uint32_t>(kWords);
  ASSERT_EQ(data.ptr(), old_data) << "the same allocation as before the reset";
  EXPECT_EQ(data.download(), std::vector<uint32_t>(kWords, 0u)) << "VRAM was not erased";
  const Module m = device.load_module_file(kKernelDir + "/vector_add.ptx");
  run_vector_add(device, m, 5000, 7);
}

// Captures what the GPU logs (the reason a launch failed goes there: its channel's error log in
// host memory is out of reach once Bus Master Enable is clear).
class CapturedLog {
 public:
  CapturedLog() { set_log_sink(std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)); }
  ~CapturedLog() { set_log_sink(std::make_shared<spdlog::sinks::stderr_sink_mt>()); }
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
};

class GpuReset : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuReset, AFunctionLevelResetStopsARunningKernelAndTheGpuComesBackClean) {
  Soc soc({std::string("sm.model=") + GetParam(), "platform.check_tlm_protocol=true"});
  const CapturedLog log;
  soc.run_host([&](host::HostBus& bus) {
    PciFunction fn(bus, bus.address_map().ecam_base);
    EXPECT_TRUE(fn.read32(cfg::DEVICE_CAPABILITIES) & cfg::kDeviceCapabilitiesFlr);
    uint16_t device_control = 0;
    const uint64_t old_data = reset_under_a_running_kernel(bus, [&] {
      // Max_Payload_Size belongs to the link: programmed to 128 bytes, an FLR keeps it.
      device_control = fn.read16(cfg::DEVICE_CONTROL);
      device_control = uint16_t((device_control & ~cfg::kDeviceControlMaxPayload) | 0u << 5);
      fn.write16(cfg::DEVICE_CONTROL, device_control);
      fn.write16(cfg::DEVICE_CONTROL, uint16_t(device_control | cfg::kDeviceControlInitiateFlr));
      wait_until_present(bus, fn);
    });
    EXPECT_EQ(fn.read16(cfg::COMMAND), 0u);
    EXPECT_EQ(fn.read32(cfg::BAR0), cfg::kBarMemory64) << "BAR0 unassigned again";
    EXPECT_EQ(fn.read16(cfg::DEVICE_CONTROL), device_control) << "the link's settings stay";
    expect_a_clean_gpu(bus, fn, old_data);
  });
  EXPECT_EQ(stat(soc, "function_level_resets"), 1u);
  EXPECT_EQ(stat(soc, "conventional_resets"), 0u);
  EXPECT_EQ(stat(soc, "cta_dispatcher", "reset_grids"), 1u);
  EXPECT_THAT(log.text(), ::testing::HasSubstr("LaunchFailed: channel 0, packet at ring offset"));
  EXPECT_THAT(log.text(), ::testing::HasSubstr("launch of 'count': the GPU was reset"));
  EXPECT_LT(stat(soc, "copy_engine0", "host_to_device_bytes"), uint64_t(64) << 20)
      << "the 64 MiB copy did not complete";
}

TEST_P(GpuReset, TheResetInputHoldsTheGpuInResetAndRestoresEverything) {
  Soc soc({std::string("sm.model=") + GetParam(), "platform.check_tlm_protocol=true"});
  sc_core::sc_signal<bool> reset_wire("reset_wire");
  soc.platform().gpu().rst.bind(reset_wire);
  soc.run_host([&](host::HostBus& bus) {
    PciFunction fn(bus, bus.address_map().ecam_base);
    const uint16_t power_on_control = fn.read16(cfg::DEVICE_CONTROL);
    const uint64_t old_data = reset_under_a_running_kernel(bus, [&] {
      fn.write16(cfg::DEVICE_CONTROL, uint16_t(power_on_control & ~cfg::kDeviceControlMaxPayload));
      reset_wire.write(true);
      bus.compute(sc_core::sc_time(1, sc_core::SC_MS));  // held: long after the work stopped
      EXPECT_EQ(fn.read32(cfg::VENDOR_ID), 0xFFFF'FFFFu) << "held in reset";
      reset_wire.write(false);
      wait_until_present(bus, fn);
    });
    EXPECT_EQ(fn.read16(cfg::DEVICE_CONTROL), power_on_control)
        << "a conventional reset restores the link's settings too";
    expect_a_clean_gpu(bus, fn, old_data);
  });
  EXPECT_EQ(stat(soc, "conventional_resets"), 1u);
  EXPECT_EQ(stat(soc, "function_level_resets"), 0u);
}

// Resets of an idle GPU, twice in a row, after a driver with memcheck on: the memory checker is
// off again and has forgotten that driver's allocations (which a driver without memcheck does
// not clear), and the GPU runs.
TEST(GpuResetIdle, TwoFunctionLevelResetsInARowLeaveTheMemoryCheckerAtReset) {
  Soc soc;
  soc.run_host([&](host::HostBus& bus) {
    PciFunction fn(bus, bus.address_map().ecam_base);
    {
      Device device(bus, RuntimeOptions::debug());
      auto data = device.alloc<uint32_t>(kWords);
      data.upload(std::vector<uint32_t>(kWords, kPattern));
      const uint64_t bar0 = device.properties().bar0_address;
      ASSERT_EQ(bus.read32(bar0 + bar0::kMemcheckBase + bar0::MC_CONTROL), bar0::kMemcheckEnable);
      ASSERT_GT(bus.read32(bar0 + bar0::kMemcheckBase + bar0::MC_LIVE_REGIONS), 0u);
      for (int i = 0; i < 2; ++i) {
        const uint16_t control = fn.read16(cfg::DEVICE_CONTROL);
        fn.write16(cfg::DEVICE_CONTROL, uint16_t(control | cfg::kDeviceControlInitiateFlr));
        wait_until_present(bus, fn);
      }
    }
    Device device(bus);
    const uint64_t bar0 = device.properties().bar0_address;
    EXPECT_EQ(bus.read32(bar0 + bar0::kMemcheckBase + bar0::MC_CONTROL), 0u);
    EXPECT_EQ(bus.read32(bar0 + bar0::kMemcheckBase + bar0::MC_LIVE_REGIONS), 0u);
    const Module m = device.load_module_file(kKernelDir + "/vector_add.ptx");
    run_vector_add(device, m, 3000, 5);
  });
  EXPECT_EQ(stat(soc, "function_level_resets"), 2u);
}

// A platform that holds the reset input high from the start (as VPs do at power-on) sees no
// function until it releases it.
TEST(GpuResetInput, HighFromTheStartHoldsTheGpuInResetUntilReleased) {
  Soc soc;
  sc_core::sc_signal<bool> reset_wire("reset_wire", true);
  soc.platform().gpu().rst.bind(reset_wire);
  soc.run_host([&](host::HostBus& bus) {
    PciFunction fn(bus, bus.address_map().ecam_base);
    EXPECT_EQ(fn.read32(cfg::VENDOR_ID), 0xFFFF'FFFFu) << "from the first read, at time 0";
    bus.compute(sc_core::sc_time(10, sc_core::SC_US));
    EXPECT_EQ(fn.read32(cfg::VENDOR_ID), 0xFFFF'FFFFu);
    expect_error(Status::InvalidDevice, "no PCI function at 00:00.0", [&] { Device device(bus); });
    reset_wire.write(false);
    wait_until_present(bus, fn);
    Device device(bus);
    run_vector_add(device, device.load_module_file(kKernelDir + "/vector_add.ptx"), 1000, 3);
  });
  EXPECT_EQ(stat(soc, "conventional_resets"), 1u);
}

// A pulse of the reset input while an FLR is under way makes that reset a conventional one: the
// link's settings, which an FLR keeps, return to power-on too. A copy within VRAM keeps the FLR
// under way for microseconds (it stops at the end of a 64 KiB chunk).
TEST(GpuResetInput, APulseDuringAFunctionLevelResetMakesItConventional) {
  Soc soc;
  sc_core::sc_signal<bool> reset_wire("reset_wire");
  soc.platform().gpu().rst.bind(reset_wire);
  soc.run_host([&](host::HostBus& bus) {
    PciFunction fn(bus, bus.address_map().ecam_base);
    const uint16_t power_on_control = fn.read16(cfg::DEVICE_CONTROL);
    {
      RuntimeOptions options;
      options.sync_timeout = sc_core::sc_time(50, sc_core::SC_US);
      Device device(bus, options);
      constexpr uint64_t kBytes = 48 << 20;  // of 128 MiB of VRAM
      auto a = device.alloc<uint8_t>(kBytes);
      auto b = device.alloc<uint8_t>(kBytes);
      Stream copies = device.create_stream();
      copies.memcpy_dtod(b.ptr(), a.ptr(), kBytes);
      bus.compute(sc_core::sc_time(10, sc_core::SC_US));
      const auto control = uint16_t(power_on_control & ~cfg::kDeviceControlMaxPayload);
      fn.write16(cfg::DEVICE_CONTROL, control);
      fn.write16(cfg::DEVICE_CONTROL, uint16_t(control | cfg::kDeviceControlInitiateFlr));
      ASSERT_EQ(fn.vendor_id(), 0xFFFF) << "the FLR should still be under way";
      bus.sync();  // the pulse at the host's time
      reset_wire.write(true);
      bus.compute(sc_core::sc_time(10, sc_core::SC_NS));
      bus.sync();
      reset_wire.write(false);
      wait_until_present(bus, fn);
    }
    EXPECT_EQ(fn.read16(cfg::DEVICE_CONTROL), power_on_control);
  });
  EXPECT_EQ(stat(soc, "function_level_resets"), 1u);
  EXPECT_EQ(stat(soc, "conventional_resets"), 1u);
}

// While the input holds the GPU in reset, configuration writes are dropped: neither the Command
// register nor an FLR takes effect.
TEST(GpuResetInput, ConfigurationWritesAreDroppedWhileHeld) {
  Soc soc;
  sc_core::sc_signal<bool> reset_wire("reset_wire", true);
  soc.platform().gpu().rst.bind(reset_wire);
  soc.run_host([&](host::HostBus& bus) {
    PciFunction fn(bus, bus.address_map().ecam_base);
    fn.write16(cfg::COMMAND, PciFunction::kCommandMemory | PciFunction::kCommandBusMaster);
    fn.write16(cfg::DEVICE_CONTROL, cfg::kDeviceControlInitiateFlr);
    bus.compute(sc_core::sc_time(10, sc_core::SC_US));
    reset_wire.write(false);
    wait_until_present(bus, fn);
    EXPECT_EQ(fn.read16(cfg::COMMAND), 0u);
  });
  EXPECT_EQ(stat(soc, "function_level_resets"), 0u);
  EXPECT_EQ(stat(soc, "conventional_resets"), 1u);
}

// Copies and fills within VRAM cross no link, so no refused DMA ends them: the reset aborts them
// at their next chunk. Both are far longer than the reset; neither completes.
TEST(GpuResetIdle, AResetAbortsCopiesAndFillsWithinVram) {
  Soc soc({"pcie.copy_engines=2"});
  soc.run_host([&](host::HostBus& bus) {
    PciFunction fn(bus, bus.address_map().ecam_base);
    {
      RuntimeOptions options;
      options.sync_timeout = sc_core::sc_time(50, sc_core::SC_US);
      Device device(bus, options);
      constexpr uint64_t kBytes = 48 << 20;  // of 128 MiB of VRAM
      auto a = device.alloc<uint8_t>(kBytes);
      auto b = device.alloc<uint8_t>(kBytes);
      Stream copies = device.create_stream();
      Stream fills = device.create_stream();
      copies.memcpy_dtod(b.ptr(), a.ptr(), kBytes);
      fills.memset_d32(a.ptr(), 0xC0FFEE, kBytes / 4);
      bus.compute(sc_core::sc_time(10, sc_core::SC_US));
      const uint16_t control = fn.read16(cfg::DEVICE_CONTROL);
      fn.write16(cfg::DEVICE_CONTROL, uint16_t(control | cfg::kDeviceControlInitiateFlr));
      wait_until_present(bus, fn);
    }
    const uint64_t bar0 = place_bar0(bus, fn);
    for (uint32_t e = 0; e < 2; ++e) {
      EXPECT_EQ(bus.read32(bar0 + bar0::copy_engine_offset(e, bar0::CE_STATUS)), 0u) << e;
      EXPECT_EQ(bus.read32(bar0 + bar0::copy_engine_offset(e, bar0::CE_COPIES)), 0u) << e;
    }
  });
  EXPECT_EQ(stat(soc, "copy_engine0", "device_to_device_bytes") +
                stat(soc, "copy_engine1", "device_to_device_bytes"),
            0u);
  EXPECT_EQ(stat(soc, "copy_engine0", "filled_bytes") + stat(soc, "copy_engine1", "filled_bytes"),
            0u);
  EXPECT_GE(stat(soc, "copy_engine0", "faults") + stat(soc, "copy_engine1", "faults"), 2u);
}

INSTANTIATE_TEST_SUITE_P(Sm, GpuReset, ::testing::Values("lt", "cycle"));

}  // namespace
}  // namespace gpusoc::rt
