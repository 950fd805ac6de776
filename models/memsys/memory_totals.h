// The memory system's totals over its parts (dram_*, l2_*, rop_*), as a run's summary shows
// them: read when the statistics are dumped, so the parts may be built after them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/memsys/packet_network.h"

namespace gpusoc::memsys {

/// Bytes the DRAM bursts of partition `p` have carried so far, read and written.
uint64_t dram_bytes(const mempart::MemoryPartition& p);

/// The L2 slices' reads so far, and those whose sectors were all present.
struct L2Reads {
  uint64_t hits = 0, reads = 0;
};
L2Reads l2_reads(const PacketNetwork& network);

/// The totals, in `stats`, over `network`'s parts (`through_l2`: with its slices and ROPs;
/// `channels` per partition; `with_dram`: its partitions are ours, not a memory model of the
/// user's). The network outlives them.
std::vector<std::unique_ptr<Stat>> memory_totals(StatGroup& stats, const PacketNetwork& network,
                                                 bool through_l2, uint32_t channels,
                                                 bool with_dram = true);

}  // namespace gpusoc::memsys
