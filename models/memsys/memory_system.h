// The memory system as the SMs see it: one TLM-2.0 target with a socket binding per SM (socket
// id = port), in front of the memory hierarchy (crossbar, L2 slices, partitions: see
// memory_hierarchy.h), and an initiator to the device memory that holds the data.
//
// Timing and data are separate (design guide section 3): data moves through `backing` (debug
// transport for payloads that carry data; the SMs move theirs through DMI, which this module
// forwards), while the hierarchy decides when each access completes.
//
// Approximately timed (nb_transport, base protocol), as the cycle-level SMs use it:
//  - Each port has a bounded queue (HierarchyConfig::port_queue requests): the SM's memory
//    interface. BEGIN_REQ arriving at t = sc_time_stamp() + delay while the queue has room is
//    answered at once, TLM_UPDATED with END_REQ at t, so a temporally decoupled SM can issue
//    several requests per quantum; a full queue answers TLM_ACCEPTED and END_REQ goes backward
//    when a slot frees. From the first hierarchy cycle at or after its arrival, the queue's
//    head is offered to the crossbar packet by packet (one per L2 line it touches), in order: a
//    full crossbar input holds the queue, and a full queue holds the SM.
//  - BEGIN_RESP goes backward at the cycle its last packet's reply reaches the port, annotated
//    with the configuration's fixed latency (HierarchyConfig::fixed_latency_ns); one
//    response open per port (a later one waits for END_RESP unless the initiator answered
//    TLM_COMPLETED).
//  - An access outside device memory is answered at once: TLM_COMPLETED with
//    TLM_ADDRESS_ERROR_RESPONSE.
// Loosely timed (b_transport), as the loosely timed SMs use it: the access is annotated with the
// hierarchy's unloaded latency (crossbar both ways, an L2 lookup, a DRAM row miss) plus the time
// its bytes occupy its partition at the partition's peak bandwidth. No L2 hits: LT keeps to the
// DRAM's bandwidth and latency (docs/memory.md).
// Between events the module sleeps: the hierarchy runs only at its own next event or an arrival.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/bandwidth_booking.h"
#include "models/common/cycle_clock.h"
#include "models/common/index_bits.h"
#include "models/common/picoseconds.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/memsys/memory_hierarchy.h"
#include "models/memsys/module_hierarchy.h"
#include "models/memsys/request_trace.h"

namespace gpusoc::memsys {

class MemorySystem : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<MemorySystem> target;  // one binding per SM
  tlm_utils::simple_initiator_socket<MemorySystem> backing;         // device memory

  /// `base`, `size`: the device memory range; `config.ports` bindings are expected on target.
  MemorySystem(sc_core::sc_module_name name, const HierarchyConfig& config, uint64_t base,
               uint64_t size, StatGroup& stats_parent);
  ~MemorySystem() override;

  /// The fused MemoryHierarchy, or with config.modules the ModuleHierarchy.
  const PacketNetwork& hierarchy() const { return *hierarchy_; }
  /// With config.modules: the modules (a platform binds its own memory to them there).
  ModuleHierarchy* modules() { return modules_; }
  /// Records every request offered from now on (null: stop); the writer outlives the run.
  void set_request_trace(RequestTraceWriter* writer) { trace_ = writer; }
  /// The unloaded latency the loosely timed path annotates.
  sc_core::sc_time unloaded_latency() const { return unloaded_; }

 private:
  struct Request {
    tlm::tlm_generic_payload* tx = nullptr;
    uint64_t arrival_cycle = 0;
    uint32_t slot = 0;  // its entry in in_flight_
  };
  struct Port {
    std::deque<Request> queue;   // accepted (END_REQ given), not yet all in the crossbar
    Request blocked;             // BEGIN_REQ that found the queue full: END_REQ when room
    uint64_t next = 0, end = 0;  // the queue head's bytes still to offer
    bool head_started = false;
    uint64_t last_arrival = 0;
    std::deque<tlm::tlm_generic_payload*> responses;  // done, waiting for the response channel
    bool response_open = false;
  };
  struct InFlight {
    tlm::tlm_generic_payload* tx = nullptr;
    uint32_t port = 0;
    uint32_t packets = 0;  // offered and not yet answered
    bool offered = false;  // all its packets are offered
  };

  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void end_of_elaboration() override;

  /// Checks the range and moves the data of a payload that carries some; false on an error
  /// (the response status says which).
  bool access(tlm::tlm_generic_payload& tx);
  void run();  // the hierarchy's process: advance, offer, answer, sleep
  void offer_waiting(uint32_t port, uint64_t cycle);
  Request admit(uint32_t port, tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival);
  void send_response(uint32_t port);
  void record(const tlm::tlm_generic_payload& tx, uint64_t arrival_ps);  // to trace_
  void wake_at(uint64_t cycle);

  HierarchyConfig config_;
  uint64_t base_, size_;
  std::vector<Port> ports_;
  IndexBits queued_;  // ports with requests in their queue: what run() offers
  std::vector<InFlight> in_flight_;
  std::vector<uint32_t> free_slots_;
  std::vector<HierarchyCompletion> done_;
  std::vector<BandwidthBooking> partition_time_;  // loosely timed path
  double partition_bytes_per_ps_ = 0;
  sc_core::sc_time unloaded_;
  sc_core::sc_time fixed_latency_;  // added to every response (HierarchyConfig)
  sc_core::sc_event wake_;
  uint64_t now_cycle_ = 0;
  const Picoseconds ps_;  // SystemC time <-> picoseconds at the platform's time resolution

  StatGroup stats_;
  Counter requests_{stats_, "requests", "accesses", "timed accesses from the SMs"};
  Counter bytes_{stats_, "bytes", "bytes", "bytes the timed accesses asked for"};
  Counter responses_{stats_, "responses", "accesses",
                     "approximately timed accesses answered (BEGIN_RESP)"};
  Counter errors_{stats_, "errors", "accesses", "accesses answered with an error response"};
  Scalar latency_sum_ns_{stats_, "latency_sum_ns", "ns",
                         "approximately timed accesses: sum of (BEGIN_RESP - BEGIN_REQ)"};
  Formula latency_avg_ns_;
  std::unique_ptr<PacketNetwork> hierarchy_;  // after stats_: its statistics go there
  ModuleHierarchy* modules_;                  // hierarchy_, when it is the modules
  const CycleClock clock_;                    // the hierarchy's cycles over SystemC time
  std::vector<uint64_t> arrival_ps_;          // per slot: when its BEGIN_REQ arrived
  RequestTraceWriter* trace_ = nullptr;       // --mem-trace
};

}  // namespace gpusoc::memsys
