#include "models/sm/sectored_cache.h"

#include <algorithm>

#include "models/common/error.h"

namespace gpusoc::sm {
namespace {

bool power_of_two(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

}  // namespace

std::string SectoredCacheConfig::problem(const std::string& prefix) const {
  const std::string key = prefix + ".";
  const auto is = [](uint64_t v) { return " (it is " + std::to_string(v) + ")"; };
  // Line and sector sizes matter even without a cache: misses still travel as sectors of lines.
  if (!power_of_two(line_bytes)) return key + "line_bytes must be a power of two" + is(line_bytes);
  if (!power_of_two(sector_bytes) || sector_bytes > line_bytes) {
    return key + "sector_bytes must be a power of two no larger than " + key + "line_bytes" +
           is(sector_bytes);
  }
  if (line_bytes / sector_bytes > 32) {
    return key + "sector_bytes must leave at most 32 sectors a line" +
           is(line_bytes / sector_bytes) + " sectors";
  }
  if (!enabled()) return {};
  if (ways == 0) return key + "ways must be at least 1";
  const uint64_t set_bytes = uint64_t(line_bytes) * ways;
  if (set_bytes > size_bytes) {
    return key + "ways (" + std::to_string(ways) + ") is more than the lines " + key +
           "size_bytes holds" + is(size_bytes / line_bytes);
  }
  if (size_bytes % set_bytes != 0) {
    return key + "size_bytes (" + std::to_string(size_bytes) + ") must be a multiple of " + key +
           "line_bytes x " + key + "ways (" + std::to_string(set_bytes) + ")";
  }
  if (hit_latency == 0) return key + "hit_latency must be at least 1 cycle";
  if (mshrs == 0) return key + "mshrs must be at least 1";
  if (max_merges == 0) return key + "max_merges must be at least 1 (the first request)";
  if (!find_set_index(set_index)) {
    std::string names;
    for (const std::string& n : set_index_names()) names += (names.empty() ? "" : ", ") + n;
    return prefix + ".set_index: '" + set_index + "' is not a set-index policy (" + names + ")";
  }
  return {};
}

SectoredCache::SectoredCache(const SectoredCacheConfig& config) : config_(config) {
  if (const std::string why = config.problem(config.name); !why.empty()) throw ConfigError(why);
  if (!config.enabled()) return;
  line_shift_ = unsigned(__builtin_ctz(config.line_bytes));
  if (config.set_index != "modulo") set_index_ = find_set_index(config.set_index);
  sets_ = config.size_bytes / (config.line_bytes * config.ways);
  line_memory_ = HostMemoryClaim(config.name + ".size_bytes", config.size_bytes,
                                 uint64_t(sets_) * config.ways * sizeof(Line));
  lines_.resize(size_t(sets_) * config.ways);
  mshrs_.resize(config.mshrs);
  for (Mshr& m : mshrs_) m.waiters.reserve(config.max_merges);
}

SectoredCache::Line* SectoredCache::set_of(uint64_t line_address) {
  // Modulo, not a mask: carve-outs such as 96 KB of 4-way 128-byte lines give 192 sets.
  const uint64_t line = line_address >> line_shift_;
  const uint32_t set = set_index_ ? set_index_(line, sets_) : uint32_t(line % sets_);
  return &lines_[size_t(set) * config_.ways];
}

SectoredCache::Line* SectoredCache::find(uint64_t line_address) {
  Line* way = set_of(line_address);
  for (uint32_t i = 0; i < config_.ways; ++i) {
    if (way[i].tag == line_address) return &way[i];
  }
  return nullptr;
}

SectoredCache::Result SectoredCache::read(uint64_t line_address, uint32_t sector_mask, uint64_t now,
                                          uint64_t tag) {
  if (!config_.enabled()) {
    ++misses_;
    return {Outcome::Miss, kPending, kNoMshr, sector_mask};
  }
  Line* line = find(line_address);
  const uint32_t need = line ? sector_mask & ~line->valid : sector_mask;
  if (need == 0) {
    ++hits_;
    line->last_use = ++use_clock_;
    return {Outcome::Hit, std::max(now, line->landed) + config_.hit_latency, kNoMshr, 0};
  }

  // The line's fetches that bring some needed sector: the oldest one bringing all of them lands
  // first; otherwise the youngest lands last.
  Mshr* covering = nullptr;
  Mshr* youngest = nullptr;
  uint32_t in_flight = 0;
  if (busy_mshrs_ != 0) {
    for (Mshr& m : mshrs_) {
      if (!m.busy || m.line != line_address || (m.sectors & need) == 0) continue;
      in_flight |= m.sectors;
      if ((m.sectors & need) == need && (!covering || m.sent < covering->sent)) covering = &m;
      if (!youngest || m.sent > youngest->sent) youngest = &m;
    }
  }
  const Result stall{Outcome::Stall, kPending, kNoMshr, 0};
  Mshr* target = covering ? covering : (need & ~in_flight) == 0 ? youngest : nullptr;
  if (target) {
    if (target->waiters.size() >= config_.max_merges) {
      ++stalls_;
      return stall;
    }
    ++merges_;
    target->waiters.push_back(tag);
    if (line) line->last_use = ++use_clock_;
    return {Outcome::Merged, kPending, uint32_t(target - mshrs_.data()), 0};
  }
  if (busy_mshrs_ == mshrs_.size()) {
    ++stalls_;
    return stall;
  }

  ++misses_;
  if (line) line->last_use = ++use_clock_;
  const uint32_t index =
      uint32_t(std::find_if(mshrs_.begin(), mshrs_.end(), [](const Mshr& m) { return !m.busy; }) -
               mshrs_.begin());
  Mshr& m = mshrs_[index];
  m.busy = true;
  m.line = line_address;
  m.sectors = need & ~in_flight;
  m.sent = ++mshr_clock_;
  m.waiters.push_back(tag);
  ++busy_mshrs_;
  return {Outcome::Miss, kPending, index, m.sectors};
}

// No sector changes validity: present ones take the data functionally, absent ones stay absent.
bool SectoredCache::write(uint64_t line_address, uint32_t sector_mask, uint64_t now) {
  if (!config_.enabled()) return false;
  Line* line = find(line_address);
  const bool present = line != nullptr;
  if (!present && !config_.write_allocate) return false;
  if (!present) line = allocate(line_address, now);
  if (config_.write_allocate) {
    line->valid |= sector_mask;
    line->landed = std::max(line->landed, now);
  }
  line->last_use = ++use_clock_;
  return present;
}

SectoredCache::Line* SectoredCache::allocate(uint64_t line_address, uint64_t cycle) {
  // Empty and invalidated ways have last_use 0, so they go before any line in use.
  Line* way = set_of(line_address);
  Line* line = std::min_element(way, way + config_.ways, [](const Line& a, const Line& b) {
    return a.last_use < b.last_use;
  });
  *line = Line{line_address, 0, 0, cycle};
  return line;
}

void SectoredCache::invalidate(uint64_t line_address) {
  if (!config_.enabled()) return;
  if (Line* line = find(line_address)) *line = Line{};
}

void SectoredCache::fill(uint32_t mshr, uint64_t cycle, std::vector<uint64_t>& woken) {
  if (mshr >= mshrs_.size() || !mshrs_[mshr].busy) {
    throw ModelError("sectored cache",
                     "fill of MSHR " + std::to_string(mshr) + ", which has no fetch outstanding");
  }
  Mshr& m = mshrs_[mshr];
  Line* line = find(m.line);
  if (line) {
    line->landed = std::max(line->landed, cycle);
  } else {
    line = allocate(m.line, cycle);
  }
  line->valid |= m.sectors;
  line->last_use = ++use_clock_;
  woken.assign(m.waiters.begin(), m.waiters.end());
  m.waiters.clear();
  m.busy = false;
  --busy_mshrs_;
}

uint32_t SectoredCache::free_mshrs() const {
  return uint32_t(mshrs_.size()) - busy_mshrs_;
}

}  // namespace gpusoc::sm
