// The first-fit allocator behind device and pinned memory, against hand-computed layouts and a
// granule-bitmap reference model under random allocation and free sequences.
#include <map>
#include <optional>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sw/runtime/range_allocator.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

constexpr uint64_t kBase = 0x2'0000'0000;  // VRAM base of the configurations

template <typename Fn>
Error expect_error(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no rt::Error thrown";
  return Error(Status::Success, "");
}

TEST(RangeAllocatorTest, FirstFitAtAlignedAddresses) {
  RangeAllocator a("device memory", kBase, 4096, 256);
  EXPECT_EQ(a.allocate(1), kBase);
  EXPECT_EQ(a.allocate(256), kBase + 256);
  EXPECT_EQ(a.allocate(257), kBase + 512);  // takes two granules
  EXPECT_EQ(a.allocate(100), kBase + 1024);
  EXPECT_EQ(a.free_bytes(), 4096u - 256 * 5);
  a.free(kBase + 256);
  EXPECT_EQ(a.allocate(200), kBase + 256);   // the first hole that fits
  EXPECT_EQ(a.allocate(512), kBase + 1280);  // after the last live block
}

TEST(RangeAllocatorTest, LargerAlignmentPadsAndKeepsTheGap) {
  RangeAllocator a("pinned host memory", kBase, 8192, 64);
  EXPECT_EQ(a.allocate(64), kBase);
  EXPECT_EQ(a.allocate(64, 4096), kBase + 4096);
  EXPECT_EQ(a.allocate(64), kBase + 64);  // the gap before the aligned block is still free
  EXPECT_EQ(a.free_bytes(), 8192u - 3 * 64);
}

TEST(RangeAllocatorTest, UnalignedBaseStartsAtTheFirstAlignedGranule) {
  RangeAllocator a("pinned host memory", kBase + 10, 1000, 64);
  EXPECT_EQ(a.allocate(1), kBase + 64);
  // Whole granules only: [kBase + 64, kBase + 960), of which 64 bytes are now taken.
  EXPECT_EQ(a.total_bytes(), 1000u);
  EXPECT_EQ(a.free_bytes(), 896u - 64);
}

TEST(RangeAllocatorTest, FreesCoalesceIntoOneBlock) {
  RangeAllocator a("device memory", kBase, 4096, 256);
  std::vector<uint64_t> blocks;
  for (int i = 0; i < 16; ++i) blocks.push_back(a.allocate(256));
  EXPECT_EQ(a.largest_free_block(), 0u);
  // Free every other block, then the rest: only the last frees make larger blocks.
  for (int i = 0; i < 16; i += 2) a.free(blocks[i]);
  EXPECT_EQ(a.largest_free_block(), 256u);
  for (int i = 1; i < 16; i += 2) a.free(blocks[i]);
  EXPECT_EQ(a.largest_free_block(), 4096u);
  EXPECT_EQ(a.live_blocks(), 0u);
  EXPECT_EQ(a.allocate(4096), kBase);  // only possible if everything merged
}

TEST(RangeAllocatorTest, OutOfMemoryNamesTheRequestAndTheLargestFreeBlock) {
  RangeAllocator a("device memory", kBase, 4096, 256);
  const uint64_t first = a.allocate(1024);
  a.allocate(1024);
  a.allocate(1024);
  a.free(first);  // 1024 free at the start, 1024 at the end: 2048 free, largest 1024
  const Error e = expect_error([&] { a.allocate(1500); });
  EXPECT_EQ(e.status(), Status::OutOfMemory);
  EXPECT_EQ(e.message(),
            "device memory: cannot allocate 1500 bytes: 2048 of 4096 bytes are free, the "
            "largest free block holds 1024 bytes");
  EXPECT_FALSE(a.try_allocate(1500).has_value());
  EXPECT_EQ(expect_error([&] { a.allocate(UINT64_MAX); }).status(), Status::OutOfMemory);
}

