#include "models/common/sparse_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <vector>

namespace gpusoc {
namespace {

TEST(SparseMemory, LaxMemoryAllocatesZeroedPagesOnFirstTouch) {
  SparseMemory mem(/*strict=*/false);
  EXPECT_EQ(mem.resident_pages(), 0u);
  uint32_t v = 0xdeadbeef;
  ASSERT_TRUE(mem.read(0x1234'5000, &v, 4));
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(mem.resident_pages(), 1u);
}

TEST(SparseMemory, StrictMemoryFaultsOutsideMappings) {
  SparseMemory mem(/*strict=*/true);
  mem.map(0x10000, 100);  // one page
  const uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_TRUE(mem.write(0x10000 + 4088, bytes, 8));
  EXPECT_FALSE(mem.write(0x10000 + 4089, bytes, 8));  // crosses into an unmapped page
  EXPECT_EQ(mem.page_pointer(0x11000), nullptr);
  mem.unmap(0x10000);
  EXPECT_EQ(mem.page_pointer(0x10000), nullptr);
}

TEST(SparseMemory, ViewAccessesTheOwnersBytesAndNothingElse) {
  std::vector<uint8_t> owner(4 * SparseMemory::kPageSize, 0);
  const uint64_t base = 0x2'0000'0000;
  SparseMemory view(base, owner.data(), owner.size());
  const uint32_t v = 0x01020304;
  ASSERT_TRUE(view.write(base + SparseMemory::kPageSize - 2, &v, 4));  // spans two pages
  uint32_t check = 0;
  std::memcpy(&check, owner.data() + SparseMemory::kPageSize - 2, 4);
  EXPECT_EQ(check, v);
  owner[3 * SparseMemory::kPageSize + 7] = 42;
  EXPECT_EQ(*view.page_pointer(base + 3 * SparseMemory::kPageSize + 7), 42);
  EXPECT_EQ(view.page_pointer(base + owner.size()), nullptr);
  EXPECT_EQ(view.page_pointer(base - 1), nullptr);
  EXPECT_FALSE(view.read(base + owner.size() - 2, &check, 4));
  EXPECT_THROW(view.map(base, 16), std::logic_error);
  EXPECT_THROW(SparseMemory(base + 8, owner.data(), owner.size()), std::logic_error);
}

// A TLM target may revoke DMI and grant it again elsewhere (invalidate_direct_mem_ptr): the view
// forgets its pointer, asks again at the next access, and from then on uses the new region.
TEST(SparseMemory, ARevokedViewAsksForItsRegionAgainAtTheNextAccess) {
  const uint64_t base = 0x2'0000'0000, page = SparseMemory::kPageSize;
  std::vector<uint8_t> first(4 * page, 1), moved(4 * page, 2);
  int asked = 0;
  SparseMemory view(base, first.data(), first.size(), [&] {
    ++asked;
    return SparseMemory::Region{base, moved.data(), moved.size()};
  });
  EXPECT_EQ(*view.page_pointer(base + 5), 1);  // cached in the view's TLB
  view.revoke(base + 4 * page, base + 8 * page);  // past the view: nothing to do
  EXPECT_EQ(*view.page_pointer(base + 5), 1);
  EXPECT_EQ(asked, 0);
  view.revoke(base + page, base + page);  // overlaps: forgotten, not yet asked for
  EXPECT_EQ(asked, 0);
  EXPECT_EQ(*view.page_pointer(base + 5), 2);  // the TLB entry went with the old pointer
  EXPECT_EQ(asked, 1);
  const uint32_t v = 0x0a0b0c0d;
  view.revoke(0, ~uint64_t(0));
  ASSERT_TRUE(view.write(base + page - 2, &v, 4));  // whole-range copies ask too
  EXPECT_EQ(asked, 2);
  uint32_t check = 0;
  std::memcpy(&check, moved.data() + page - 2, 4);
  EXPECT_EQ(check, v);
  EXPECT_EQ(first[page - 2], 1);
}

TEST(SparseMemory, RevokingAViewThatCannotBeReacquiredOrARefusalIsAnError) {
  const uint64_t base = 0x2'0000'0000;
  std::vector<uint8_t> owner(SparseMemory::kPageSize);
  SparseMemory fixed(base, owner.data(), owner.size());
  EXPECT_THROW(fixed.revoke(base, base), std::logic_error);
  SparseMemory lax(/*strict=*/false);
  EXPECT_THROW(lax.revoke(0, 1), std::logic_error);
  SparseMemory refused(base, owner.data(), owner.size(),
                       []() -> SparseMemory::Region { throw std::runtime_error("refused"); });
  refused.revoke(base, base);
  EXPECT_THROW(refused.page_pointer(base), std::runtime_error);
}

}  // namespace
}  // namespace gpusoc
