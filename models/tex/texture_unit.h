// The texture unit of a TPC (docs/texture.md): the SMs bound to `sm_target` send it one request
// per texture or surface warp instruction (GpuRequest kind Texture: the texture cache lines the
// instruction's texels lie in, the texels to filter, the quads of threads), and it answers when
// the results would reach the SM:
//
//   address generation  `quads_per_cycle` quads of threads a cycle, requests in arrival order;
//   texture cache       read-only, sectored, LRU, `tex.cache.*`: hits after the hit latency,
//                       misses to memory on `mem_initiator` (crossbar, L2, DRAM like any read),
//                       merged into MSHRs; non-blocking: later requests look up while earlier
//                       ones wait for their misses, up to `queue_depth` requests in the unit;
//   filter pipeline     `texels_per_cycle` texels a cycle once a request's texels are all there,
//                       then `filter_latency` cycles; results return in request order.
//
// Two ways in, as the SMs' fidelity asks: b_transport (loosely timed SMs: the time is computed at
// once, misses fetched with b_transport) and nb_transport with the base protocol's AT phases
// (cycle-level SMs: END_REQ is the backpressure, BEGIN_RESP the answer). Surface stores and
// reductions write through: their lines are dropped from the cache, and the writes go to memory.
// The data itself moved functionally in the PTX core; every transaction here is timing only.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/bandwidth_booking.h"
#include "models/common/config.h"
#include "models/common/picoseconds.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/sm/memory_request_port.h"
#include "models/sm/sectored_cache.h"
#include "models/tex/texture_objects.h"

namespace gpusoc::tex {

struct TextureUnitConfig {
  sm::SectoredCacheConfig cache;
  uint32_t quads_per_cycle = 1;   // address generation
  uint32_t texels_per_cycle = 4;  // filtering
  uint32_t filter_latency = 16;   // cycles from the last texel filtered to the result
  uint32_t queue_depth = 32;      // requests in the unit, accepted and not yet answered
  double clock_mhz = 1000;        // the SMs' core clock
  /// tex.* parameters; clock_mhz is the caller's.
  static TextureUnitConfig from_config(const Config& config);
};

/// Texture units per TPC (tex.units_per_tpc): 1 shares one between the TPC's SMs (Tesla), as many
/// as the TPC has SMs gives each SM its own (Volta).
uint32_t texture_units_per_tpc(const Config& config);
/// The largest objects the driver may make (tex.limits.*), which BAR0 reports to it.
Limits texture_limits(const Config& config);

class TextureUnit : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<TextureUnit> sm_target;  // one binding per SM
  tlm_utils::simple_initiator_socket_optional<sm::MemoryRequestPort>& mem_initiator;

  TextureUnit(sc_core::sc_module_name name, const TextureUnitConfig& config, StatGroup& parent);
  ~TextureUnit() override;
  /// Texture-cache lookups and hits so far (for the per-launch records).
  uint64_t cache_lookups() const { return stats_.lookups.value(); }
  uint64_t cache_hits() const { return stats_.hits.value(); }

 private:
  struct Request {
    tlm::tlm_generic_payload* tx = nullptr;
    int port = 0;
    uint64_t id = 0;
    uint64_t arrival = 0;                              // cycle
    std::vector<std::pair<uint64_t, uint32_t>> lines;  // cache lines and sector masks it reads
    size_t next_line = 0;                              // lines looked up so far
    uint32_t pending = 0;                              // misses and merges not yet filled
    uint64_t data_ready = 0;  // cycle the looked-up texels are all there (so far)
    bool looked_up = false;
  };
  struct Stats : StatGroup {
    explicit Stats(StatGroup& parent, const std::string& name) : StatGroup(parent, name) {}
    Counter requests{*this, "requests", "requests", "texture and surface warp instructions served"};
    Counter texels{*this, "texels", "texels", "texels fetched for filtering (repeats included)"};
    Counter filter_cycles{*this, "filter_cycles", "cycles", "cycles the filter pipeline was busy"};
    Counter lookups{*this, "cache_lookups", "lines",
                    "texture cache lookups (one per line a request reads)"};
    Counter hits{*this, "cache_hits", "lines", "lookups whose sectors were all present"};
    Counter misses{*this, "cache_misses", "lines", "lookups that fetched sectors from memory"};
    Counter merges{*this, "cache_merges", "lines", "lookups served by a fetch already in flight"};
    Counter stalls{*this, "cache_stalls", "lookups", "lookups retried because no MSHR was free"};
    Counter writes{*this, "surface_writes", "lines", "lines surface stores and reductions wrote"};
    Counter queue_cycles{*this, "queue_cycles", "cycles",
                         "cycles requests waited from arrival to address generation"};
    Counter latency_cycles{*this, "latency_cycles", "cycles",
                           "cycles from arrival to answer, summed over requests"};
    Formula hit_rate{
        *this, "cache_hit_rate", "ratio", "hits per lookup",
        [this] { return lookups.value() ? double(hits.value()) / double(lookups.value()) : 0.0; }};
    Formula mean_latency{
        *this, "mean_latency", "cycles", "cycles from arrival to answer per request", [this] {
          return requests.value() ? double(latency_cycles.value()) / double(requests.value()) : 0.0;
        }};
  };

