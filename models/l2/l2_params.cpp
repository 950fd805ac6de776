#include "models/l2/l2_params.h"

#include <string>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/l2/l2_slice.h"

namespace gpusoc::l2 {
namespace {

using U32 = uint32_t;
const L2Config kL2;  // the defaults
const mempart::RopConfig kRop;

const Param<uint64_t> kSize{"l2.size_bytes", kL2.size_bytes, "bytes",
                            "capacity of one L2 slice; 0: no L2 (packets pass through to memory)",
                            Range{0, uint64_t(1) << 30}};
const Param<U32> kWays{"l2.ways", kL2.ways, "ways", "L2 associativity", Range{1, 64}};
const Param<U32> kLine{"l2.line_bytes", kL2.line_bytes, "bytes",
                       "L2 line size (32-byte sectors; a packet lies within one line)",
                       Range{32, 1024}.power_of_two()};
const Param<U32> kHitLatency{"l2.hit_latency", kL2.hit_latency, "cycles",
                             "L2 cycles from a lookup to its reply", Range{1, 4096}};
const Param<U32> kBytesPerCycle{"l2.bytes_per_cycle", kL2.bytes_per_cycle, "bytes",
                                "data an L2 slice's port moves per cycle (a packet occupies the "
                                "lookup for ceil(data bytes / this) cycles)",
                                Range{1, 4096}};
const Param<U32> kMshrs{"l2.mshrs", kL2.mshrs, "entries",
                        "miss status holding registers per L2 slice (lines being fetched)",
                        Range{1, 1u << 20}};
const Param<U32> kMerges{"l2.mshr_merges", kL2.mshr_merges, "packets",
                         "packets one L2 MSHR serves, the first included", Range{1, 1024}};
const Param<U32> kInputQueue{"l2.input_queue", kL2.input_queue, "packets",
                             "packets waiting for an L2 slice's lookup", Range{1, 4096}};
const Param<U32> kMemoryQueue{"l2.memory_queue", kL2.memory_queue, "packets",
                              "fills and write-backs waiting for the memory partition "
                              "(at least 2 with a cache: a miss may send both)",
                              Range{1, 4096}};
const Param<U32> kReplyQueue{"l2.reply_queue", kL2.reply_queue, "packets",
                             "replies waiting for the reply network, beyond those still in the "
                             "hit pipeline (hit_latency of them)",
                             Range{1, 4096}};
const Param<std::string> kReplacement{"l2.replacement", kL2.replacement.name, "",
                                      "L2 replacement policy: " + replacement_policies().describe(),
                                      replacement_policies().choices()};

const Param<U32> kRopOps{"rop.ops_per_cycle", kRop.ops_per_cycle, "operations",
                         "atomic operations a ROP starts per L2 cycle", Range{1, 64}};
const Param<U32> kRopLatency{"rop.latency", kRop.latency, "cycles",
                             "L2 cycles from an atomic's start at the ROP to its result",
                             Range{1, 4096}};

}  // namespace

L2Config l2_config_from(const Config& config) {
  L2Config c;
  c.size_bytes = kSize.get(config);
  c.ways = kWays.get(config);
  c.line_bytes = kLine.get(config);
  c.hit_latency = kHitLatency.get(config);
  c.bytes_per_cycle = kBytesPerCycle.get(config);
  c.mshrs = kMshrs.get(config);
  c.mshr_merges = kMerges.get(config);
  c.input_queue = kInputQueue.get(config);
  c.memory_queue = kMemoryQueue.get(config);
  c.reply_queue = kReplyQueue.get(config);
  c.replacement = replacement_policies().choose(config);
  if (std::string bad = c.problem("l2"); !bad.empty()) throw ConfigError(bad);
  return c;
}

mempart::RopConfig rop_config_from(const Config& config) {
  mempart::RopConfig c;
  c.ops_per_cycle = kRopOps.get(config);
  c.latency = kRopLatency.get(config);
  if (std::string bad = c.problem("rop"); !bad.empty()) throw ConfigError(bad);
  return c;
}

}  // namespace gpusoc::l2
