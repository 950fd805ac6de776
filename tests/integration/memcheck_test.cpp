// memcheck on the SoC: the runtime's debug configuration announces allocations to the GPU's
// memory checker, kernels' bad accesses fail their launch with a report before they land, and
// the device stays usable. Kernels: tests/errors/memcheck.ptx (its line numbers are quoted).
#include <fmt/format.h>

#include <vector>

#include "tests/integration/soc_fixture.h"

namespace gpusoc::rt::testing {
namespace {

const std::string kBugs = std::string(GPUSOC_SOURCE_DIR) + "/tests/errors/memcheck.ptx";
const std::string kRaces = std::string(GPUSOC_SOURCE_DIR) + "/tests/errors/races.ptx";
constexpr int kFillStoreLine = 20;

std::vector<int32_t> download(Device& dev, DevicePtr p, size_t count) {
  std::vector<int32_t> out(count);
  dev.memcpy_dtoh(out.data(), p, count * 4);
  return out;
}

TEST(MemcheckIntegrationTest, AStoreOnePastAnAllocationIsCaughtBeforeItReachesTheNeighbour) {
  Soc soc;
  soc.run(
      [&](Device& dev, host::HostBus&) {
        Module m = dev.load_module_file(kBugs);
        const DevicePtr a = dev.malloc(256 * 4);
        const DevicePtr b = dev.malloc(256 * 4);
        dev.memset_d32(b, 0, 256);
        EXPECT_GE(b - a, 1024 + RuntimeOptions{}.memcheck_red_zone_bytes);  // the red zone
        dev.launch(m.kernel("fill"), 1, 257, a, b);
        expect_error(Status::LaunchFailed,
                     fmt::format("kernel 'fill' block (0,0,0) thread (256,0,0): memcheck: "
                                 "out-of-bounds write of 4 bytes at {:#x}, 0 bytes after the end "
                                 "of the 1024-byte allocation [{:#x}, {:#x}) at {}:{}",
                                 a + 1024, a, a + 1024, kBugs, kFillStoreLine),
                     [&] { dev.synchronize(); });
        EXPECT_EQ(download(dev, b, 256), std::vector<int32_t>(256, 0));
        // The device stays usable: the same kernel within bounds runs and lands.
        dev.launch(m.kernel("fill"), 1, 256, a, b);
        dev.synchronize();
        EXPECT_EQ(download(dev, a, 256), std::vector<int32_t>(256, 7));
        EXPECT_EQ(download(dev, b, 256), std::vector<int32_t>(256, 0));
      },
      RuntimeOptions::debug());
}

TEST(MemcheckIntegrationTest, WithoutMemcheckTheSameStoreOverwritesTheNeighbour) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kBugs);
    const DevicePtr a = dev.malloc(256 * 4);
    const DevicePtr b = dev.malloc(256 * 4);
    ASSERT_EQ(b, a + 1024);  // first fit, no red zone: b starts where a ends
    dev.memset_d32(b, 0, 256);
    dev.launch(m.kernel("fill"), 1, 257, a, b);
    dev.synchronize();
    EXPECT_EQ(download(dev, b, 1)[0], 7);  // the bug memcheck exists to catch
  });
}

TEST(MemcheckIntegrationTest, FreedMemoryStaysPoisonedInQuarantine) {
  Soc soc;
  soc.run(
      [&](Device& dev, host::HostBus&) {
        Module m = dev.load_module_file(kBugs);
        const DevicePtr a = dev.malloc(1024);
        const DevicePtr b = dev.malloc(1024);
        dev.free(a);
        const DevicePtr c = dev.malloc(1024);
        EXPECT_NE(c, a);  // not reused while quarantined
        dev.launch(m.kernel("fill"), 1, 32, a, b);
        expect_error(Status::LaunchFailed,
                     fmt::format("thread (0,0,0): memcheck: use after free: write of 4 bytes at "
                                 "{:#x}, 0 bytes into the 1024-byte allocation [{:#x}, {:#x}), "
                                 "freed at {}:{}",
                                 a, a, a + 1024, kBugs, kFillStoreLine),
                     [&] { dev.synchronize(); });
        expect_error(Status::InvalidValue, fmt::format("free of {:#x}, which was already freed", a),
                     [&] { dev.free(a); });
        std::vector<int32_t> host(256);
        expect_error(Status::InvalidValue, "is not in any allocation",
                     [&] { dev.memcpy_htod(a, host.data(), 1024); });
        dev.launch(m.kernel("fill"), 1, 256, c, b);
        dev.synchronize();
        EXPECT_EQ(download(dev, c, 256), std::vector<int32_t>(256, 7));
      },
      RuntimeOptions::debug());
}

