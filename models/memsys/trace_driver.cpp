#include "models/memsys/trace_driver.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/progress.h"
#include "models/common/wall_deadline.h"

namespace gpusoc::memsys {
namespace {

// Latencies are counted exactly up to this many cycles; longer ones share the last bucket.
constexpr size_t kLatencyBuckets = 1 << 16;
// No reply for this long with requests outstanding: something is stuck (refresh alone would
// keep the clock moving forever).
constexpr uint64_t kStuckCycles = 100'000'000;

}  // namespace

double TraceRunResult::latency_avg_ns() const {
  return requests ? double(latency_sum) / double(requests) * cycle_ps / 1000.0 : 0.0;
}

double TraceRunResult::latency_quantile_ns(double fraction) const {
  if (requests == 0) return 0.0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(fraction * double(requests))));
  uint64_t seen = 0;
  for (size_t c = 0; c < latency_counts.size(); ++c) {
    seen += latency_counts[c];
    if (seen >= rank) return double(c) * cycle_ps / 1000.0;
  }
  return double(latency_counts.size() - 1) * cycle_ps / 1000.0;
}

TraceDriver::TraceDriver(PacketNetwork& hierarchy, uint32_t ports, double fixed_latency_ns,
                         TraceAddressRange range)
    : hierarchy_(hierarchy),
      ports_(std::max(1u, ports)),
      fixed_cycles_(uint64_t(std::llround(fixed_latency_ns * 1000.0 / hierarchy.cycle_ps()))),
      range_(std::move(range)) {}

void TraceDriver::check_address(const TraceSource& source, const TraceRequest& request) const {
  // Written without overflow: an address near 2^64 plus its size must not wrap into range.
  const bool inside = request.address >= range_.base &&
                      request.address - range_.base <= range_.bytes &&
                      request.bytes <= range_.bytes - (request.address - range_.base);
  if (!inside)
    throw ConfigError(fmt::format(
        "{}: {} bytes at {:#x} are outside device memory [{:#x}, {:#x}) ({} = {} bytes)",
        source.position(), request.bytes, request.address, range_.base, range_.base + range_.bytes,
        range_.key, range_.bytes));
}

uint32_t TraceDriver::allocate_slot() {
  if (free_slots_.empty()) {
    requests_.emplace_back();
    return uint32_t(requests_.size() - 1);
  }
  const uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  return slot;
}

// Offers the port's remaining packets while the hierarchy takes them; true when all are in.
bool TraceDriver::offer_packets(uint32_t index, uint64_t cycle) {
  Port& port = ports_[index];
  while (port.next < port.end) {
    uint64_t stop = 0;
    MemPacket packet = hierarchy_.line_packet(port.next, port.end, stop);
    packet.id = port.slot;
    packet.op = port.op;
    if (!hierarchy_.can_offer(index, packet)) return false;
    hierarchy_.offer(index, packet, cycle);
    Outstanding& r = requests_[port.slot];
    if (port.next == port.start) r.entered = cycle;
    ++r.packets;
    port.next = stop;
  }
  requests_[port.slot].offered = true;
  port.busy = false;
  port.refused = false;
  return true;
}

void TraceDriver::complete(const HierarchyCompletion& c, TraceRunResult& result) {
  Outstanding& r = requests_[c.packet.id];
  ++result.packets;
  if (--r.packets > 0 || !r.offered) return;
  const uint64_t latency = c.cycle + fixed_cycles_ - r.entered;
  result.latency_sum += latency;
  ++result.latency_counts[std::min<uint64_t>(latency, kLatencyBuckets - 1)];
  result.end_cycle = std::max(result.end_cycle, c.cycle + fixed_cycles_);
  free_slots_.push_back(uint32_t(c.packet.id));
  --outstanding_;
}

