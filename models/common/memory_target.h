// A memory as a TLM target: host DRAM on the host side, and the VRAM behind the GPU's memory
// system (or in its place, under memory.model = flat). Backed by one lazily committed host mapping
// (pages cost RAM only once touched), so it grants DMI over its whole range. Timing: a fixed access
// latency plus the time the data occupies the memory's port at its bandwidth (requests queue behind
// each other).
//
// An access that the caller issues at local time t = sc_time_stamp() + delay starts on the port
// at max(t, when the port is free), holds it for bytes / bytes_per_ns, and completes `latency`
// after that; the annotated delay grows by the difference. Timing requests (TLM_IGNORE_COMMAND
// with a GpuRequest, gpu_request.h) take time but touch no data; other IGNORE commands only
// check the address.
//
// nb_transport (approximately timed, base protocol) sees the same timing, with backpressure: each
// initiator (socket id) is a channel of at most `queue_depth` requests in service. A BEGIN_REQ
// arriving at t = sc_time_stamp() + delay is accepted at t if fewer than queue_depth of its
// channel's earlier requests are incomplete at t (completion > t); it is then served exactly as
// b_transport serves it and answered TLM_COMPLETED with the completion annotated, without any
// SystemC event. Otherwise it is accepted when the earliest of those completes (a > t): it is
// served from a (port booked from a, then the latency), the call returns TLM_ACCEPTED, END_REQ
// goes backward at a and BEGIN_RESP at its completion (one response open per channel: a later
// one waits for END_RESP when the initiator answers TLM_ACCEPTED). Errors answer the same way,
// taking no time beyond the wait for acceptance. Channels share the port's bandwidth only.
// Data moves when BEGIN_REQ arrives; a waiting payload with a memory manager is held (acquire)
// until its response ends. An initiator breaking request or response exclusion is a ModelError.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/bandwidth_booking.h"
#include "models/common/picoseconds.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"

namespace gpusoc {

struct MemoryTargetConfig {
  uint64_t base = 0;  // first address the target answers (addresses arrive untranslated)
  uint64_t size = 0;  // bytes
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;  // per access, reads and writes alike
  double bytes_per_ns = 0;                           // port bandwidth; 0: unlimited
  bool allow_dmi = true;
  uint32_t queue_depth = 0;  // nb_transport: requests of one initiator in service; 0: unlimited
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
  /// Every byte back to zero, the pages given back to the host (a reset that must leave nothing
  /// readable behind). DMI pointers stay valid: the mapping does not move.
  void erase();
  const MemoryTargetConfig& config() const { return config_; }
  const MemoryTargetStats& stats() const { return stats_; }

 private:
  struct Channel;
  /// A backward call due at `time_ps` (picoseconds; ties in scheduling order).
  struct Pending {
    uint64_t time_ps;
    uint64_t seq;
    tlm::tlm_generic_payload* tx;
    int id;
    bool response;  // BEGIN_RESP (of tx, or with tx null the next held one); otherwise END_REQ
    bool operator>(const Pending& o) const {
      return time_ps != o.time_ps ? time_ps > o.time_ps : seq > o.seq;
    }
  };

  void end_of_elaboration() override;
  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  /// Checks the access, moves its data and books the port for an arrival at `arrival`; sets the
  /// response status and returns when the access completes.
  sc_core::sc_time serve(tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival);
  void schedule(uint64_t time_ps, int id, tlm::tlm_generic_payload* tx, bool response);
  void dispatch();
  void begin_response(int id, tlm::tlm_generic_payload& tx);
  void end_response(int id);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  bool contains(uint64_t address, uint64_t bytes) const;
  void transfer(tlm::tlm_generic_payload& tx, uint64_t offset) const;

  MemoryTargetConfig config_;
  uint8_t* data_ = nullptr;
  const Picoseconds ps_;   // SystemC time <-> picoseconds, which the port books in
  BandwidthBooking port_;  // the port's time, booked by arrival time (ps)
  uint64_t busy_ps_ = 0;
  std::vector<Channel> channels_;  // by socket id
  std::vector<Pending> pending_;   // min-heap on (time_ps, seq)
  uint64_t next_seq_ = 0;
  sc_core::sc_event wake_;  // at the earliest pending call
  MemoryTargetStats stats_;
};

}  // namespace gpusoc
