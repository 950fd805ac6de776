// The parameters of a sectored cache under a prefix (size, ways, line, sector, hit latency, MSHRs,
// merges), declared once per cache: the SM's L1 and constant cache, the texture cache.
#pragma once

#include <string>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/common/param.h"
#include "models/sm/sectored_cache.h"

namespace gpusoc::sm {

struct CacheParams {
  CacheParams(const std::string& prefix, const std::string& what, uint32_t size, uint32_t ways,
              uint32_t line, uint32_t sector, uint32_t latency, uint32_t mshrs)
      : size(prefix + ".size_bytes", size, "bytes", what + " capacity; 0: no cache",
             Range{0, 1u << 30}),
        ways(prefix + ".ways", ways, "ways", what + " associativity", Range{1, 64}),
        line(prefix + ".line_bytes", line, "bytes", what + " line size",
             Range{32, 1024}.power_of_two()),
        sector(prefix + ".sector_bytes", sector, "bytes", what + " sector size (fill granule)",
               Range{4, 1024}.power_of_two()),
        latency(prefix + ".hit_latency", latency, "cycles", what + " hit latency", Range{1, 1024}),
        mshrs(prefix + ".mshrs", mshrs, "entries", what + " miss status holding registers",
              Range{1, 4096}),
        merges(prefix + ".max_merges", 8, "requests",
               "requests one " + what + " MSHR serves (the first included)", Range{1, 1024}),
        set_index(prefix + ".set_index", std::string("modulo"), "",
                  what +
                      " set-index policy (models/sm/set_index.h): modulo (the line number "
                      "modulo the sets) or xor (its higher bits folded in first)") {}
  SectoredCacheConfig get(const Config& c, const std::string& prefix) const {
    SectoredCacheConfig r;
    r.name = prefix;
    r.size_bytes = size.get(c);
    r.ways = ways.get(c);
    r.line_bytes = line.get(c);
    r.sector_bytes = sector.get(c);
    r.hit_latency = latency.get(c);
    r.mshrs = mshrs.get(c);
    r.max_merges = merges.get(c);
    r.set_index = set_index.get(c);
    const std::string bad = r.problem(prefix);
    if (!bad.empty()) throw ConfigError(bad);
    return r;
  }
  Param<uint32_t> size, ways, line, sector, latency, mshrs, merges;
  Param<std::string> set_index;
};

}  // namespace gpusoc::sm
