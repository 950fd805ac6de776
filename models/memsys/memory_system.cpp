#include "models/memsys/memory_system.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/gpu_request.h"
#include "models/memsys/hierarchy_params.h"

namespace gpusoc::memsys {
namespace {

// The packets' op, and which atomic, for the payload `tx` (one extension lookup for both).
void op_of(const tlm::tlm_generic_payload& tx, MemOp& op, AtomicOp& atomic) {
  const GpuRequest* r = tx.get_extension<GpuRequest>();
  const bool is_atomic = r && r->kind == AccessKind::Atomic;
  op = is_atomic ? MemOp::Atomic : writes(tx) ? MemOp::Write : MemOp::Read;
  atomic = is_atomic ? r->atomic : AtomicOp::Add;
}

// The bytes a payload asks for: its sector mask's span when it has one (sectors from the
// address), else its length.
void span_of(const tlm::tlm_generic_payload& tx, uint64_t& first, uint64_t& end) {
  const GpuRequest* r = tx.get_extension<GpuRequest>();
  first = tx.get_address();
  end = first + std::max(1u, tx.get_data_length());
  if (r && r->sector_mask) {
    const uint64_t sectors = first & ~uint64_t(kSectorBytes - 1);
    first = sectors + kSectorBytes * uint64_t(__builtin_ctz(r->sector_mask));
    end = sectors + kSectorBytes * uint64_t(32 - __builtin_clz(r->sector_mask));
  }
}

// The fused hierarchy, or the modules (config.modules), built as this module's children.
std::unique_ptr<PacketNetwork> make_network(const HierarchyConfig& config, StatGroup& stats) {
  if (!config.modules) return std::make_unique<MemoryHierarchy>(config, stats);
  return std::make_unique<ModuleHierarchy>(
      "modules", config, stats,
      ModuleHierarchy::Options{false, config.external_memory, config.check_protocol,
                               config.external_slices});
}

}  // namespace

MemorySystem::MemorySystem(sc_core::sc_module_name name, const HierarchyConfig& config,
                           uint64_t base, uint64_t size, StatGroup& stats_parent)
    : sc_module(name),
      target("target"),
      backing("backing"),
      config_(config),
      base_(base),
      size_(size),
      ports_(config.ports),
      queued_(config.ports),
      stats_(stats_parent, basename()),
      latency_avg_ns_(stats_, "latency_avg_ns", "ns",
                      "approximately timed accesses: average latency",
                      [this] { return latency_sum_ns_.value() / double(responses_.value()); }),
      hierarchy_(make_network(config, stats_)),
      modules_(dynamic_cast<ModuleHierarchy*>(hierarchy_.get())),
      clock_(hierarchy_->cycle_ps()) {
  hierarchy_->on_activity([this] { wake_.notify(sc_core::SC_ZERO_TIME); });
  target.register_b_transport(this, &MemorySystem::b_transport);
  target.register_nb_transport_fw(this, &MemorySystem::nb_transport_fw);
  target.register_transport_dbg(this, &MemorySystem::transport_dbg);
  target.register_get_direct_mem_ptr(this, &MemorySystem::get_direct_mem_ptr);
  backing.register_invalidate_direct_mem_ptr(this, &MemorySystem::invalidate_direct_mem_ptr);

  // Loosely timed: each partition's peak, and the unloaded path (both crossbar networks with a
  // header's serialization, an L2 lookup, and a DRAM row miss: ACT, RD, data).
  const mempart::DramTiming& d = config.dram;
  partition_time_.resize(config.mapping.partitions);
  partition_bytes_per_ps_ = d.peak_gbytes_per_s() * config.mapping.channels / 1000.0;
  const double l2_cycle_ns = 1000.0 / config.l2_clock_mhz;
  const double xbar_cycles = 2.0 * (config.xbar.latency + 1);
  const double dram_ns = (d.tRP + d.tRCD + d.CL + d.burst_cycles()) * d.tck_ns;
  fixed_latency_ = sc_core::sc_time(config.fixed_latency_ns, sc_core::SC_NS);
  unloaded_ = sc_core::sc_time((xbar_cycles + config.l2.hit_latency) * l2_cycle_ns + dram_ns +
                                   config.partition_latency_ns,
                               sc_core::SC_NS) +
              fixed_latency_;

  SC_HAS_PROCESS(MemorySystem);
  SC_METHOD(run);
  sensitive << wake_;
  dont_initialize();
}

MemorySystem::~MemorySystem() = default;

void MemorySystem::end_of_elaboration() {
  if (target.size() != config_.ports) {
    throw ModelError(name(), fmt::format("{} initiators bound to target, configured for {} ports",
                                         target.size(), config_.ports));
  }
}

void MemorySystem::wake_at(uint64_t cycle) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time at = clock_.time_of(cycle);
  wake_.notify(at > now ? at - now : sc_core::SC_ZERO_TIME);
}