  // Loosely timed.
  void b_transport(int port, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  /// A timing-only read or write of `m`'s span to memory, its delay annotated.
  void lt_transport(const sm::MemoryRequest& m, AccessKind kind, sc_core::sc_time& delay);
  // Approximately timed.
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void accept(int port, tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival);
  void run();
  bool collect_fills();
  bool look_up_next();
  bool answer_ready();
  /// Cycles the address units and the filter take for `tx`, booked from `start`; returns the
  /// cycle its result is ready.
  uint64_t address_generation(const GpuRequest& r, uint64_t start);
  uint64_t filter(const GpuRequest& r, uint64_t data_ready);
  /// Writes drop the lines they touch (the unit's cache is read-only) and go to memory.
  /// The cache lines (and sectors) of a request's sectors, in address order.
  void group_lines(const GpuRequest& r, std::vector<std::pair<uint64_t, uint32_t>>& out) const;
  void write_through(const std::vector<std::pair<uint64_t, uint32_t>>& lines);
  /// Surface writes to memory (AT): posted, sent in order with the misses.
  void queue_writes(const std::vector<std::pair<uint64_t, uint32_t>>& lines, uint64_t cycle);
  static constexpr uint32_t kWriteTag = ~0u;
  static const GpuRequest& request_of(const tlm::tlm_generic_payload& tx);
  uint64_t cycle_of(const sc_core::sc_time& t) const;
  sc_core::sc_time time_of(uint64_t cycle) const;
  uint64_t now_cycle() const { return cycle_of(sc_core::sc_time_stamp()); }

  const TextureUnitConfig config_;
  const uint64_t cycle_ps_;
  const Picoseconds ps_;  // SystemC time <-> picoseconds at the platform's time resolution
  sm::MemoryRequestPort port_;
  sm::SectoredCache cache_;
  Stats stats_;
  std::deque<Request> requests_;  // accepted, in arrival order
  uint64_t next_id_ = 0;
  uint64_t agen_free_ = 0;    // first cycle the address units are free
  uint64_t filter_free_ = 0;  // first cycle the filter is free
  uint64_t last_answer_ = 0;  // results return in order
  std::vector<std::pair<int, tlm::tlm_generic_payload*>> refused_;  // waiting for END_REQ
  struct Fetch {  // a miss (or a surface write) the port could not send yet
    uint64_t line;
    uint32_t sectors;
    uint32_t mshr;  // kWriteTag for writes
    uint64_t cycle;
  };
  std::deque<Fetch> unsent_;
  std::vector<sm::MemoryCompletion> completions_;
  std::vector<uint64_t> woken_;
  sc_core::sc_event work_;
  // Loosely timed SMs run ahead of SystemC time and of each other: their requests book the
  // address units and the filter per time window rather than in one order (bandwidth_booking.h).
  BandwidthBooking lt_agen_, lt_filter_;
  tlm::tlm_generic_payload lt_tx_;  // loosely timed misses
  GpuRequest lt_request_;
  std::vector<uint8_t> scratch_;
  std::vector<std::pair<uint64_t, uint32_t>> lt_lines_;
};

}  // namespace gpusoc::tex
