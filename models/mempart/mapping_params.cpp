#include "models/mempart/mapping_params.h"

#include <string>

#include "models/common/error.h"
#include "models/common/param.h"

namespace gpusoc::mempart {
namespace {

const Param<uint32_t> kInterleave{"memory.mapping.interleave_bytes", 256, "bytes",
                                  "consecutive bytes that stay in one memory partition before "
                                  "the next partition's turn",
                                  Range{32, 1u << 20}.power_of_two()};
const Param<std::string> kLayout{"memory.mapping.layout", "bank_group,channel,column,bank,row", "",
                                 "address fields above the burst offset, lowest first: column, "
                                 "bank_group, bank, channel and row, each once or split, "
                                 "\"column:1\" placing one bit and the entry without a width "
                                 "the rest (bank group and channel lowest: a sequential stream "
                                 "alternates bank groups and keeps every channel busy)"};
const Param<bool> kXorHash{"memory.mapping.xor_hash", true, "",
                           "hash bank, bank group, channel and partition with a fold of the row "
                           "bits so that strided streams spread over partitions and banks"};

}  // namespace

AddressMappingConfig mapping_from_config(const Config& config, const DramTiming& dram,
                                         uint32_t partitions, uint32_t channels_per_partition,
                                         uint64_t base) {
  AddressMappingConfig m;
  m.base = base;
  m.interleave_bytes = kInterleave.get(config);
  m.partitions = partitions;
  m.channels = channels_per_partition;
  m.bank_groups = dram.bank_groups;
  m.banks_per_group = dram.banks_per_group;
  m.rows = dram.rows;
  m.columns = dram.columns / dram.burst_length;  // DramTiming counts beats, the mapping bursts
  m.burst_bytes = dram.burst_bytes();
  m.layout = split_layout(kLayout.get(config));
  m.xor_hash = kXorHash.get(config);
  const std::string bad = m.problem("memory.mapping");
  if (!bad.empty()) throw ConfigError(bad);
  return m;
}

}  // namespace gpusoc::mempart