ProgressLine TraceDriver::progress_line(const TraceSource& source, const TraceRunResult& result,
                                        uint64_t now) {
  ProgressLine line;
  line.simulated_s = double(now) * hierarchy_.cycle_ps() * 1e-12;
  const uint64_t done = result.requests - outstanding_, total = source.total();
  if (total == 0) {
    line.work = fmt::format("requests: {} done", done);
  } else {
    line.work = fmt::format("requests: {} of {} done", done, total);
    line.remaining_s = remaining_.estimate(done, total);
  }
  return line;
}

TraceRunResult TraceDriver::run(TraceSource& source) {
  TraceRunResult result;
  result.cycle_ps = hierarchy_.cycle_ps();
  result.latency_counts.assign(kLatencyBuckets, 0);
  std::vector<HierarchyCompletion> done;
  const double cycle_ps = hierarchy_.cycle_ps();
  TraceRequest next;
  const auto take = [&] {
    const bool taken = source.next(next);
    if (taken) check_address(source, next);
    return taken;
  };
  bool have_next = take();
  uint32_t next_port = 0;
  uint64_t now = 0;
  uint64_t idle_rounds = 0;    // rounds at one cycle in which nothing happened
  uint64_t last_progress = 0;  // the last cycle a reply arrived (or nothing was outstanding)
  uint64_t rounds = 0;
  for (;;) {
    // Hand trace requests whose time has come to their ports, in trace order, then offer what
    // the ports hold (a port refused is asked again only once room may have appeared).
    bool moved = true;
    while (moved) {
      moved = false;
      for (size_t i = 0; i < busy_ports_.size();) {
        const uint32_t p = busy_ports_[i];
        if (ports_[p].refused && ports_[p].refused_at == hierarchy_.room_version(p)) {
          ++i;
        } else if (offer_packets(p, now)) {
          busy_ports_[i] = busy_ports_.back();
          busy_ports_.pop_back();
          moved = true;
        } else {
          ports_[p].refused = true;
          ports_[p].refused_at = hierarchy_.room_version(p);
          ++i;
        }
      }
      while (have_next && !ports_[next_port].busy &&
             uint64_t(std::ceil(double(next.time_ps) / cycle_ps)) <= now) {
        Port& port = ports_[next_port];
        port.busy = true;
        port.slot = allocate_slot();
        port.start = port.next = next.address;
        port.end = next.address + next.bytes;
        port.op = next.write ? MemOp::Write : MemOp::Read;
        requests_[port.slot] = Outstanding{now, 0, false};
        ++outstanding_;
        ++result.requests;
        ++(next.write ? result.writes : result.reads);
        result.bytes += next.bytes;
        busy_ports_.push_back(next_port);
        next_port = (next_port + 1) % uint32_t(ports_.size());
        have_next = take();
        moved = true;
      }
    }
    if (outstanding_ == 0 && !have_next) break;
    check_wall_deadline();
    if ((++rounds & 4095) == 0) progress_tick([&] { return progress_line(source, result, now); });
    uint64_t t = hierarchy_.next_event();
    if (have_next && !ports_[next_port].busy)
      t = std::min(t, std::max(now, uint64_t(std::ceil(double(next.time_ps) / cycle_ps))));
    if (t == PacketNetwork::kNever || (outstanding_ > 0 && t - last_progress > kStuckCycles)) {
      throw ModelError("memtrace", fmt::format("the memory hierarchy stopped making progress at "
                                               "cycle {} with {} requests outstanding",
                                               now, outstanding_));
    }
    done.clear();
    hierarchy_.advance(t, done);
    idle_rounds = (t == now && done.empty()) ? idle_rounds + 1 : 0;
    if (idle_rounds > 1000000)
      throw ModelError("memtrace", fmt::format("no progress at cycle {} ({} requests outstanding)",
                                               now, outstanding_));
    now = std::max(now, t);
    for (const HierarchyCompletion& c : done) complete(c, result);
    if (!done.empty() || outstanding_ == 0) last_progress = now;
  }
  progress_last([&] { return progress_line(source, result, now); });
  return result;
}

}  // namespace gpusoc::memsys
