// Device memory in memcheck mode: red zones keep allocations apart, freed allocations wait in a
// quarantine (first in, first out) before reuse, and nothing quarantined counts as live. Layouts
// are worked out by hand from the 256-byte granule.
#include <gtest/gtest.h>

#include "sw/runtime/device_heap.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

constexpr uint64_t kBase = 0x2'0000'0000;

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(DeviceHeapTest, WithoutCheckingItIsTheAllocatorAlone) {
  DeviceHeap heap(kBase, 1 << 20, 256);
  const uint64_t a = heap.allocate(1000), b = heap.allocate(1000);
  EXPECT_EQ(a, kBase);
  EXPECT_EQ(b, kBase + 1024);
  heap.free(a);
  EXPECT_EQ(heap.allocate(1000), a);  // reused at once
  EXPECT_EQ(heap.quarantined_bytes(), 0u);
}

TEST(DeviceHeapTest, RedZonesFollowEveryAllocation) {
  DeviceHeap heap(kBase, 1 << 20, 256, {512, 0});
  const uint64_t a = heap.allocate(1000), b = heap.allocate(100);
  EXPECT_EQ(b, a + 1024 + 512);  // 1000 + 512 rounded up to the granule
  EXPECT_EQ(heap.find(a + 999)->address, a);
  EXPECT_FALSE(heap.find(a + 1000));  // the red zone is nobody's
  EXPECT_FALSE(heap.find(a + 1500));
}

TEST(DeviceHeapTest, FreedAllocationsWaitInQuarantineOldestFirst) {
  DeviceHeap heap(kBase, 1 << 20, 256, {0, 2048});
  const uint64_t a = heap.allocate(1024), b = heap.allocate(1024), c = heap.allocate(1024);
  heap.free(a);
  heap.free(b);
  EXPECT_EQ(heap.quarantined_bytes(), 2048u);
  EXPECT_FALSE(heap.find(a));
  EXPECT_NE(error_of([&] { heap.free(a); }).find("which was already freed"), std::string::npos);
  EXPECT_EQ(heap.allocate(1024), c + 1024);  // a and b are held back
  heap.free(c);                              // 3072 > 2048: a leaves
  EXPECT_EQ(heap.quarantined_bytes(), 2048u);
  EXPECT_EQ(heap.allocate(1024), a);
}

TEST(DeviceHeapTest, TheQuarantineIsGivenBackBeforeAnAllocationFails) {
  DeviceHeap heap(kBase, 4096, 256, {0, 1 << 20});  // a quarantine larger than the memory
  const uint64_t a = heap.allocate(2048), b = heap.allocate(2048);
  heap.free(a);
  heap.free(b);
  EXPECT_EQ(heap.free_bytes(), 0u);  // quarantined memory is not free yet
  EXPECT_EQ(heap.allocate(4096), kBase);
  EXPECT_EQ(heap.quarantined_bytes(), 0u);
  EXPECT_NE(error_of([&] { heap.allocate(256); }).find("OutOfMemory"), std::string::npos);
}

TEST(DeviceHeapTest, FreesOfAnythingButALiveAllocationsStartAreRefused) {
  DeviceHeap heap(kBase, 1 << 20, 256, {256, 4096});
  const uint64_t a = heap.allocate(1024);
  EXPECT_NE(error_of([&] { heap.free(a + 4); }).find("points inside the allocation"),
            std::string::npos);
  EXPECT_NE(error_of([&] { heap.free(a + 1024); }).find("is not an allocation"),
            std::string::npos);
  heap.free(a);
  EXPECT_NE(error_of([&] { heap.free(a); }).find("already freed"), std::string::npos);
}

}  // namespace
}  // namespace gpusoc::rt