bool MemorySystem::access(tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  const uint64_t length = std::max(1u, tx.get_data_length());
  if (address < base_ || address - base_ > size_ || length > size_ - (address - base_)) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++errors_;
    return false;
  }
  if (tx.get_command() == tlm::TLM_IGNORE_COMMAND && !timing_request(tx)) {
    tx.set_response_status(tlm::TLM_OK_RESPONSE);  // an address check only: at once, no time
    return false;
  }
  if (tx.get_command() != tlm::TLM_IGNORE_COMMAND) {  // timing requests move no data
    if (backing->transport_dbg(tx) != tx.get_data_length()) {
      tx.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      ++errors_;
      return false;
    }
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  ++requests_;
  bytes_ += tx.get_data_length();
  return true;
}

void MemorySystem::b_transport(int, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  if (!access(tx)) return;
  const sc_core::sc_time arrival = sc_core::sc_time_stamp() + delay;
  const uint64_t arrival_ps = ps_.of(arrival);
  if (trace_) record(tx, arrival_ps);
  const uint32_t partition = hierarchy_->mapping().map(tx.get_address()).partition;
  const uint64_t occupancy =
      uint64_t(std::ceil(std::max(1u, tx.get_data_length()) / partition_bytes_per_ps_));
  const uint64_t done_ps = partition_time_[partition].book(arrival_ps, occupancy, ps_.now());
  delay += ps_.time(done_ps - arrival_ps) + unloaded_;
}

tlm::tlm_sync_enum MemorySystem::nb_transport_fw(int id, tlm::tlm_generic_payload& tx,
                                                 tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  Port& port = ports_.at(size_t(id));
  if (phase == tlm::END_RESP) {
    if (!port.response_open)
      throw ModelError(name(), fmt::format("END_RESP on port {} with no response open", id));
    port.response_open = false;
    if (tx.has_mm()) tx.release();
    send_response(uint32_t(id));
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ)
    throw ModelError(name(), fmt::format("unexpected phase on port {}", id));
  if (port.blocked.tx)
    throw ModelError(name(), fmt::format("BEGIN_REQ on port {} before END_REQ of the previous "
                                         "one (request exclusion)",
                                         id));
  if (!access(tx)) return tlm::TLM_COMPLETED;  // errors answer at once, taking no time
  if (tx.has_mm()) tx.acquire();
  const Request r = admit(uint32_t(id), tx, sc_core::sc_time_stamp() + delay);
  if (port.queue.size() >= config_.port_queue) {
    port.blocked = r;
    return tlm::TLM_ACCEPTED;
  }
  port.queue.push_back(r);
  queued_.insert(uint32_t(id));
  wake_at(r.arrival_cycle);
  phase = tlm::END_REQ;  // at the arrival time: `delay` stays as it is
  return tlm::TLM_UPDATED;
}

// Gives the request its in-flight entry and its arrival cycle (a port's requests enter in
// order, so never before the one ahead of it).
// One trace line per contiguous run of the sectors a request asks for (a line's sectors 0 and 3
// are two requests of 32 bytes), else the payload's bytes; addresses as offsets into device
// memory, which is how memtrace reads them (and how the address map sees them either way).
void MemorySystem::record(const tlm::tlm_generic_payload& tx, uint64_t arrival_ps) {
  MemOp op;
  AtomicOp atomic;
  op_of(tx, op, atomic);
  const GpuRequest* r = tx.get_extension<GpuRequest>();
  if (!r || !r->sector_mask) {
    trace_->record(arrival_ps, ps_.now(), op, tx.get_address() - base_,
                   std::max(1u, tx.get_data_length()));
    return;
  }
  const uint64_t sectors = (tx.get_address() - base_) & ~uint64_t(kSectorBytes - 1);
  for (uint32_t mask = r->sector_mask; mask;) {
    const unsigned first = unsigned(__builtin_ctz(mask));
    const uint32_t above = ~(mask >> first);  // its lowest set bit ends the run
    const unsigned run = above ? unsigned(__builtin_ctz(above)) : 32 - first;
    trace_->record(arrival_ps, ps_.now(), op, sectors + kSectorBytes * first, kSectorBytes * run);
    mask &= run >= 32 ? 0u : ~(((1u << run) - 1u) << first);
  }
}

