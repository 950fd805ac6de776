#include "models/memsys/memory_totals.h"

#include <functional>
#include <string>

#include "models/l2/l2_slice.h"
#include "models/mempart/memory_partition.h"
#include "models/mempart/rop.h"

namespace gpusoc::memsys {

namespace {

// A count summed, whenever it is read, over the parts `each` walks: `field` of each part's stats.
template <typename Each, typename Field>
std::function<uint64_t()> summed(Each each, Field field) {
  return [each, field] {
    uint64_t n = 0;
    each([&](const auto& stats) { n += field(stats); });
    return n;
  };
}

}  // namespace

uint64_t dram_bytes(const mempart::MemoryPartition& p) {
  uint64_t bytes = 0;
  for (uint32_t c = 0; c < p.channels(); ++c) {
    const mempart::MemoryController& m = p.controller(c);
    bytes +=
        (m.stats().reads.value() + m.stats().writes.value()) * m.channel().timing().burst_bytes();
  }
  return bytes;
}

L2Reads l2_reads(const PacketNetwork& network) {
  L2Reads r;
  for (uint32_t s = 0; s < network.slices(); ++s) {
    const l2::L2Stats& stats = network.slice(s).stats();
    r.hits += stats.read_hits.value();
    r.reads += stats.read_hits.value() + stats.read_misses.value();
  }
  return r;
}

std::vector<std::unique_ptr<Stat>> memory_totals(StatGroup& stats, const PacketNetwork& network,
                                                 bool through_l2, uint32_t channels,
                                                 bool with_dram) {
  std::vector<std::unique_ptr<Stat>> totals;
  const PacketNetwork* net = &network;
  using Controller = const mempart::ControllerStats&;
  const auto controllers = [net](auto visit) {
    for (uint32_t i = 0; i < net->partitions(); ++i) {
      const mempart::MemoryPartition& p = net->partition(i);
      for (uint32_t c = 0; c < p.channels(); ++c) visit(p.controller(c).stats());
    }
  };
  const auto total = [&](const char* name, const char* unit, const char* description,
                         std::function<uint64_t()> sum) {
    totals.push_back(std::make_unique<Total>(stats, name, unit, description, std::move(sum)));
  };
  const auto ratio = [&](const char* name, const char* description, std::function<uint64_t()> part,
                         std::function<uint64_t()> whole) {
    totals.push_back(std::make_unique<Formula>(stats, name, "ratio", description, [part, whole] {
      return double(part()) / double(whole());
    }));
  };
  if (with_dram) {
    total("dram_reads", "bursts", "DRAM read bursts",
          summed(controllers, [](Controller s) { return s.reads.value(); }));
    total("dram_writes", "bursts", "DRAM write bursts",
          summed(controllers, [](Controller s) { return s.writes.value(); }));
    total("dram_bytes", "bytes", "bytes the DRAM bursts carried, read and written", [net] {
      uint64_t bytes = 0;
      for (uint32_t i = 0; i < net->partitions(); ++i) bytes += dram_bytes(net->partition(i));
      return bytes;
    });
    total("dram_activates", "commands", "ACT commands",
          summed(controllers, [](Controller s) { return s.activates.value(); }));
    total("dram_read_write_turnarounds", "turnarounds",
          "direction changes between column commands on the channels' data buses",
          summed(controllers, [](Controller s) { return s.read_write_turnarounds.value(); }));
    total("dram_refreshes", "commands", "REF or REFpb commands",
          summed(controllers, [](Controller s) { return s.refreshes.value(); }));
    ratio("dram_row_hit_rate", "row hits per column command, over every channel",
          summed(controllers, [](Controller s) { return s.row_hits.value(); }),
          summed(controllers, [](Controller s) {
            return s.row_hits.value() + s.row_misses.value() + s.row_conflicts.value();
          }));
    const auto data = summed(controllers, [](Controller s) { return s.data_cycles.value(); });
    totals.push_back(std::make_unique<Formula>(
        stats, "dram_utilization", "ratio",
        "DRAM cycles the data buses carried data, per channel and cycle, up to the memory "
        "system's last activity",
        [net, data, channels] {
          const uint64_t all = uint64_t(net->partitions()) * channels;
          return double(data()) / double(net->dram_cycle(net->last_cycle()) * all);
        }));
  }
  if (!through_l2) return totals;
  using Slice = const l2::L2Stats&;
  const auto slices = [net](auto visit) {
    for (uint32_t i = 0; i < net->slices(); ++i) visit(net->slice(i).stats());
  };
  ratio("l2_read_hit_rate", "L2 read hits per read, over every slice",
        summed(slices, [](Slice s) { return s.read_hits.value(); }),
        summed(slices, [](Slice s) { return s.read_hits.value() + s.read_misses.value(); }));
  total("l2_fills", "packets", "L2 fills from DRAM",
        summed(slices, [](Slice s) { return s.fills.value(); }));
  total("l2_writebacks", "packets", "L2 write-backs to DRAM",
        summed(slices, [](Slice s) { return s.writebacks.value(); }));
  total("l2_mshr_stall_cycles", "cycles",
        "cycles the slices' input heads waited for an MSHR or a merge slot",
        summed(slices, [](Slice s) { return s.mshr_stall_cycles.value(); }));
  using Rop = const mempart::RopStats&;
  const auto rops = [net](auto visit) {
    for (uint32_t i = 0; i < net->slices(); ++i) visit(net->rop(i).stats());
  };
  total("rop_operations", "sectors", "atomic operations the ROPs executed (per sector)",
        summed(rops, [](Rop r) { return r.operations.total(); }));
  total("rop_serialized", "sectors",
        "ROP operations that waited for an earlier one to the same sector",
        summed(rops, [](Rop r) { return r.serialized.total(); }));
  return totals;
}

}  // namespace gpusoc::memsys
