// Pinned host memory: blocks are zeroed, 64-byte aligned, and a host pointer is recognised as
// pinned exactly when it lies in a live block.
#include <vector>

#include <gtest/gtest.h>

#include "sw/runtime/pinned_memory.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

constexpr uint64_t kHostBase = 0x1'0000'0000;

TEST(PinnedMemoryTest, BlocksAreAlignedZeroedAndMapToHostAddresses) {
  std::vector<uint8_t> dram(64 * 1024, 0xAB);
  PinnedMemory pinned(kHostBase, dram.data(), dram.size());
  const PinnedMemory::Block a = pinned.allocate(10);
  const PinnedMemory::Block b = pinned.allocate(100);
  EXPECT_EQ(a.address, kHostBase);
  EXPECT_EQ(b.address, kHostBase + 64);
  EXPECT_EQ(a.pointer, dram.data());
  EXPECT_EQ(b.pointer, dram.data() + 64);
  for (uint64_t i = 0; i < b.bytes; ++i) ASSERT_EQ(b.pointer[i], 0) << i;
  EXPECT_EQ(dram[164], 0xAB);  // beyond the block: untouched
  EXPECT_EQ(pinned.pointer(b.address + 5), dram.data() + 69);
}

TEST(PinnedMemoryTest, AddressOfRecognisesLiveBlocksOnly) {
  std::vector<uint8_t> dram(64 * 1024);
  PinnedMemory pinned(kHostBase, dram.data(), dram.size());
  const PinnedMemory::Block b = pinned.allocate(256);
  EXPECT_EQ(pinned.address_of(b.pointer, 256, "copy"), b.address);
  EXPECT_EQ(pinned.address_of(b.pointer + 100, 156, "copy"), b.address + 100);
  int pageable = 0;
  EXPECT_FALSE(pinned.address_of(&pageable, sizeof pageable, "copy").has_value());
  EXPECT_FALSE(pinned.address_of(dram.data() + 4096, 4, "copy").has_value());  // not allocated
  try {
    pinned.address_of(b.pointer + 200, 100, "memcpy_htod");
    FAIL() << "a range past its block was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidValue);
    EXPECT_EQ(e.message(),
              "memcpy_htod: host range [0x1000000c8, +100) runs past the end of its pinned "
              "buffer [0x100000000, +256)");
  }
  pinned.free(b.address);
  EXPECT_FALSE(pinned.address_of(b.pointer, 4, "copy").has_value());
}

TEST(PinnedMemoryTest, ExhaustionIsOutOfMemory) {
  std::vector<uint8_t> dram(4096);
  PinnedMemory pinned(kHostBase, dram.data(), dram.size());
  pinned.allocate(4000);
  EXPECT_FALSE(pinned.try_allocate(128).has_value());
  try {
    pinned.allocate(128);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::OutOfMemory);
    EXPECT_NE(e.message().find("pinned host memory: cannot allocate 128 bytes"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpusoc::rt
