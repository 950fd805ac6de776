#include "models/common/sparse_memory.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpusoc {

SparseMemory::SparseMemory(bool strict) : strict_(strict) {}

SparseMemory::SparseMemory(uint64_t base, uint8_t* host, uint64_t size, Reacquire reacquire)
    : strict_(true), reacquire_(std::move(reacquire)) {
  set_view(Region{base, host, size});
}

void SparseMemory::set_view(const Region& region) {
  if (region.base & (kPageSize - 1)) {
    throw std::logic_error("SparseMemory view: base not page-aligned");
  }
  if (!region.host) throw std::logic_error("SparseMemory view: no host memory");
  view_ = View{region.base >> kPageBits, region.size >> kPageBits, region.host};
}

void SparseMemory::revoke(uint64_t start, uint64_t end) {
  if (!view_.host) throw std::logic_error("SparseMemory::revoke: not a view");
  const uint64_t first = view_.first_page << kPageBits;
  const uint64_t last = first + (view_.pages << kPageBits) - 1;
  if (end < first || start > last) return;
  if (!reacquire_) throw std::logic_error("SparseMemory::revoke: the view cannot be reacquired");
  revoked_ = true;
  flush_tlb();
}

void SparseMemory::reacquire_view() {
  // The owner may revoke again while granting (a grant that replaces an older one): ask again.
  while (revoked_) {
    revoked_ = false;
    set_view(reacquire_());
  }
}
SparseMemory::~SparseMemory() = default;

void SparseMemory::map(uint64_t addr, uint64_t size) {
  if (view_.host) throw std::logic_error("SparseMemory::map: a view has a fixed range");
  if (size == 0) return;
  const uint64_t first = addr >> kPageBits;
  const uint64_t last = (addr + size - 1) >> kPageBits;
  for (uint64_t p = first; p <= last; ++p) {
    if (page_mapped(p)) throw std::logic_error("SparseMemory::map: range overlaps a mapping");
  }
  mappings_[first] = last - first + 1;
}

void SparseMemory::unmap(uint64_t addr) {
  auto it = mappings_.find(addr >> kPageBits);
  if (it == mappings_.end()) throw std::logic_error("SparseMemory::unmap: no mapping starts here");
  for (uint64_t p = it->first; p < it->first + it->second; ++p) pages_.erase(p);
  mappings_.erase(it);
  flush_tlb();
}

bool SparseMemory::page_mapped(uint64_t page) const {
  if (view_.host) return page - view_.first_page < view_.pages;
  if (!strict_) return true;
  auto it = mappings_.upper_bound(page);
  if (it == mappings_.begin()) return false;
  --it;
  return page < it->first + it->second;
}

bool SparseMemory::is_mapped(uint64_t addr, uint64_t size) const {
  if (size == 0) return true;
  const uint64_t last = (addr + size - 1) >> kPageBits;
  for (uint64_t p = addr >> kPageBits; p <= last; ++p) {
    if (!page_mapped(p)) return false;
  }
  return true;
}

uint8_t* SparseMemory::page_pointer_slow(uint64_t addr) {
  reacquire_if_revoked();
  const uint64_t page = addr >> kPageBits;
  if (!page_mapped(page)) return nullptr;
  uint8_t* data = nullptr;
  if (view_.host) {
    data = view_.host + ((page - view_.first_page) << kPageBits);
  } else {
    auto& slot = pages_[page];
    if (!slot) {
      slot.reset(new uint8_t[kPageSize]);
      std::memset(slot.get(), 0, kPageSize);
    }
    data = slot.get();
  }
  TlbEntry& e = tlb_[page & (kTlbSize - 1)];
  e.page = page;
  e.data = data;
  return e.data + (addr & (kPageSize - 1));
}

void SparseMemory::flush_tlb() {
  tlb_.fill(TlbEntry{});
}

template <typename Fn>
bool SparseMemory::for_each_chunk(uint64_t addr, uint64_t size, Fn&& fn) {
  reacquire_if_revoked();
  if (!is_mapped(addr, size)) return false;
  uint64_t done = 0;
  while (done < size) {
    const uint64_t a = addr + done;
    const uint64_t chunk = std::min(size - done, kPageSize - (a & (kPageSize - 1)));
    fn(page_pointer(a), done, chunk);
    done += chunk;
  }
  return true;
}

bool SparseMemory::read(uint64_t addr, void* dst, uint64_t size) {
  auto* out = static_cast<uint8_t*>(dst);
  return for_each_chunk(
      addr, size, [&](uint8_t* p, uint64_t off, uint64_t n) { std::memcpy(out + off, p, n); });
}

bool SparseMemory::write(uint64_t addr, const void* src, uint64_t size) {
  auto* in = static_cast<const uint8_t*>(src);
  return for_each_chunk(addr, size,
                        [&](uint8_t* p, uint64_t off, uint64_t n) { std::memcpy(p, in + off, n); });
}

bool SparseMemory::fill(uint64_t addr, uint8_t value, uint64_t size) {
  return for_each_chunk(addr, size,
                        [&](uint8_t* p, uint64_t, uint64_t n) { std::memset(p, value, n); });
}

}  // namespace gpusoc
