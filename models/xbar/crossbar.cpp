// One crossbar network, event-driven. Every waiting packet that can be matched is a request
// (input, output) filed under its output; the first cycle any request can be granted is kept
// exact (next_grant), so advance() jumps from grant cycle to grant cycle and the cycles in
// between cost one pass over the waiting inputs for their statistics. All storage is sized at
// construction: input buffers are slot pools with intrusive lists, output buffers are rings, and
// what a grant touches of a port lies together in its InputPort or OutputPort.
#include "models/xbar/crossbar.h"

#include <algorithm>

#include "models/common/error.h"

namespace gpusoc::xbar {
namespace {

constexpr uint32_t kNil = ~uint32_t(0);

}  // namespace

std::string CrossbarConfig::problem(const std::string& prefix) const {
  const std::string key = prefix + ".";
  const std::pair<const char*, uint32_t> at_least_one[] = {{"width_bytes", width_bytes},
                                                           {"latency", latency},
                                                           {"input_buffer", input_buffer},
                                                           {"output_buffer", output_buffer}};
  for (const auto& [name, value] : at_least_one) {
    if (value == 0) return key + name + " must be at least 1 (it is 0)";
  }
  if (!crossbar_arbiters().find(arbiter.name)) {
    std::string known;
    for (const std::string& name : crossbar_arbiters().names())
      known += (known.empty() ? "" : ", ") + name;
    return key + "arbiter \"" + arbiter.name + "\" is not one of " + known;
  }
  return "";
}

struct Crossbar::Impl {
  struct Slot {  // a packet in an input buffer
    MemPacket packet;
    uint64_t eligible;  // first cycle it may be granted
    uint32_t output, cycles, bytes;
    uint32_t older, newer;  // arrival order within its input
    uint32_t next_queued;   // virtual output queues: the next packet for the same output
  };
  struct Arrival {  // a packet on its way to, or in, an output buffer
    MemPacket packet;
    uint64_t ready;
  };
  struct Delivery {
    uint64_t cycle;
    uint32_t output, bytes;
  };
  // What a push, a grant or a settle touches of one port, together (a line or two).
  struct InputPort {
    uint64_t free_at = 0;                   // first cycle it is not transmitting
    mutable uint64_t charge_from = 0;       // settle()'s first uncharged cycle
    uint32_t oldest = kNil, newest = kNil;  // its packets, in arrival order
    uint32_t free_count = 0;                // free slots (free_slots)
  };
  struct OutputPort {
    uint64_t free_at = 0;
    uint32_t head = 0, count = 0;  // its ring of arrivals
    uint32_t requesters = 0;       // inputs with a request for it
  };
  // A list of port indices with O(1) insertion and removal (order is not kept).
  struct PortSet {
    std::vector<uint32_t> items, position;
    explicit PortSet(uint32_t ports) : position(ports, kNil) { items.reserve(ports); }
    void insert(uint32_t port) {
      position[port] = uint32_t(items.size());
      items.push_back(port);
    }
    void erase(uint32_t port) {
      const uint32_t at = position[port];
      position[items.back()] = at;
      items[at] = items.back();
      items.pop_back();
      position[port] = kNil;
    }
  };

  Impl(const CrossbarConfig& c, uint32_t in, uint32_t out, bool request, StatGroup& stats_parent,
       const std::string& p, std::vector<uint64_t>& front)
      : stats(stats_parent, request ? "requests" : "replies", in, out),
        front_ready(front),
        config(c),
        inputs(in),
        outputs(out),
        request_direction(request),
        prefix(p),
        arbiter(crossbar_arbiters().make(c.arbiter, in, out)),
        voq(arbiter->virtual_output_queues()),
        slots(size_t(in) * c.input_buffer),
        free_slots(slots.size()),
        in_ports(in),
        queue_head(voq ? size_t(in) * out : 0, kNil),
        queue_tail(queue_head.size(), kNil),
        pairs(size_t(in) * out),
        requesters(size_t(out) * in),
        active_outputs(out),
        active_inputs(in),
        arrivals(size_t(out) * c.output_buffer),
        out_ports(out) {
    for (InputPort& port : in_ports) port.free_count = c.input_buffer;
    stats.set_refresh([this] { settle_all(); });
    for (size_t s = 0; s < free_slots.size(); ++s) free_slots[s] = uint32_t(s);
    deliveries.resize(arrivals.size());  // a delivery holds its arrival's slot
    delivered.reserve(arrivals.size());
    requests.reserve(size_t(in) * (voq ? out : 1));
    granted.reserve(std::min(in, out));
  }

