// Packet encoding: each encoder's 64 bytes read back field by field at the byte offsets
// packets.h defines (opcode u32 at 0, flags u32 at 4, a[i] u64 at 8 + 8i), with the opcode and
// direction numbers written out as the ABI lists them.
#include <array>
#include <cstddef>
#include <cstring>

#include <gtest/gtest.h>

#include "sw/runtime/commands.h"

namespace gpusoc::rt {
namespace {

struct Decoded {
  uint32_t opcode, flags;
  std::array<uint64_t, 7> a;
};

Decoded decode(const cmd::Packet& p) {
  uint8_t bytes[64];
  std::memset(bytes, 0xCD, sizeof bytes);
  commands::encode(p, bytes);
  Decoded d;
  std::memcpy(&d.opcode, bytes + 0, 4);
  std::memcpy(&d.flags, bytes + 4, 4);
  for (int i = 0; i < 7; ++i) std::memcpy(&d.a[i], bytes + 8 + 8 * i, 8);
  return d;
}

void expect_args(const Decoded& d, std::array<uint64_t, 7> expected) {
  for (int i = 0; i < 7; ++i) EXPECT_EQ(d.a[i], expected[i]) << "a[" << i << "]";
}

TEST(CommandsTest, LaunchCopyAndMemset) {
  Decoded d = decode(commands::launch(0x1'0000'1040));
  EXPECT_EQ(d.opcode, 1u);
  EXPECT_EQ(d.flags, 0u);
  expect_args(d, {0x1'0000'1040, 0, 0, 0, 0, 0, 0});

  d = decode(commands::copy(0x1'0000'0000, 0x2'0000'0100, 4096, cmd::CopyDirection::HostToDevice));
  EXPECT_EQ(d.opcode, 2u);
  expect_args(d, {0x1'0000'0000, 0x2'0000'0100, 4096, 0, 0, 0, 0});
  d = decode(commands::copy(0x2'0000'0100, 0x1'0000'0000, 8, cmd::CopyDirection::DeviceToHost));
  EXPECT_EQ(d.a[3], 1u);
  d = decode(commands::copy(1, 2, 3, cmd::CopyDirection::DeviceToDevice, cmd::kFlagInterrupt));
  EXPECT_EQ(d.a[3], 2u);
  EXPECT_EQ(d.flags, 1u);

  d = decode(commands::memset(0x2'0000'0200, 64, 0xABCD, 2));
  EXPECT_EQ(d.opcode, 3u);
  expect_args(d, {0x2'0000'0200, 64, 0xABCD, 2, 0, 0, 0});
}

TEST(CommandsTest, SemaphoresFencesAndModules) {
  Decoded d = decode(commands::sem_acquire(0x1'0000'0010, 5, 250));
  EXPECT_EQ(d.opcode, 4u);
  expect_args(d, {0x1'0000'0010, 5, 250, 0, 0, 0, 0});
  d = decode(commands::sem_release(0x1'0000'0020, 6, cmd::kFlagInterrupt));
  EXPECT_EQ(d.opcode, 5u);
  EXPECT_EQ(d.flags, 1u);
  expect_args(d, {0x1'0000'0020, 6, 0, 0, 0, 0, 0});
  d = decode(commands::fence(0x1'0000'0008, 42, cmd::kFlagInterrupt));
  EXPECT_EQ(d.opcode, 6u);
  expect_args(d, {0x1'0000'0008, 42, 0, 0, 0, 0, 0});
  d = decode(commands::module_load(0x2'0000'0000, 1234, 0x1'0000'4000, 8192));
  EXPECT_EQ(d.opcode, 7u);
  expect_args(d, {0x2'0000'0000, 1234, 0x1'0000'4000, 8192, 0, 0, 0});
  d = decode(commands::module_unload(3));
  EXPECT_EQ(d.opcode, 8u);
  expect_args(d, {3, 0, 0, 0, 0, 0, 0});
}

// The runtime writes LaunchDescriptors and reads records with memcpy: their layout is the ABI.
TEST(CommandsTest, DescriptorAndRecordLayouts) {
  EXPECT_EQ(offsetof(cmd::LaunchDescriptor, kernel), 0u);
  EXPECT_EQ(offsetof(cmd::LaunchDescriptor, grid), 8u);
  EXPECT_EQ(offsetof(cmd::LaunchDescriptor, block), 20u);
  EXPECT_EQ(offsetof(cmd::LaunchDescriptor, dynamic_shared_bytes), 32u);
  EXPECT_EQ(offsetof(cmd::LaunchDescriptor, param_bytes), 36u);
  EXPECT_EQ(offsetof(cmd::LaunchDescriptor, param_address), 40u);
  EXPECT_EQ(offsetof(cmd::LaunchDescriptor, stats_address), 48u);
  EXPECT_EQ(offsetof(cmd::SemaphoreRecord, timestamp_ps), 8u);
  EXPECT_EQ(sizeof(cmd::LaunchStatsRecord), 64u);
  EXPECT_EQ(sizeof(cmd::ModuleLoadResult), 40u);
  EXPECT_EQ(offsetof(cmd::ModuleLoadResult, strings_bytes), 20u);
  EXPECT_EQ(offsetof(cmd::ModuleLoadResult, required_bytes), 32u);
  EXPECT_EQ(sizeof(cmd::KernelEntry), 48u);
  EXPECT_EQ(offsetof(cmd::KernelEntry, handle), 8u);
  EXPECT_EQ(offsetof(cmd::KernelEntry, register_source), 44u);
  EXPECT_EQ(sizeof(cmd::GlobalEntry), 24u);
}

}  // namespace
}  // namespace gpusoc::rt
