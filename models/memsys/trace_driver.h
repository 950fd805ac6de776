// Drives a MemoryHierarchy from a trace source (a trace file or a generator), as memtrace does:
// each request is offered at its time (or as soon after as its port takes it), split into
// packets of at most one L2 line, and is complete when the last of its packets' replies reaches
// its port. Requests go to the ports round-robin, one request in hand per port; a port that
// cannot take its request's next packet holds the trace back (requests enter in trace order).
//
// Latency counts from the request's first packet entering the hierarchy to its last reply, so
// time spent waiting at a full port (backpressure) is not latency but lost bandwidth.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/progress.h"
#include "models/memsys/mem_trace.h"
#include "models/memsys/memory_hierarchy.h"

namespace gpusoc::memsys {

struct TraceRunResult {
  uint64_t requests = 0, reads = 0, writes = 0;
  uint64_t bytes = 0;  // requested bytes (what the trace asked for)
  uint64_t packets = 0;
  uint64_t end_cycle = 0;  // the last reply, in hierarchy cycles
  double cycle_ps = 0;
  uint64_t latency_sum = 0;              // cycles, over requests
  std::vector<uint64_t> latency_counts;  // [c]: requests that took c cycles (the last: more)

  double elapsed_ns() const { return double(end_cycle) * cycle_ps / 1000.0; }
  double bandwidth_gbps() const { return elapsed_ns() > 0 ? double(bytes) / elapsed_ns() : 0; }
  double latency_avg_ns() const;
  /// The smallest latency (ns) that `fraction` of the requests do not exceed.
  double latency_quantile_ns(double fraction) const;
};

/// The addresses a trace may name: device memory, `bytes` from `base`. Beyond it the address
/// mapping would alias, so such a request is an error naming its line and `key`.
struct TraceAddressRange {
  uint64_t base = 0;
  uint64_t bytes = ~uint64_t(0);
  std::string key;  // the parameter that sets `bytes`, for the error
};

class TraceDriver {
 public:
  /// Requests are offered on ports 0 .. ports - 1 of `hierarchy` (at most its own); every reply
  /// arrives `fixed_latency_ns` after the hierarchy delivers it (HierarchyConfig).
  TraceDriver(PacketNetwork& hierarchy, uint32_t ports, double fixed_latency_ns = 0,
              TraceAddressRange range = {});
  /// Runs the whole trace and waits for every reply. ConfigError naming the request's position
  /// when it leaves the address range; ModelError if the hierarchy stops making progress with
  /// requests outstanding.
  TraceRunResult run(TraceSource& source);

 private:
  ProgressLine progress_line(const TraceSource& source, const TraceRunResult& result, uint64_t now);
  struct Port {
    bool busy = false;
    uint32_t slot = 0;   // its request's entry in requests_
    uint64_t start = 0;  // the request's first byte
    uint64_t next = 0;   // address of the next packet's first byte
    uint64_t end = 0;    // one past the request's last byte
    MemOp op = MemOp::Read;
    bool refused = false;     // the hierarchy refused its next packet, at
    uint64_t refused_at = 0;  // this room_version()
  };
  struct Outstanding {
    uint64_t entered = 0;  // cycle the first packet entered
    uint32_t packets = 0;  // still to complete, or to offer
    bool offered = false;  // every packet is offered
  };
  bool offer_packets(uint32_t port, uint64_t cycle);
  void check_address(const TraceSource& source, const TraceRequest& request) const;
  void complete(const HierarchyCompletion& c, TraceRunResult& result);
  uint32_t allocate_slot();

  PacketNetwork& hierarchy_;
  std::vector<Port> ports_;
  std::vector<uint32_t> busy_ports_;
  std::vector<Outstanding> requests_;
  std::vector<uint32_t> free_slots_;
  uint64_t outstanding_ = 0;
  RemainingTime remaining_;  // of the run, for progress reports
  uint64_t fixed_cycles_ = 0;
  TraceAddressRange range_;
};

}  // namespace gpusoc::memsys