TEST(MemcheckIntegrationTest, TheQuarantineIsReleasedOldestFirstAndWhenMemoryIsShort) {
  Soc soc;
  RuntimeOptions options = RuntimeOptions::debug();
  options.memcheck_quarantine_bytes = 4096;
  soc.run(
      [&](Device& dev, host::HostBus&) {
        const DevicePtr a = dev.malloc(4096);
        const DevicePtr b = dev.malloc(4096);
        dev.free(a);  // quarantined: 4096 bytes, the limit
        dev.free(b);  // 8192 > 4096: a leaves the quarantine
        EXPECT_EQ(dev.malloc(4096), a);
        // Everything that is left, so that b's quarantined memory must be given back.
        const uint64_t rest = dev.memory_info().largest_free_block;
        EXPECT_NO_THROW(dev.malloc(rest - options.memcheck_red_zone_bytes + 4096));
      },
      options);
}

TEST(MemcheckIntegrationTest, ARedZoneLargerThanAllowedIsRefusedAtOpen) {
  Soc soc;
  RuntimeOptions options = RuntimeOptions::debug();
  options.memcheck_red_zone_bytes = uint64_t(1) << 40;
  expect_error(Status::InvalidValue, "RuntimeOptions: memcheck_red_zone_bytes is 1099511627776",
               [&] { soc.run([](Device&, host::HostBus&) {}, options); });
}

TEST(MemcheckIntegrationTest, AWriteToAConstVariableIsRefused) {
  Soc soc;
  soc.run(
      [&](Device& dev, host::HostBus&) {
        Module m = dev.load_module_file(kBugs);
        const auto [table, bytes] = m.global("table");
        dev.launch(m.kernel("write_const"), 1, 2);
        expect_error(Status::LaunchFailed,
                     fmt::format("memcheck: write to constant memory: 4 bytes at {:#x}, 0 bytes "
                                 "into the 16-byte .const variable 'table' of module '{}' "
                                 "[{:#x}, {:#x})",
                                 table, kBugs, table, table + bytes),
                     [&] { dev.synchronize(); });
        std::vector<int32_t> values(4);
        dev.memcpy_dtoh(values.data(), table, 16);
        EXPECT_EQ(values, (std::vector<int32_t>{1, 2, 3, 4}));
      },
      RuntimeOptions::debug());
}

TEST(MemcheckIntegrationTest, MisalignedAccessesNameTheAllocation) {
  Soc soc;
  soc.run(
      [&](Device& dev, host::HostBus&) {
        Module m = dev.load_module_file(kBugs);
        const DevicePtr a = dev.malloc(64);
        dev.launch(m.kernel("misaligned"), 1, 1, a);
        expect_error(Status::LaunchFailed,
                     fmt::format("misaligned 4-byte access at address {:#x} (2 bytes into the "
                                 "64-byte allocation [{:#x}, {:#x}))",
                                 a + 2, a, a + 64),
                     [&] { dev.synchronize(); });
      },
      RuntimeOptions::debug());
}

// Which hazard is seen first depends on how the SM interleaves the warps; that one is, and the
// same kernel with its barrier runs clean and right.
TEST(MemcheckIntegrationTest, RacecheckReportsAMissingBarrierOnTheSoc) {
  Soc soc;
  RuntimeOptions options;
  options.racecheck = true;
  soc.run(
      [&](Device& dev, host::HostBus&) {
        Module m = dev.load_module_file(kRaces);
        const DevicePtr out = dev.malloc(64 * 4);
        dev.launch(m.kernel("missing_barrier"), 1, 64, out);
        expect_error(Status::LaunchFailed, "hazard on shared memory at offset 0x",
                     [&] { dev.synchronize(); });
        dev.launch(m.kernel("with_barrier"), 1, 64, out);
        dev.synchronize();
        const std::vector<int32_t> got = download(dev, out, 64);
        for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], 63 - i) << i;
      },
      options);
}

}  // namespace
}  // namespace gpusoc::rt::testing
