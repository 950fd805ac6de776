// The memory checker's registers (bar0::MC_*): what a driver announces reaches the allocation map
// that launches check against, and misuse is refused through MC_STATUS, never taken silently.
#include <gtest/gtest.h>

#include <tlm>

#include "models/gigathread/memcheck_unit.h"
#include "models/pcie/bar0_map.h"

namespace gpusoc::gigathread {
namespace {

constexpr uint64_t kVram = 0x2'0000'0000, kVramBytes = 1 << 20;

class MemcheckUnitTest : public ::testing::Test {
 protected:
  void write(uint32_t offset, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, offset, value); }
  uint32_t read(uint32_t offset) {
    uint32_t value = 0;
    access(tlm::TLM_READ_COMMAND, offset, value);
    return value;
  }
  // Runs a command on [address, +bytes) and returns MC_STATUS.
  uint32_t command(uint32_t cmd, uint64_t address, uint64_t bytes = 0) {
    write(bar0::MC_ADDRESS_LO, uint32_t(address));
    write(bar0::MC_ADDRESS_HI, uint32_t(address >> 32));
    write(bar0::MC_BYTES_LO, uint32_t(bytes));
    write(bar0::MC_BYTES_HI, uint32_t(bytes >> 32));
    write(bar0::MC_COMMAND, cmd);
    return read(bar0::MC_STATUS);
  }
  MemcheckUnit unit{kVram, kVramBytes};

 private:
  void access(tlm::tlm_command cmd, uint32_t offset, uint32_t& value) {
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(offset);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    tx.set_data_length(4);
    tx.set_streaming_width(4);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    unit.registers().access(tx);
    ASSERT_TRUE(tx.is_response_ok()) << offset;
  }
};

TEST_F(MemcheckUnitTest, LaunchesSeeTheMapOnlyWhileEnabled) {
  EXPECT_EQ(unit.active(), nullptr);
  write(bar0::MC_CONTROL, bar0::kMemcheckEnable);
  ASSERT_NE(unit.active(), nullptr);
  EXPECT_EQ(command(bar0::kMemcheckAllocated, kVram + 0x100, 0x80), 0u);
  EXPECT_EQ(read(bar0::MC_LIVE_REGIONS), 1u);
  ptx::RegionCache cache;
  EXPECT_TRUE(unit.active()->allows(kVram + 0x17c, 4, true, cache));
  EXPECT_FALSE(unit.active()->allows(kVram + 0x180, 4, true, cache));
  EXPECT_EQ(command(bar0::kMemcheckFreed, kVram + 0x100), 0u);
  EXPECT_EQ(unit.active()->problem(kVram + 0x100, 4, false),
            "use after free: read of 4 bytes at 0x200000100, 0 bytes into the 128-byte "
            "allocation [0x200000100, 0x200000180), freed");
  write(bar0::MC_CONTROL, 0);
  EXPECT_EQ(unit.active(), nullptr);
}

TEST_F(MemcheckUnitTest, RefusesWhatWouldCorruptTheMap) {
  ASSERT_EQ(command(bar0::kMemcheckAllocated, kVram, 0x100), 0u);
  EXPECT_EQ(command(bar0::kMemcheckAllocated, kVram + 0xff, 0x10), 1u);  // overlaps
  EXPECT_NE(unit.last_problem().find("overlaps the 256-byte allocation"), std::string::npos);
  EXPECT_EQ(command(bar0::kMemcheckAllocated, kVram - 0x100, 0x10), 1u);         // below VRAM
  EXPECT_EQ(command(bar0::kMemcheckAllocated, kVram + kVramBytes - 8, 16), 1u);  // past its end
  EXPECT_EQ(command(bar0::kMemcheckAllocated, UINT64_MAX - 8, 16), 1u);          // wraps
  EXPECT_EQ(command(bar0::kMemcheckAllocated, kVram + 0x1000, 0), 1u);           // empty
  EXPECT_EQ(command(bar0::kMemcheckFreed, kVram + 0x10), 1u);  // inside, not the start
  EXPECT_EQ(command(7, kVram), 1u);
  EXPECT_EQ(unit.last_problem(), "unknown command 7");
  EXPECT_EQ(read(bar0::MC_LIVE_REGIONS), 1u);
  EXPECT_EQ(command(bar0::kMemcheckFreed, kVram), 0u);
  EXPECT_EQ(command(bar0::kMemcheckFreed, kVram), 1u);  // twice
  // CLEAR forgets allocations but not module variables, which are not the driver's.
  ASSERT_EQ(unit.map().add(kVram + 0x8000, 64, ptx::RegionKind::Constant, "'t' of module 'm'"), "");
  EXPECT_EQ(command(bar0::kMemcheckAllocated, kVram, 0x100), 0u);
  EXPECT_EQ(command(bar0::kMemcheckFreed, kVram + 0x8000), 1u);
  EXPECT_EQ(command(bar0::kMemcheckClear, 0), 0u);
  EXPECT_EQ(read(bar0::MC_LIVE_REGIONS), 1u);
}

}  // namespace
}  // namespace gpusoc::gigathread