MemorySystem::Request MemorySystem::admit(uint32_t index, tlm::tlm_generic_payload& tx,
                                          const sc_core::sc_time& arrival) {
  Port& port = ports_[index];
  if (free_slots_.empty()) {
    in_flight_.emplace_back();
    arrival_ps_.push_back(0);
    free_slots_.push_back(uint32_t(in_flight_.size() - 1));
  }
  Request r;
  r.tx = &tx;
  r.slot = free_slots_.back();
  free_slots_.pop_back();
  r.arrival_cycle = std::max(clock_.cycle_at(arrival), port.last_arrival);
  port.last_arrival = r.arrival_cycle;
  in_flight_[r.slot] = InFlight{&tx, index, 0, false};
  arrival_ps_[r.slot] = ps_.of(arrival);
  if (trace_) record(tx, arrival_ps_[r.slot]);
  return r;
}

// Offers the port's queued requests, in order and packet by packet (one per L2 line), while the
// crossbar input takes them; a freed queue slot admits a blocked request with its END_REQ.
void MemorySystem::offer_waiting(uint32_t index, uint64_t cycle) {
  Port& port = ports_[index];
  while (!port.queue.empty() && port.queue.front().arrival_cycle <= cycle) {
    const Request& head = port.queue.front();
    if (!port.head_started) {
      span_of(*head.tx, port.next, port.end);
      port.head_started = true;
    }
    InFlight& f = in_flight_[head.slot];
    MemOp op;
    AtomicOp atomic;
    op_of(*head.tx, op, atomic);
    while (port.next < port.end) {
      uint64_t stop = 0;
      MemPacket packet = hierarchy_->line_packet(port.next, port.end, stop);
      packet.id = head.slot;
      packet.op = op;
      packet.atomic = atomic;
      if (!hierarchy_->can_offer(index, packet)) return;
      hierarchy_->offer(index, packet, cycle);
      ++f.packets;
      port.next = stop;
    }
    f.offered = true;
    port.queue.pop_front();
    port.head_started = false;
    if (port.blocked.tx) {
      Request r = port.blocked;
      port.blocked = Request{};
      r.arrival_cycle = std::max(r.arrival_cycle, cycle);
      port.queue.push_back(r);
      tlm::tlm_phase phase = tlm::END_REQ;
      sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
      target[index]->nb_transport_bw(*r.tx, phase, zero);
    }
  }
}

void MemorySystem::send_response(uint32_t index) {
  Port& port = ports_[index];
  while (!port.response_open && !port.responses.empty()) {
    tlm::tlm_generic_payload& tx = *port.responses.front();
    port.responses.pop_front();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = fixed_latency_;
    const tlm::tlm_sync_enum answer = target[index]->nb_transport_bw(tx, phase, delay);
    if (answer == tlm::TLM_ACCEPTED) {
      port.response_open = true;
    } else {
      if (tx.has_mm())
        tx.release();  // TLM_COMPLETED, or TLM_UPDATED to END_RESP: the response is over
    }
  }
}

void MemorySystem::run() {
  // Every cycle begun by now (several, at a time resolution coarser than the cycle).
  const uint64_t now = clock_.now();
  done_.clear();
  hierarchy_->advance(now, done_);
  for (const HierarchyCompletion& c : done_) {
    InFlight& f = in_flight_[c.packet.id];
    if (--f.packets > 0 || !f.offered) continue;
    ++responses_;
    latency_sum_ns_.set(latency_sum_ns_.value() +
                        double(ps_.now() + ps_.of(fixed_latency_) - arrival_ps_[c.packet.id]) /
                            1000);
    ports_[f.port].responses.push_back(f.tx);
    free_slots_.push_back(uint32_t(c.packet.id));
    send_response(f.port);
  }
  uint64_t next = PacketNetwork::kNever;
  // Only ports with queued requests, in increasing order: ports are many (every SM and texture
  // unit), and most are idle at any moment.
  queued_.take([&](uint32_t p) {
    offer_waiting(p, now);
    // A request still to arrive wakes the hierarchy then; one refused by a full crossbar input
    // is retried at the hierarchy's next event (there is one: that input holds packets).
    const std::deque<Request>& q = ports_[p].queue;
    if (q.empty()) return;
    queued_.insert(p);
    if (q.front().arrival_cycle > now) next = std::min(next, q.front().arrival_cycle);
  });
  // Idle, the hierarchy sleeps: refreshes due meanwhile are caught up at the next arrival, so
  // that an idle memory keeps no SystemC event pending.
  if (hierarchy_->in_flight() > 0) next = std::min(next, hierarchy_->next_event());
  if (next != PacketNetwork::kNever) wake_at(next);  // a delta cycle when it is now
}

unsigned MemorySystem::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  return backing->transport_dbg(tx);
}

bool MemorySystem::get_direct_mem_ptr(int, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  return backing->get_direct_mem_ptr(tx, dmi);
}

void MemorySystem::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  for (unsigned i = 0; i < target.size(); ++i) target[i]->invalidate_direct_mem_ptr(start, end);
}

}  // namespace gpusoc::memsys