TEST(RangeAllocatorTest, BadRequestsAndFreesAreInvalidValue) {
  RangeAllocator a("device memory", kBase, 4096, 256);
  EXPECT_EQ(expect_error([&] { a.allocate(0); }).status(), Status::InvalidValue);
  EXPECT_EQ(expect_error([&] { a.allocate(16, 48); }).status(), Status::InvalidValue);
  const uint64_t p = a.allocate(512);
  const Error inside = expect_error([&] { a.free(p + 8); });
  EXPECT_EQ(inside.status(), Status::InvalidValue);
  EXPECT_EQ(inside.message(),
            "device memory: free of 0x200000008, which points inside the allocation at "
            "0x200000000 (512 bytes), not to its start");
  a.free(p);
  const Error twice = expect_error([&] { a.free(p); });
  EXPECT_EQ(twice.status(), Status::InvalidValue);
  EXPECT_NE(twice.message().find("already freed"), std::string::npos) << twice.message();
}

TEST(RangeAllocatorTest, FindReportsTheRequestedExtent) {
  RangeAllocator a("device memory", kBase, 4096, 256);
  const uint64_t p = a.allocate(100);
  ASSERT_TRUE(a.find(p + 99).has_value());
  EXPECT_EQ(a.find(p + 99)->address, p);
  EXPECT_EQ(a.find(p + 99)->bytes, 100u);
  EXPECT_FALSE(a.find(p + 100).has_value());  // padding up to 256 is not part of it
  EXPECT_FALSE(a.find(kBase - 1).has_value());
}

// Reference: memory as granules, each free or owned; first fit scans from the lowest address.
class GranuleModel {
 public:
  GranuleModel(uint64_t base, uint64_t granules, uint64_t granule)
      : base_(base), granule_(granule), owner_(granules, 0) {}
  std::optional<uint64_t> allocate(uint64_t bytes, uint64_t alignment, int id) {
    const uint64_t need = (bytes + granule_ - 1) / granule_;
    const uint64_t step = std::max<uint64_t>(1, alignment / granule_);
    for (uint64_t start = 0; start + need <= owner_.size(); start += step) {
      bool free = true;
      for (uint64_t g = start; g < start + need && free; ++g) free = owner_[g] == 0;
      if (!free) continue;
      for (uint64_t g = start; g < start + need; ++g) owner_[g] = id;
      return base_ + start * granule_;
    }
    return std::nullopt;
  }
  void free(uint64_t address, int id) {
    for (uint64_t g = (address - base_) / granule_; g < owner_.size() && owner_[g] == id; ++g) {
      owner_[g] = 0;
    }
  }

 private:
  uint64_t base_, granule_;
  std::vector<int> owner_;
};

TEST(RangeAllocatorTest, MatchesAGranuleModelUnderRandomTraffic) {
  constexpr uint64_t kGranule = 256, kGranules = 256;
  RangeAllocator a("device memory", kBase, kGranules * kGranule, kGranule);
  GranuleModel model(kBase, kGranules, kGranule);
  std::mt19937 rng(7);
  std::map<uint64_t, int> live;  // address -> id
  int next_id = 1;
  for (int step = 0; step < 5000; ++step) {
    if (live.empty() || rng() % 3 != 0) {
      const uint64_t bytes = 1 + rng() % (8 * kGranule);
      const uint64_t alignment = (rng() % 4 == 0) ? kGranule << (rng() % 4) : 0;
      const int id = next_id++;
      const auto expected = model.allocate(bytes, alignment, id);
      const auto got = a.try_allocate(bytes, alignment);
      ASSERT_EQ(got, expected) << "step " << step << ": " << bytes << " bytes";
      if (got) live[*got] = id;
    } else {
      auto it = live.begin();
      std::advance(it, rng() % live.size());
      a.free(it->first);
      model.free(it->first, it->second);
      live.erase(it);
    }
  }
}

}  // namespace
}  // namespace gpusoc::rt
