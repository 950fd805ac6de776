// One network of the crossbar (the request network from SM ports to L2 slices, or the reply
// network back): every input can reach every output through a switch whose allocation an
// arbiter chosen by name decides. Pure C++, cycle-counted in the crossbar's clock; the caller
// asks when something next happens and advances to it, so idle cycles cost nothing.
//
// Contract:
//  - Each input has a bounded FIFO buffer (input_buffer packets); push() when can_accept().
//    Under an arbiter with virtual_output_queues() (iSLIP) the buffer is shared by one queue
//    per output, so packets leave in order per (input, output) pair, not per input.
//  - Each cycle, the arbiter matches inputs whose head packet waits to outputs that are free
//    (not still transmitting an earlier packet) and have room in their output buffer (counting
//    packets already on their way to it): at most one packet per input and one per output.
//  - A granted packet occupies its input and its output for ceil(wire_bytes / width_bytes)
//    cycles (its serialization), and appears in its output's buffer `latency` cycles after its
//    last cycle on the switch: granted at c with s serialization cycles, it is ready at
//    c + s - 1 + latency (latency >= 1).
//  - Each output has a bounded FIFO buffer (output_buffer packets) the receiver drains with
//    ready()/front()/pop() when it can take the packet: a receiver that cannot take it leaves
//    it there, which stops grants to that output, which fills the inputs, which refuses pushes:
//    backpressure all the way back, and no queue grows without bound.
//  - A packet pushed at cycle c may be granted at c at the earliest (at the first cycle not yet
//    advanced through, if c is earlier). A granted packet frees its input buffer slot.
//  - next_event() is the first cycle at which advance() would grant or deliver something;
//    kNever when it never would without a push or a pop.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/counter_vector.h"
#include "models/common/mem_packet.h"
#include "models/common/registry.h"
#include "models/common/stat_group.h"

namespace gpusoc::xbar {

struct CrossbarConfig {
  uint32_t width_bytes = 32;    // per port per cycle
  uint32_t latency = 2;         // cycles from the switch to the output buffer (>= 1)
  uint32_t input_buffer = 8;    // packets per input (>= 1)
  uint32_t output_buffer = 4;   // packets per output (>= 1)
  uint32_t header_bytes = 8;    // every packet's header; data follows it on the wire
  PolicyChoice arbiter = "rr";  // "rr" (round-robin per output), "islip", ...
  /// What is wrong, naming `prefix`.key; empty when nothing is.
  std::string problem(const std::string& prefix) const;
};

/// One (input, output) pair an arbiter may match in a cycle.
struct CrossbarRequest {
  uint32_t input;
  uint32_t output;
};

/// Decides which waiting inputs get which outputs in a cycle (policy by name).
class CrossbarArbiter {
 public:
  virtual ~CrossbarArbiter() = default;
  virtual const char* name() const = 0;
  /// `wants[i]`: the output input i's head packet asks for, or kNone. `free[o]`: output o may
  /// take a packet this cycle. Writes into grant[i] the output granted to input i, or kNone:
  /// each output granted at most once, only to an input that wants it, only when free.
  /// Deterministic; may keep pointer state between calls. (The dense form of match_requests.)
  void match(const std::vector<uint32_t>& wants, const std::vector<uint8_t>& free,
             std::vector<uint32_t>& grant);
  /// The sparse form the crossbar calls each cycle, costing O(requests): `requests` are the
  /// pairs whose output is free and whose input is idle, in any order, each pair at most once,
  /// and at most one per input unless virtual_output_queues(). Appends the matched pairs to
  /// `granted` (at most one per input and per output) without allocating once its capacity
  /// is min(inputs, outputs).
  virtual void match_requests(const std::vector<CrossbarRequest>& requests,
                              std::vector<CrossbarRequest>& granted) = 0;
  /// Whether each input offers the oldest packet for every output (virtual output queues, as
  /// iSLIP assumes) rather than only its oldest packet (one FIFO, head-of-line blocking).
  virtual bool virtual_output_queues() const { return false; }
  static constexpr uint32_t kNone = ~uint32_t(0);
};
using ArbiterRegistry = Registry<CrossbarArbiter, uint32_t, uint32_t>;
/// The arbiters xbar.arbiter names (rr, islip), built for (inputs, outputs).
ArbiterRegistry& crossbar_arbiters();

/// One network's statistics, per port: inputs' grants and waits, outputs' deliveries.
struct CrossbarStats : StatGroup {
  CrossbarStats(StatGroup& parent, std::string name, uint32_t inputs, uint32_t outputs);
  CounterVector packets;             // per input: granted
  CounterVector bytes;               // per input: wire bytes granted
  CounterVector busy_cycles;         // per input: cycles transmitting (counted at the grant)
  CounterVector conflict_cycles;     // per input: the head packet (the input's oldest) waited while
                                     // its output was granted to another input or still
                                     // transmitting (its input idle, its output not full)
  CounterVector blocked_cycles;      // per input: the head packet waited because its output's
                                     // buffer was full (backpressure from the receiver)
  CounterVector delivered_packets;   // per output
  CounterVector delivered_bytes;     // per output: wire bytes
  CounterVector output_busy_cycles;  // per output: cycles receiving (counted at the grant)
};

class Crossbar {
 public:
  static constexpr uint64_t kNever = ~uint64_t(0);
  /// `request_direction`: whether packets carry their request data (writes, atomics) or their
  /// reply data (reads, atomics) on the wire. ConfigError naming `prefix`.key on a bad config.
  /// Statistics go in `stats_parent`.requests or .replies, by direction.
  Crossbar(const CrossbarConfig& config, uint32_t inputs, uint32_t outputs, bool request_direction,
           StatGroup& stats_parent, const std::string& prefix = "xbar");
  ~Crossbar();
  Crossbar(const Crossbar&) = delete;  // its state refers to front_ready_
  Crossbar& operator=(const Crossbar&) = delete;

  bool can_accept(uint32_t input) const;
  /// ModelError when the input is full or an index is out of range.
  void push(uint32_t input, uint32_t output, const MemPacket& packet, uint64_t cycle);
  uint64_t next_event() const;
  /// Grants and deliveries for every cycle up to and including `until`, in cycle order.
  void advance(uint64_t until);

  /// The output's oldest delivered packet, if one is ready by `cycle`. Inline: receivers ask
  /// often.
  bool ready(uint32_t output, uint64_t cycle) const {
    if (output >= front_ready_.size()) no_output(output);
    return front_ready_[output] <= cycle;
  }
  const MemPacket& front(uint32_t output) const;
  /// ModelError unless advance() has gone through the front packet's ready cycle.
  void pop(uint32_t output);
  /// The outputs where the last advance() made packets ready, one entry per packet, so that a
  /// receiver need not poll every output.
  const std::vector<uint32_t>& delivered() const;

  uint32_t wire_bytes(const MemPacket& packet) const;
  /// Brings the waiting cycles up to date first (they are charged when a wait ends).
  const CrossbarStats& stats() const;
  /// stats().packets[input], without bringing the waiting cycles up to date.
  uint64_t granted(uint32_t input) const;

 private:
  [[noreturn]] void no_output(uint32_t output) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<uint64_t> front_ready_;  // per output: its oldest packet's ready cycle, or kNever
};

}  // namespace gpusoc::xbar