  uint32_t wire_bytes(const MemPacket& p) const {
    const bool data = request_direction ? p.request_carries_data() : p.reply_carries_data();
    return config.header_bytes + (data ? p.data_bytes() : 0);
  }
  bool full(uint32_t o) const { return out_ports[o].count == config.output_buffer; }
  uint64_t eligible(uint32_t input, uint32_t slot) const {
    return std::max(in_ports[input].free_at, slots[slot].eligible);
  }
  size_t pair(uint32_t i, uint32_t o) const { return size_t(i) * outputs + o; }

  // The first cycle output o could grant one of its requests, kNever if none or it is full.
  uint64_t grant_cycle(uint32_t o) const {
    if (full(o)) return kNever;
    uint64_t first = kNever;
    // A requester eligible by `now` settles it: nothing is granted before now.
    for (uint32_t k = 0; k < out_ports[o].requesters && first > now; ++k) {
      const uint32_t i = requesters[size_t(o) * inputs + k];
      first = std::min(first, eligible(i, pairs[pair(i, o)].slot));
    }
    return first == kNever ? kNever : std::max({first, out_ports[o].free_at, now});
  }
  void recompute_next_grant() {
    next_grant = kNever;
    for (uint32_t k = 0; k < active_outputs.items.size() && next_grant > now; ++k) {
      next_grant = std::min(next_grant, grant_cycle(active_outputs.items[k]));
    }
  }

  void add_request(uint32_t i, uint32_t o, uint32_t slot) {
    pairs[pair(i, o)].slot = slot;
    if (out_ports[o].requesters == 0) active_outputs.insert(o);
    pairs[pair(i, o)].position = out_ports[o].requesters;
    requesters[size_t(o) * inputs + out_ports[o].requesters++] = i;
    if (!full(o)) {
      next_grant = std::min(next_grant, std::max({eligible(i, slot), out_ports[o].free_at, now}));
    }
  }
  void remove_request(uint32_t i, uint32_t o) {
    uint32_t* list = &requesters[size_t(o) * inputs];
    const uint32_t at = pairs[pair(i, o)].position;
    const uint32_t last = list[--out_ports[o].requesters];
    list[at] = last;
    pairs[pair(last, o)].position = at;
    pairs[pair(i, o)].position = kNil;
    if (out_ports[o].requesters == 0) active_outputs.erase(o);
  }

  void push(uint32_t i, uint32_t o, const MemPacket& packet, uint64_t cycle) {
    const uint32_t slot = free_slots[size_t(i) * config.input_buffer + --in_ports[i].free_count];
    Slot& s = slots[slot];
    s.packet = packet;
    s.eligible = std::max(cycle, now);
    s.output = o;
    s.bytes = wire_bytes(packet);
    s.cycles = std::max(1u, (s.bytes + config.width_bytes - 1) / config.width_bytes);
    s.older = in_ports[i].newest;
    s.newer = s.next_queued = kNil;
    if (in_ports[i].newest == kNil) {
      in_ports[i].oldest = slot;
      active_inputs.insert(i);
    } else {
      slots[in_ports[i].newest].newer = slot;
    }
    in_ports[i].newest = slot;
    if (!voq) {
      if (in_ports[i].oldest == slot) add_request(i, o, slot);
    } else if (queue_head[pair(i, o)] == kNil) {
      queue_head[pair(i, o)] = queue_tail[pair(i, o)] = slot;
      add_request(i, o, slot);
    } else {
      slots[queue_tail[pair(i, o)]].next_queued = slot;
      queue_tail[pair(i, o)] = slot;
    }
  }

