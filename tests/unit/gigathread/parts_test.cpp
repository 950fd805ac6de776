// The command processor's parts that need no simulation: the channel register table against
// the BAR0 map, the firmware heap, the module load result layout, packet and error names.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "models/gigathread/command_processor.h"
#include "models/gigathread/firmware_heap.h"
#include "models/gigathread/module_load_result.h"
#include "models/gigathread/packet_names.h"
#include "models/pcie/bar0_map.h"

namespace gpusoc::gigathread {
namespace {

TEST(ChannelRegisters, AgreeWithTheBar0Map) {
  struct Expected {
    uint32_t offset;
    const char* name;
    RegisterAccess access;
  };
  using A = RegisterAccess;
  const Expected expected[] = {
      {bar0::CH_RING_BASE_LO, "CH_RING_BASE_LO", A::ReadWrite},
      {bar0::CH_RING_BASE_HI, "CH_RING_BASE_HI", A::ReadWrite},
      {bar0::CH_RING_SIZE, "CH_RING_SIZE", A::ReadWrite},
      {bar0::CH_PUT, "CH_PUT", A::ReadWrite},
      {bar0::CH_GET, "CH_GET", A::ReadOnly},
      {bar0::CH_DOORBELL, "CH_DOORBELL", A::WriteOnly},
      {bar0::CH_STATUS, "CH_STATUS", A::ReadOnly},
      {bar0::CH_ERROR, "CH_ERROR", A::ReadOnly},
      {bar0::CH_ERROR_GET, "CH_ERROR_GET", A::ReadOnly},
      {bar0::CH_ERROR_CLEAR, "CH_ERROR_CLEAR", A::WriteOnly},
      {bar0::CH_ERROR_LOG_LO, "CH_ERROR_LOG_LO", A::ReadWrite},
      {bar0::CH_ERROR_LOG_HI, "CH_ERROR_LOG_HI", A::ReadWrite},
      {bar0::CH_ERROR_LOG_SIZE, "CH_ERROR_LOG_SIZE", A::ReadWrite},
      {bar0::CH_CONTROL, "CH_CONTROL", A::ReadWrite},
  };
  const std::vector<RegisterSpec>& specs = CommandProcessor::channel_register_specs();
  ASSERT_EQ(specs.size(), std::size(expected));
  for (size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(expected[i].name);
    EXPECT_EQ(specs[i].offset, expected[i].offset);
    EXPECT_STREQ(specs[i].name, expected[i].name);
    EXPECT_EQ(specs[i].access, expected[i].access);
    EXPECT_EQ(specs[i].reset, 0u);
    EXPECT_GT(std::strlen(specs[i].description), 10u);
    EXPECT_LT(specs[i].offset, bar0::kChannelStride);
  }
  RegisterBlock block("Channel 0", specs);
  EXPECT_LE(block.size_bytes(), bar0::kChannelStride);
}

TEST(FirmwareHeap, FirstFitWithAlignmentAndReuse) {
  FirmwareHeap heap(0x1000, 0x1000);
  EXPECT_EQ(heap.allocate(10, 4), 0x1000u);  // at least 16-byte aligned
  EXPECT_EQ(heap.allocate(100, 256), 0x1100u);
  EXPECT_EQ(heap.allocate(16, 16), 0x1010u);  // fits the gap before 0x1100
  EXPECT_EQ(heap.used_bytes(), 126u);
  EXPECT_TRUE(heap.free(0x1000));
  EXPECT_FALSE(heap.free(0x1000));
  EXPECT_FALSE(heap.free(0x1234));
  EXPECT_EQ(heap.allocate(16, 16), 0x1000u);
  EXPECT_EQ(heap.largest_free(), 0x2000u - 0x1164u);       // after the block at 0x1100
  EXPECT_EQ(heap.allocate(0x2000 - 0x1170, 16), 0x1170u);  // exactly the rest
  EXPECT_EQ(heap.allocate(1, 1), 0x1020u);
  EXPECT_FALSE(heap.allocate(0x1000, 16).has_value());
}

TEST(FirmwareHeap, RefusesWhatDoesNotFit) {
  FirmwareHeap heap(0x2000, 8);
  EXPECT_FALSE(heap.allocate(16, 16).has_value());
  EXPECT_EQ(heap.allocate(8, 16), 0x2000u);
  EXPECT_FALSE(heap.allocate(1, 16).has_value());
  FirmwareHeap empty(0x3000, 0);
  EXPECT_FALSE(empty.allocate(1, 1).has_value());
  EXPECT_EQ(empty.largest_free(), 0u);
}

TEST(ModuleLoadResult, PartsAreEightByteAlignedInOrder) {
  const cmd::ModuleLoadResultLayout l = cmd::module_load_result_layout(2, 3, 5, 13, 11);
  EXPECT_EQ(l.kernels, 40u);
  EXPECT_EQ(l.globals, 40u + 2 * 48);
  EXPECT_EQ(l.params, 40u + 2 * 48 + 3 * 24);
  EXPECT_EQ(l.strings, 40u + 2 * 48 + 3 * 24 + 5 * 8);
  EXPECT_EQ(l.diagnostics, 40u + 2 * 48 + 3 * 24 + 5 * 8 + 16);
  EXPECT_EQ(l.total, 40u + 2 * 48 + 3 * 24 + 5 * 8 + 16 + 16);
}

TEST(ModuleLoadResult, EncodesEntriesAndNamesAtTheirOffsets) {
  ModuleLoadReport r;
  r.module_id = 3;
  r.kernels.resize(1);
  const std::string long_name(300, 'k');  // no fixed-size field limits a name
  r.kernels[0].name_offset = r.add_string(long_name);
  r.kernels[0].name_bytes = uint32_t(long_name.size());
  r.kernels[0].handle = 0x300000000ull;
  r.globals.resize(1);
  r.globals[0].name_offset = r.add_string("g");
  r.globals[0].name_bytes = 1;
  r.globals[0].address = 0x1234;
  r.params = {{0, 8}, {8, 4}};
  const std::vector<uint8_t> bytes = encode_module_load_result(r, 4096, r.required_bytes());
  const size_t strings_at = 40 + 48 + 24 + 16;
  ASSERT_EQ(bytes.size(), strings_at + 304);  // 301 + 2 bytes of names, padded to 8
  cmd::ModuleLoadResult h;
  std::memcpy(&h, bytes.data(), sizeof h);
  EXPECT_EQ(h.module_id, 3u);
  EXPECT_EQ(h.num_kernels, 1u);
  EXPECT_EQ(h.num_params, 2u);
  EXPECT_EQ(h.strings_bytes, 303u);
  EXPECT_EQ(h.required_bytes, bytes.size());
  cmd::KernelEntry k;
  std::memcpy(&k, bytes.data() + 40, sizeof k);
  EXPECT_EQ(k.handle, 0x300000000ull);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data() + strings_at + k.name_offset)),
            long_name);
  cmd::GlobalEntry g;
  std::memcpy(&g, bytes.data() + 40 + 48, sizeof g);
  EXPECT_EQ(g.address, 0x1234u);
  EXPECT_STREQ(reinterpret_cast<const char*>(bytes.data() + strings_at + g.name_offset), "g");
  cmd::ParamEntry p;
  std::memcpy(&p, bytes.data() + 40 + 48 + 24 + 8, sizeof p);
  EXPECT_EQ(p.offset, 8u);
  EXPECT_EQ(p.bytes, 4u);
}

