// A memory as a TLM target: host DRAM on the host side, VRAM on the GPU side until the memory
// system replaces it. Backed by one lazily committed host mapping (pages cost RAM only once
// touched), so it grants DMI over its whole range. Timing: a fixed access latency plus the time
// the data occupies the memory's port at its bandwidth (requests queue behind each other).
//
// An access that the caller issues at local time t = sc_time_stamp() + delay starts on the port
// at max(t, when the port is free), holds it for bytes / bytes_per_ns, and completes `latency`
// after that; the annotated delay grows by the difference. Accesses carrying a GpuRequest with
// timing_only set take time but touch no data; IGNORE commands only check the address.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/bandwidth_booking.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"

namespace gpusoc {

struct MemoryTargetConfig {
  uint64_t base = 0;  // first address the target answers (addresses arrive untranslated)
  uint64_t size = 0;  // bytes
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;  // per access, reads and writes alike
  double bytes_per_ns = 0;                           // port bandwidth; 0: unlimited
  bool allow_dmi = true;
};

/// What a MemoryTarget counts (timed accesses only; debug accesses and DMI are not seen).
struct MemoryTargetStats : StatGroup {
  MemoryTargetStats(StatGroup& parent, std::string name) : StatGroup(parent, std::move(name)) {}
  Counter reads{*this, "reads", "accesses", "timed read accesses"};
  Counter writes{*this, "writes", "accesses", "timed write accesses"};
  Counter bytes_read{*this, "bytes_read", "bytes", "bytes read by timed accesses"};
  Counter bytes_written{*this, "bytes_written", "bytes", "bytes written by timed accesses"};
  Counter errors{*this, "errors", "accesses", "accesses answered with an error response"};
  Scalar busy_ns{*this, "busy_ns", "ns", "time the port was occupied transferring data"};
};

class MemoryTarget : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<MemoryTarget> target;

  /// Statistics go in a group named after the module, under `stats_parent`. A size of zero, a
  /// range that wraps around 2^64, a negative bandwidth or a failed mapping is a ModelError.
  MemoryTarget(sc_core::sc_module_name name, const MemoryTargetConfig& config,
               StatGroup& stats_parent);
  ~MemoryTarget() override;

  /// Backdoor for loaders and tests: host pointer to [address, address + bytes), which must lie
  /// inside the target (ModelError otherwise).
  uint8_t* backdoor(uint64_t address, uint64_t bytes);
  const MemoryTargetConfig& config() const { return config_; }
  const MemoryTargetStats& stats() const { return stats_; }

 private:
  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  bool contains(uint64_t address, uint64_t bytes) const;
  void transfer(tlm::tlm_generic_payload& tx, uint64_t offset) const;

  MemoryTargetConfig config_;
  uint8_t* data_ = nullptr;
  BandwidthBooking port_;  // the port's time, booked by arrival time
  sc_core::sc_time busy_;
  MemoryTargetStats stats_;
};

}  // namespace gpusoc