  void grant(uint32_t i, uint32_t o, uint64_t cycle) {
    const uint32_t slot = pairs[pair(i, o)].slot;
    const Slot& s = slots[slot];
    in_ports[i].free_at = out_ports[o].free_at = cycle + s.cycles;
    const uint64_t ready = cycle + s.cycles - 1 + config.latency;
    if (out_ports[o].count + 1 == config.output_buffer) settle_output(o, cycle);  // full from c + 1
    if (out_ports[o].count == 0) front_ready[o] = ready;
    uint32_t tail = out_ports[o].head + out_ports[o].count++;  // a ring: wrap without dividing
    tail -= tail >= config.output_buffer ? config.output_buffer : 0;
    arrivals[size_t(o) * config.output_buffer + tail] = {s.packet, ready};
    add_delivery({ready, o, s.bytes});
    ++stats.packets[i];
    stats.bytes[i] += s.bytes;
    stats.busy_cycles[i] += s.cycles;
    stats.output_busy_cycles[o] += s.cycles;

    (s.older == kNil ? in_ports[i].oldest : slots[s.older].newer) = s.newer;
    (s.newer == kNil ? in_ports[i].newest : slots[s.newer].older) = s.older;
    free_slots[size_t(i) * config.input_buffer + in_ports[i].free_count++] = slot;
    if (!voq) {
      remove_request(i, o);
      if (in_ports[i].oldest != kNil)
        add_request(i, slots[in_ports[i].oldest].output, in_ports[i].oldest);
    } else if (s.next_queued == kNil) {
      queue_head[pair(i, o)] = kNil;
      remove_request(i, o);
    } else {
      queue_head[pair(i, o)] = pairs[pair(i, o)].slot = s.next_queued;
    }
    if (in_ports[i].oldest == kNil) active_inputs.erase(i);
  }

  // Waiting cycles are charged lazily: input i's head has been charged for every cycle before
  // in_ports[i].charge_from; settle(i, to) charges it through `to`, to blocked or conflict cycles
  // by its output's fullness now. That is exact as long as fullness does not change in between, so
  // every change of an output's fullness first settles the inputs asking for it (settle_output),
  // a grant first settles its input (and leaves out its grant cycle), and reading the statistics
  // settles all. Cheaper than charging every waiting input at every grant cycle.
  void settle(uint32_t i, uint64_t to) const {
    const uint32_t slot = in_ports[i].oldest;
    if (slot != kNil) {
      const uint64_t start = std::max(eligible(i, slot), in_ports[i].charge_from);
      const uint64_t waited = start > to ? 0 : to - start + 1;
      const bool blocked = full(slots[slot].output);
      stats.blocked_cycles[i] += blocked ? waited : 0;
      stats.conflict_cycles[i] += blocked ? 0 : waited;
    }
    in_ports[i].charge_from = std::max(in_ports[i].charge_from, to + 1);
  }
  // Settles, through `to`, the inputs with a packet for output o (an input's oldest packet is at
  // the head of its queue for its output, so these are all whose oldest packet asks for o).
  void settle_output(uint32_t o, uint64_t to) const {
    for (uint32_t k = 0; k < out_ports[o].requesters; ++k)
      settle(requesters[size_t(o) * inputs + k], to);
  }
  void settle_all() const {
    if (now == 0) return;
    for (uint32_t i : active_inputs.items) settle(i, now - 1);
  }

  void arbitrate(uint64_t cycle) {
    requests.clear();
    for (uint32_t o : active_outputs.items) {
      if (out_ports[o].free_at > cycle || full(o)) continue;
      for (uint32_t k = 0; k < out_ports[o].requesters; ++k) {
        const uint32_t i = requesters[size_t(o) * inputs + k];
        if (eligible(i, pairs[pair(i, o)].slot) <= cycle) requests.push_back({i, o});
      }
    }
    granted.clear();
    arbiter->match_requests(requests, granted);
    for (const CrossbarRequest& g : granted) {  // a granted input waits no more from `cycle`
      if (cycle > 0) settle(g.input, cycle - 1);
      in_ports[g.input].charge_from = std::max(in_ports[g.input].charge_from, cycle + 1);
    }
    for (const CrossbarRequest& g : granted) grant(g.input, g.output, cycle);
  }