TEST(ModuleLoadResult, CutsDiagnosticsAtWholeLines) {
  ModuleLoadReport r;
  r.status = cmd::ErrorCode::ModuleLoadFailed;
  r.diagnostics = "first problem\nsecond problem\n";
  EXPECT_EQ(r.required_bytes(), 40u + 32);  // 29 characters and the NUL, padded to 8
  const std::vector<uint8_t> bytes = encode_module_load_result(r, 40 + 20, 1000);
  ASSERT_EQ(bytes.size(), 40u + 16);  // the cut text, padded to 8
  cmd::ModuleLoadResult h;
  std::memcpy(&h, bytes.data(), sizeof h);
  EXPECT_EQ(h.required_bytes, 1000u);
  EXPECT_EQ(h.diagnostics_bytes, 15u);
  EXPECT_STREQ(reinterpret_cast<const char*>(bytes.data() + 40), "first problem\n");
}

TEST(PacketNames, NameEveryOpcodeAndErrorCode) {
  std::set<std::string> names;
  for (uint32_t op = 0; op < kNumOpcodes; ++op) names.insert(opcode_name(cmd::Opcode(op)));
  EXPECT_EQ(names.size(), kNumOpcodes);
  EXPECT_EQ(names.count("unknown"), 0u);
  EXPECT_STREQ(opcode_name(cmd::Opcode(kNumOpcodes)), "unknown");
  EXPECT_STREQ(error_name(cmd::ErrorCode::InvalidModule), "InvalidModule");
  EXPECT_STREQ(error_name(cmd::ErrorCode(11)), "unknown");
}

}  // namespace
}  // namespace gpusoc::gigathread
