#include "models/ptx/memcheck.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "models/ptx/program.h"

namespace gpusoc::ptx {

std::string describe(const MemoryRegion& r) {
  std::string what;
  switch (r.kind) {
    case RegionKind::Allocation:
      what = fmt::format("the {}-byte allocation [{:#x}, {:#x})", r.bytes, r.begin, r.end());
      break;
    case RegionKind::Global:
    case RegionKind::Constant:
      what = fmt::format("the {}-byte {} variable {} [{:#x}, {:#x})", r.bytes,
                         r.kind == RegionKind::Global ? ".global" : ".const", r.name, r.begin,
                         r.end());
      break;
  }
  if (!r.live) what += r.kind == RegionKind::Allocation ? ", freed" : ", its module unloaded";
  return what;
}

std::string AllocationMap::add(uint64_t begin, uint64_t bytes, RegionKind kind, std::string name) {
  if (bytes == 0) return fmt::format("a region of 0 bytes at {:#x}", begin);
  if (begin + bytes < begin) return fmt::format("[{:#x}, +{}) wraps around", begin, bytes);
  // Regions never overlap, so only the one before `begin` and those starting inside can.
  auto first = regions_.lower_bound(begin);
  if (first != regions_.begin() && std::prev(first)->second.end() > begin) --first;
  auto last = regions_.lower_bound(begin + bytes);
  for (auto it = first; it != last; ++it) {
    if (it->second.live) {
      return fmt::format("[{:#x}, +{}) overlaps {}", begin, bytes, describe(it->second));
    }
  }
  regions_.erase(first, last);
  regions_[begin] = MemoryRegion{begin, bytes, kind, true, std::move(name)};
  ++generation_;
  return {};
}

bool AllocationMap::release(uint64_t begin, RegionKind kind) {
  auto it = regions_.find(begin);
  if (it == regions_.end() || !it->second.live || it->second.kind != kind) return false;
  it->second.live = false;
  ++generation_;
  return true;
}

void AllocationMap::clear_allocations() {
  for (auto it = regions_.begin(); it != regions_.end();) {
    it = it->second.kind == RegionKind::Allocation ? regions_.erase(it) : std::next(it);
  }
  ++generation_;
}

size_t AllocationMap::live_regions() const {
  return size_t(
      std::count_if(regions_.begin(), regions_.end(), [](const auto& r) { return r.second.live; }));
}

std::map<uint64_t, MemoryRegion>::const_iterator AllocationMap::containing(uint64_t address) const {
  auto it = regions_.upper_bound(address);
  if (it == regions_.begin()) return regions_.end();
  --it;
  return address < it->second.end() ? it : regions_.end();
}

bool AllocationMap::lookup(uint64_t address, unsigned bytes, bool write, RegionCache& cache) const {
  const auto it = containing(address);
  if (it == regions_.end()) return false;
  const MemoryRegion& r = it->second;
  if (!r.live || bytes > r.end() - address) return false;
  if (write && r.kind == RegionKind::Constant) return false;
  if (cache.generation != generation_) cache = RegionCache{};
  cache.generation = generation_;
  cache.entries[cache.next] = {r.begin, r.end(), r.kind != RegionKind::Constant};
  cache.next = (cache.next + 1) % RegionCache::kEntries;
  return true;
}

std::string AllocationMap::where(uint64_t address) const {
  const auto it = containing(address);
  if (it != regions_.end()) {
    return fmt::format("{} bytes into {}", address - it->first, describe(it->second));
  }
  // Outside every region: name the nearest live one on either side.
  const MemoryRegion* before = nullptr;
  const MemoryRegion* after = nullptr;
  const auto next = regions_.upper_bound(address);
  for (auto i = next; i != regions_.end() && !after; ++i)
    if (i->second.live) after = &i->second;
  for (auto i = std::make_reverse_iterator(next); i != regions_.rend() && !before; ++i)
    if (i->second.live) before = &i->second;
  if (!before && !after) return "and there are no live allocations";
  const uint64_t past_before = before ? address - before->end() : UINT64_MAX;
  const uint64_t short_of_after = after ? after->begin - address : UINT64_MAX;
  if (past_before <= short_of_after)
    return fmt::format("{} bytes after the end of {}", past_before, describe(*before));
  return fmt::format("{} bytes before the start of {}", short_of_after, describe(*after));
}

std::string AllocationMap::problem(uint64_t address, unsigned bytes, bool write) const {
  const std::string access =
      fmt::format("{} of {} bytes at {:#x}", write ? "write" : "read", bytes, address);
  const auto it = containing(address);
  if (it == regions_.end()) return fmt::format("out-of-bounds {}, {}", access, where(address));
  const MemoryRegion& r = it->second;
  if (!r.live) return fmt::format("use after free: {}, {}", access, where(address));
  if (write && r.kind == RegionKind::Constant) {
    return fmt::format("write to constant memory: {} bytes at {:#x}, {}", bytes, address,
                       where(address));
  }
  if (bytes > r.end() - address) {
    return fmt::format("out-of-bounds {}: it runs {} bytes past the end of {}", access,
                       bytes - (r.end() - address), describe(r));
  }
  return {};
}

void add_module_variables(AllocationMap& map, const Program& program) {
  for (const GlobalVariable& g : program.globals) {
    map.add(g.address, std::max<uint64_t>(g.size, 1),
            g.constant ? RegionKind::Constant : RegionKind::Global,
            fmt::format("'{}' of module '{}'", g.name, program.file));
  }
}

void release_module_variables(AllocationMap& map, const Program& program) {
  for (const GlobalVariable& g : program.globals)
    map.release(g.address, g.constant ? RegionKind::Constant : RegionKind::Global);
}

}  // namespace gpusoc::ptx