  void advance(uint64_t until) {
    until = std::min(until, kNever - 1);  // kNever itself is never a cycle
    delivered.clear();
    if (until < now) return;
    while (next_grant <= until) {
      arbitrate(next_grant);
      now = next_grant + 1;
      recompute_next_grant();
    }
    now = until + 1;
    while (delivery_count != 0 && deliveries[delivery_head].cycle <= until) {
      const Delivery& d = deliveries[delivery_head];
      ++stats.delivered_packets[d.output];
      stats.delivered_bytes[d.output] += d.bytes;
      delivered.push_back(d.output);
      delivery_head = delivery_head + 1 == deliveries.size() ? 0 : delivery_head + 1;
      --delivery_count;
    }
  }

  const Arrival* front(uint32_t o) const {
    return out_ports[o].count == 0
               ? nullptr
               : &arrivals[size_t(o) * config.output_buffer + out_ports[o].head];
  }

  ModelError no_such_output(uint32_t o) const {
    return ModelError(prefix, "output " + std::to_string(o) + " out of range (the network has " +
                                  std::to_string(outputs) + ")");
  }
  void check_output(uint32_t o) const {
    if (o >= outputs) throw no_such_output(o);
  }

  mutable CrossbarStats stats;         // waiting cycles are charged lazily (settle)
  std::vector<uint64_t>& front_ready;  // Crossbar::front_ready_, kept here
  const CrossbarConfig config;
  const uint32_t inputs, outputs;
  const bool request_direction;
  const std::string prefix;
  std::unique_ptr<CrossbarArbiter> arbiter;
  const bool voq;

  // Input side.
  std::vector<Slot> slots;           // input_buffer per input
  std::vector<uint32_t> free_slots;  // per input, a stack of its free slots
  std::vector<InputPort> in_ports;
  std::vector<uint32_t> queue_head, queue_tail;  // per (input, output) when voq
  // Requests: per (input, output) the packet offered and its place among its output's
  // requesters; per output the inputs offering one.
  struct Pair {
    uint32_t slot = kNil, position = kNil;
  };
  std::vector<Pair> pairs;
  std::vector<uint32_t> requesters;  // outputs x inputs, the first OutputPort::requesters used
  PortSet active_outputs;            // outputs with a request
  PortSet active_inputs;             // inputs with a packet

  // Output side.
  std::vector<Arrival> arrivals;  // a ring of output_buffer per output
  std::vector<OutputPort> out_ports;
  // Packets on their way to output buffers, by ready cycle (ties in grant order): a ring that
  // grants append to, nearly always at its end, as grant cycles only grow.
  std::vector<Delivery> deliveries;
  size_t delivery_head = 0, delivery_count = 0;
  void add_delivery(const Delivery& d) {
    const size_t size = deliveries.size();
    size_t at = delivery_head + delivery_count++;
    at = at >= size ? at - size : at;
    for (;;) {
      const size_t before = at == 0 ? size - 1 : at - 1;
      if (at == delivery_head || deliveries[before].cycle <= d.cycle) break;
      deliveries[at] = deliveries[before];
      at = before;
    }
    deliveries[at] = d;
  }
  std::vector<uint32_t> delivered;  // outputs, by the last advance()

