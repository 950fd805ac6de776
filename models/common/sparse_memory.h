// Backing store for large address spaces: pages are allocated (zero-filled) on first touch, so a
// configuration with 80 GB of device memory costs only what a run actually uses. Optionally
// strict: only mapped ranges may be accessed, the way a GPU faults on an address with no mapping.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

namespace gpusoc {

class SparseMemory {
 public:
  static constexpr unsigned kPageBits = 12;
  static constexpr uint64_t kPageSize = uint64_t(1) << kPageBits;

  /// strict: accesses outside mapped ranges fail (page granularity); otherwise every address is
  /// valid.
  explicit SparseMemory(bool strict);
  /// Memory someone else owns, as a DMI grant describes it.
  struct Region {
    uint64_t base = 0;
    uint8_t* host = nullptr;
    uint64_t size = 0;
  };
  /// Asks the owner for the region again (after revoke()); throws when it refuses.
  using Reacquire = std::function<Region()>;
  /// A view onto memory someone else owns (a DMI region): [base, base + size) is accessible and
  /// backed by `host`; everything else faults as in strict mode. `base` must be page-aligned.
  /// `reacquire`, when given, lets the owner revoke the region and grant it again, moved or not.
  SparseMemory(uint64_t base, uint8_t* host, uint64_t size, Reacquire reacquire = {});
  ~SparseMemory();
  SparseMemory(const SparseMemory&) = delete;
  SparseMemory& operator=(const SparseMemory&) = delete;

  /// Makes [addr, addr+size) accessible (whole pages); in strict mode only.
  void map(uint64_t addr, uint64_t size);
  /// Removes a mapping made by map() starting at addr and frees its pages.
  void unmap(uint64_t addr);
  /// A view's owner revoked [start, end] (a TLM DMI invalidation): when that overlaps the view,
  /// its host pointer is forgotten, and the next access asks `reacquire` for the region again.
  void revoke(uint64_t start, uint64_t end);
  bool is_mapped(uint64_t addr, uint64_t size) const;

  /// Host pointer to addr, valid to the end of its page; nullptr when the page is not accessible.
  uint8_t* page_pointer(uint64_t addr) {
    const uint64_t page = addr >> kPageBits;
    TlbEntry& e = tlb_[page & (kTlbSize - 1)];
    if (e.page == page) return e.data + (addr & (kPageSize - 1));
    return page_pointer_slow(addr);
  }

  /// Whole-range copies; false (and nothing copied) when any page is not accessible.
  bool read(uint64_t addr, void* dst, uint64_t size);
  bool write(uint64_t addr, const void* src, uint64_t size);
  bool fill(uint64_t addr, uint8_t value, uint64_t size);

  /// Pages holding data (touched at least once).
  size_t resident_pages() const { return pages_.size(); }

 private:
  static constexpr size_t kTlbSize = 256;
  struct TlbEntry {
    uint64_t page = ~uint64_t(0);
    uint8_t* data = nullptr;
  };
  uint8_t* page_pointer_slow(uint64_t addr);
  void set_view(const Region& region);
  void reacquire_if_revoked() {
    if (revoked_) reacquire_view();
  }
  void reacquire_view();
  bool page_mapped(uint64_t page) const;
  void flush_tlb();
  template <typename Fn>
  bool for_each_chunk(uint64_t addr, uint64_t size, Fn&& fn);

  bool strict_;
  struct View {
    uint64_t first_page = 0, pages = 0;
    uint8_t* host = nullptr;
  } view_;
  Reacquire reacquire_;
  bool revoked_ = false;
  std::map<uint64_t, uint64_t> mappings_;  // first page -> page count
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  std::array<TlbEntry, kTlbSize> tlb_{};
};

}  // namespace gpusoc
