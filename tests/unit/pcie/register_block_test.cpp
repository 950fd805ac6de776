// RegisterBlock: registers declared as data answer TLM accesses by the rules of
// models/common/register_block.h.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/common/register_block.h"

namespace gpusoc {
namespace {

constexpr auto RO = RegisterAccess::ReadOnly;
constexpr auto RW = RegisterAccess::ReadWrite;
constexpr auto WO = RegisterAccess::WriteOnly;

std::vector<RegisterSpec> specs() {
  return {{0x00, "STATUS", RO, 0x11, "status"},
          {0x04, "CONTROL", RW, 0x22, "control"},
          {0x08, "DOORBELL", WO, 0x33, "doorbell"},
          {0x10, "COUNT", RO, 0, "computed"}};
}

struct Access {
  tlm::tlm_generic_payload tx;
  uint8_t data[8] = {};
  Access(tlm::tlm_command command, uint64_t address, unsigned bytes, uint32_t value = 0) {
    std::memcpy(data, &value, 4);
    tx.set_command(command);
    tx.set_address(address);
    tx.set_data_ptr(data);
    tx.set_data_length(bytes);
    tx.set_streaming_width(bytes);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
  uint32_t value() const {
    uint32_t v;
    std::memcpy(&v, data, 4);
    return v;
  }
};

struct Faults {
  std::vector<std::pair<RegisterFault, uint32_t>> seen;
  void attach(RegisterBlock& block) {
    block.on_fault([this](RegisterFault f, uint32_t offset) { seen.emplace_back(f, offset); });
  }
};

TEST(RegisterBlockTest, ReadsAndWritesStoredValues) {
  RegisterBlock block("Test", specs());
  Access read(tlm::TLM_READ_COMMAND, 0x04, 4);
  block.access(read.tx);
  EXPECT_EQ(read.tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(read.value(), 0x22u) << "reset value";
  Access write(tlm::TLM_WRITE_COMMAND, 0x04, 4, 0xCAFE);
  block.access(write.tx);
  EXPECT_EQ(write.tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(block.read(0x04), 0xCAFEu);
  block.reset();
  EXPECT_EQ(block.read(0x04), 0x22u);
  EXPECT_EQ(block.size_bytes(), 0x14u);
}

TEST(RegisterBlockTest, ReadOnlyWritesAreIgnoredAndReported) {
  RegisterBlock block("Test", specs());
  Faults faults;
  faults.attach(block);
  Access write(tlm::TLM_WRITE_COMMAND, 0x00, 4, 0xFFFF);
  block.access(write.tx);
  EXPECT_EQ(write.tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(block.read(0x00), 0x11u);
  ASSERT_EQ(faults.seen.size(), 1u);
  EXPECT_EQ(faults.seen[0].first, RegisterFault::ReadOnlyWrite);
  EXPECT_EQ(faults.seen[0].second, 0x00u);
}

TEST(RegisterBlockTest, WriteOnlyRegistersReadZero) {
  RegisterBlock block("Test", specs());
  Access read(tlm::TLM_READ_COMMAND, 0x08, 4, 0xDEAD);
  block.access(read.tx);
  EXPECT_EQ(read.tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(read.value(), 0u);
}

TEST(RegisterBlockTest, RefusesUnmappedAndBadlyShapedAccesses) {
  RegisterBlock block("Test", specs());
  Faults faults;
  faults.attach(block);
  Access unmapped(tlm::TLM_READ_COMMAND, 0x0C, 4);
  block.access(unmapped.tx);
  EXPECT_EQ(unmapped.tx.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  Access beyond(tlm::TLM_READ_COMMAND, 0x100, 4);
  block.access(beyond.tx);
  EXPECT_EQ(beyond.tx.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  Access oversized(tlm::TLM_READ_COMMAND, 0x00, 8);
  block.access(oversized.tx);
  EXPECT_EQ(oversized.tx.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
  Access misaligned(tlm::TLM_WRITE_COMMAND, 0x06, 4, 1);
  block.access(misaligned.tx);
  EXPECT_EQ(misaligned.tx.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  Access narrow(tlm::TLM_WRITE_COMMAND, 0x04, 2, 1);
  block.access(narrow.tx);
  EXPECT_EQ(narrow.tx.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  Access enables(tlm::TLM_WRITE_COMMAND, 0x04, 4, 1);
  uint8_t mask[4] = {0xFF, 0xFF, 0, 0};
  enables.tx.set_byte_enable_ptr(mask);
  enables.tx.set_byte_enable_length(4);
  block.access(enables.tx);
  EXPECT_EQ(enables.tx.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  Access streaming(tlm::TLM_WRITE_COMMAND, 0x04, 4, 1);
  streaming.tx.set_streaming_width(2);
  block.access(streaming.tx);
  EXPECT_EQ(streaming.tx.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(block.read(0x04), 0x22u) << "no refused write stored anything";
  const std::vector<std::pair<RegisterFault, uint32_t>> expected = {
      {RegisterFault::Unmapped, 0x0C},  {RegisterFault::Unmapped, 0x100},
      {RegisterFault::BadAccess, 0x00}, {RegisterFault::BadAccess, 0x06},
      {RegisterFault::BadAccess, 0x04}, {RegisterFault::BadAccess, 0x04},
      {RegisterFault::BadAccess, 0x04}};
  EXPECT_EQ(faults.seen, expected);
}

TEST(RegisterBlockTest, CallbacksSeeComputedReadsAndStoredWrites) {
  RegisterBlock block("Test", specs());
  uint32_t count = 7;
  std::vector<uint32_t> doorbells;
  block.on_read(0x10, [&] { return count; });
  block.on_write(0x08, [&](uint32_t v) {
    doorbells.push_back(v);
    ++count;
  });
  Access ring(tlm::TLM_WRITE_COMMAND, 0x08, 4, 5);
  block.access(ring.tx);
  Access read(tlm::TLM_READ_COMMAND, 0x10, 4);
  block.access(read.tx);
  EXPECT_EQ(doorbells, std::vector<uint32_t>{5});
  EXPECT_EQ(read.value(), 8u);
  EXPECT_EQ(block.read(0x10), 8u);
  EXPECT_THROW(block.on_read(0x0C, [] { return 0u; }), ModelError);
}

TEST(RegisterBlockTest, DebugAccessHasNoSideEffects) {
  RegisterBlock block("Test", specs());
  int writes = 0;
  int faults = 0;
  block.on_write(0x04, [&](uint32_t) { ++writes; });
  block.on_fault([&](RegisterFault, uint32_t) { ++faults; });
  block.on_read(0x10, [] { return 0x99u; });
  // A multi-register debug read stops at the first hole (0x0C).
  Access read(tlm::TLM_READ_COMMAND, 0x00, 8);
  EXPECT_EQ(block.debug_access(read.tx), 8u);
  uint32_t words[2];
  std::memcpy(words, read.data, 8);
  EXPECT_EQ(words[0], 0x11u);
  EXPECT_EQ(words[1], 0x22u);
  Access computed(tlm::TLM_READ_COMMAND, 0x10, 4);
  EXPECT_EQ(block.debug_access(computed.tx), 4u);
  EXPECT_EQ(computed.value(), 0x99u);
  Access poke(tlm::TLM_WRITE_COMMAND, 0x04, 4, 0x77);
  EXPECT_EQ(block.debug_access(poke.tx), 4u);
  EXPECT_EQ(block.read(0x04), 0x77u);
  Access read_only(tlm::TLM_WRITE_COMMAND, 0x00, 4, 0x77);
  EXPECT_EQ(block.debug_access(read_only.tx), 0u);
  Access hole(tlm::TLM_READ_COMMAND, 0x0C, 4);
  EXPECT_EQ(block.debug_access(hole.tx), 0u);
  EXPECT_EQ(writes, 0);
  EXPECT_EQ(faults, 0);
}

TEST(RegisterBlockTest, DeclarationsAreChecked) {
  EXPECT_THROW(RegisterBlock("Bad", {{0x02, "ODD", RW, 0, ""}}), ModelError);
  EXPECT_THROW(RegisterBlock("Bad", {{0x04, "A", RW, 0, ""}, {0x04, "B", RO, 0, ""}}), ModelError);
}

TEST(RegisterBlockTest, MarkdownTableListsEveryRegister) {
  const std::string table = register_table_markdown("Test", 0x1000, specs());
  EXPECT_NE(table.find("### Test"), std::string::npos);
  EXPECT_NE(table.find("| `0x1004` | `CONTROL` | RW | `0x00000022` | control |"),
            std::string::npos);
  EXPECT_NE(table.find("`DOORBELL` | WO"), std::string::npos);
  EXPECT_NE(table.find("`0x1010` | `COUNT` | RO"), std::string::npos);
}

}  // namespace
}  // namespace gpusoc