  std::vector<CrossbarRequest> requests, granted;  // per-cycle scratch
  uint64_t now = 0;                                // the first cycle not yet advanced through
  uint64_t next_grant = kNever;
};

CrossbarStats::CrossbarStats(StatGroup& parent, std::string name, uint32_t inputs, uint32_t outputs)
    : StatGroup(parent, std::move(name)),
      packets(*this, "packets", "packets", "packets granted, per input", inputs),
      bytes(*this, "bytes", "bytes", "wire bytes granted, per input", inputs),
      busy_cycles(*this, "busy_cycles", "cycles", "cycles each input transmitted", inputs),
      conflict_cycles(*this, "conflict_cycles", "cycles",
                      "cycles each input's oldest packet waited while its output served another "
                      "input",
                      inputs),
      blocked_cycles(*this, "blocked_cycles", "cycles",
                     "cycles each input's oldest packet waited because its output's buffer was "
                     "full (backpressure)",
                     inputs),
      delivered_packets(*this, "delivered_packets", "packets", "packets delivered, per output",
                        outputs),
      delivered_bytes(*this, "delivered_bytes", "bytes", "wire bytes delivered, per output",
                      outputs),
      output_busy_cycles(*this, "output_busy_cycles", "cycles", "cycles each output received",
                         outputs) {}

Crossbar::Crossbar(const CrossbarConfig& config, uint32_t inputs, uint32_t outputs,
                   bool request_direction, StatGroup& stats_parent, const std::string& prefix) {
  if (const std::string why = config.problem(prefix); !why.empty()) throw ConfigError(why);
  if (inputs == 0 || outputs == 0) {
    throw ModelError(prefix, "a crossbar needs at least one input and one output");
  }
  front_ready_.assign(outputs, kNever);
  impl_ = std::make_unique<Impl>(config, inputs, outputs, request_direction, stats_parent, prefix,
                                 front_ready_);
}

Crossbar::~Crossbar() = default;

bool Crossbar::can_accept(uint32_t input) const {
  return input < impl_->inputs && impl_->in_ports[input].free_count > 0;
}

void Crossbar::push(uint32_t input, uint32_t output, const MemPacket& packet, uint64_t cycle) {
  impl_->check_output(output);
  if (!can_accept(input)) {
    throw ModelError(impl_->prefix,
                     input < impl_->inputs
                         ? "push into input " + std::to_string(input) + ", whose buffer is full"
                         : "input " + std::to_string(input) + " out of range");
  }
  impl_->push(input, output, packet, cycle);
}

uint64_t Crossbar::next_event() const {
  const Impl& x = *impl_;
  const uint64_t delivery = x.delivery_count == 0 ? kNever : x.deliveries[x.delivery_head].cycle;
  return std::min(impl_->next_grant, delivery);
}

void Crossbar::advance(uint64_t until) {
  impl_->advance(until);
}

void Crossbar::no_output(uint32_t output) const {
  throw impl_->no_such_output(output);
}

const MemPacket& Crossbar::front(uint32_t output) const {
  impl_->check_output(output);
  const Impl::Arrival* front = impl_->front(output);
  if (front == nullptr) {
    throw ModelError(impl_->prefix,
                     "front() of output " + std::to_string(output) + ", which holds no packet");
  }
  return front->packet;
}

void Crossbar::pop(uint32_t output) {
  impl_->check_output(output);
  Impl& x = *impl_;
  const Impl::Arrival* front = x.front(output);
  if (front == nullptr || front->ready >= x.now) {
    throw ModelError(x.prefix, "pop() of output " + std::to_string(output) +
                                   " before advance() delivered a packet there");
  }
  const bool was_full = x.full(output);
  if (was_full && x.now > 0) x.settle_output(output, x.now - 1);  // not full from x.now
  const uint32_t head = x.out_ports[output].head + 1;
  x.out_ports[output].head = head == x.config.output_buffer ? 0 : head;
  --x.out_ports[output].count;
  front_ready_[output] = x.out_ports[output].count == 0 ? kNever : x.front(output)->ready;
  if (was_full) x.next_grant = std::min(x.next_grant, x.grant_cycle(output));
}

const std::vector<uint32_t>& Crossbar::delivered() const {
  return impl_->delivered;
}

uint32_t Crossbar::wire_bytes(const MemPacket& packet) const {
  return impl_->wire_bytes(packet);
}
const CrossbarStats& Crossbar::stats() const {
  impl_->settle_all();
  return impl_->stats;
}
uint64_t Crossbar::granted(uint32_t input) const {
  return impl_->stats.packets[input];
}

}  // namespace gpusoc::xbar
