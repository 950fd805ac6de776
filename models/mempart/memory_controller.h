// One DRAM channel's memory controller: read and write queues, a command scheduler chosen by
// name, a page policy, write draining between watermarks, and refresh, issuing commands to a
// DramChannel (dram_channel.h), which says when each may go. Pure C++ and event-driven: the
// caller asks when something next happens and advances to it; no work is done for idle cycles.
//
// Contract:
//  - enqueue() takes a request when can_accept() says so (the queues are bounded; a full queue
//    is the caller's backpressure).
//  - advance(until) issues every command due at cycles <= until, in cycle order, at the earliest
//    cycle the channel and the policies allow, and appends the requests whose data completed by
//    then to `done` (a read completes when its last data beat leaves the device, a write when
//    its data is written).
//  - next_event() is the first cycle at which advance() would do anything (a command issue or a
//    completion); kNever when the controller is idle and needs no refresh.
//  - Every issued command is passed to the observer, if one is set (the independent timing
//    checker in tests, a tracer in tools).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/counter_vector.h"
#include "models/common/registry.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/mempart/address_mapping.h"
#include "models/mempart/dram_channel.h"
#include "models/mempart/dram_command.h"

namespace gpusoc::mempart {

struct MemRequest {
  uint64_t id = 0;
  bool write = false;
  uint32_t rank = 0, bank_group = 0, bank = 0, row = 0, column = 0;
  uint64_t arrival = 0;  // cycle it entered the controller
  uint32_t source = 0;   // the requester it was made for (an SM's or a trace's port), for
                         // schedulers that tell requesters apart
};

struct MemCompletion {
  uint64_t id;
  uint64_t cycle;  // data done
};

struct ControllerConfig {
  PolicyChoice scheduler = "frfcfs";  // dram_schedulers(): "fcfs", "frfcfs", "bliss"
  PolicyChoice page_policy = "open";  // "open" (rows stay open) or "closed" (auto-precharge
                                      // when no queued request hits the row)
  uint32_t read_queue = 32, write_queue = 32;  // entries
  uint32_t write_high = 24, write_low = 8;     // start draining writes at high, stop at low
  PolicyChoice refresh = "all_bank";  // refresh_policies(): "all_bank" (REF) or "per_bank" (REFpb)
  /// What is wrong, naming `prefix`.key (unknown names, watermarks out of order, ...).
  std::string problem(const std::string& prefix) const;
};

/// Which queued request goes next (policy by name; dram_scheduler.cpp): the scheduler ranks each
/// request of the served queue into a class, lower first; within a class, older first. The
/// controller serves, per bank, the request of least (class, age) (it speaks for the bank: later
/// ones to that bank wait), and among the banks the one whose next command may go soonest (ties:
/// least (class, age)). So the scheduler picks from the whole queue, and the controller keeps
/// planning incremental: it asks for a request's class when the request arrives, when younger row
/// hits bypass it, and, for every queued request, whenever served() says the scheduler's own state
/// changed the ranking (a policy that tracks requesters, as BLISS does).
class DramScheduler {
 public:
  virtual ~DramScheduler() = default;
  virtual const char* name() const = 0;
  /// `row_hit`: the bank would hold the request's row open; `bypassed`: how many younger
  /// requests to its bank were served as row hits before it. (Asked for both values of row_hit:
  /// the answer may depend on nothing else that changes while the request waits, except the
  /// scheduler's state that served() reports.)
  virtual uint8_t urgency(const MemRequest& request, bool row_hit, uint32_t bypassed) const = 0;
  /// The column command of `request` issued at `cycle`. True when that changed the class of some
  /// queued requests: the controller then asks again for all of them.
  virtual bool served(const MemRequest& request, uint64_t cycle) {
    (void)request, (void)cycle;
    return false;
  }
};
using DramSchedulerRegistry = Registry<DramScheduler>;
/// The schedulers memory.controller.scheduler names: fcfs, frfcfs, bliss.
DramSchedulerRegistry& dram_schedulers();

/// Whether a bank's row stays open after its last queued request.
class PagePolicy {
 public:
  virtual ~PagePolicy() = default;
  virtual const char* name() const = 0;
  /// Close the row (auto-precharge) when no queued request wants it any more.
  virtual bool closes_idle_rows() const = 0;
};
using PagePolicyRegistry = Registry<PagePolicy>;
/// The policies memory.controller.page_policy names: open, closed.
PagePolicyRegistry& page_policies();

/// How a channel meets its refresh obligation: which command refreshes what, and how often. The
/// controller issues an owed refresh before any request of its rank (memory_controller.cpp).
class RefreshPolicy {
 public:
  virtual ~RefreshPolicy() = default;
  virtual const char* name() const = 0;
  /// Why the device cannot be refreshed so (no per-bank refresh: tRFCpb 0); empty when it can.
  virtual std::string unsupported(const DramTiming& timing) const {
    (void)timing;
    return {};
  }
  /// One bank per command (REFpb, the banks in turn) rather than the whole rank (REF).
  virtual bool per_bank() const = 0;
  /// Cycles between a rank's refresh commands: tREFI for all-bank, tREFI / banks per bank.
  virtual uint64_t interval(const DramTiming& timing) const = 0;
};
using RefreshPolicyRegistry = Registry<RefreshPolicy>;
/// The policies memory.controller.refresh names: all_bank, per_bank.
RefreshPolicyRegistry& refresh_policies();

struct ControllerStats : StatGroup {
  /// `banks`: the channel's banks (rank-major, then bank group, then bank).
  ControllerStats(StatGroup& parent, std::string name, size_t banks);
  Counter reads{*this, "reads", "bursts", "read bursts served (RD, RDA)"};
  Counter writes{*this, "writes", "bursts", "write bursts served (WR, WRA)"};
  Counter row_hits{*this, "row_hits", "bursts", "column commands to a row already open"};
  Counter row_misses{*this, "row_misses", "bursts",
                     "column commands whose bank was closed (one ACT first)"};
  Counter row_conflicts{*this, "row_conflicts", "bursts",
                        "column commands whose bank held another row (PRE and ACT first)"};
  Counter activates{*this, "activates", "commands", "ACT commands"};
  Counter precharges{*this, "precharges", "commands", "PRE, PREA, RDA and WRA commands"};
  Counter refreshes{*this, "refreshes", "commands", "REF or REFpb commands"};
  Counter read_write_turnarounds{*this, "read_write_turnarounds", "turnarounds",
                                 "direction changes between column commands on the data bus"};
  Counter data_cycles{*this, "data_cycles", "cycles", "DRAM cycles the data bus carried data"};
  Counter read_latency_cycles{*this, "read_latency_cycles", "cycles",
                              "sum over reads of the cycles from arrival to the last data beat"};
  CounterVector bank_columns;    // RD, RDA, WR, WRA per bank
  CounterVector bank_activates;  // ACT per bank
  Formula row_hit_rate;
  Formula read_latency_avg;
};

class MemoryController {
 public:
  static constexpr uint64_t kNever = ~uint64_t(0);
  /// ConfigError naming `prefix`.key when the config is wrong (or asks per-bank refresh of a
  /// device without it). Statistics go in `stats_parent`.`stats_name`.
  MemoryController(const DramTiming& timing, const ControllerConfig& config,
                   StatGroup& stats_parent, const std::string& stats_name,
                   const std::string& prefix = "memory.controller");  // keeps a copy of timing
  /// Shares `timing` with the other controllers of a memory system (DramChannel says why).
  MemoryController(std::shared_ptr<const DramTiming> timing, const ControllerConfig& config,
                   StatGroup& stats_parent, const std::string& stats_name,
                   const std::string& prefix = "memory.controller");
  ~MemoryController();
  // Move-constructible (a partition keeps its controllers in a vector), not copyable: its queues
  // point into its own heap storage, which a move keeps.
  MemoryController(const MemoryController&) = delete;
  MemoryController& operator=(const MemoryController&) = delete;
  MemoryController(MemoryController&&) noexcept = default;
  // Not assignable: the target's statistics group would leave the tree.
  MemoryController& operator=(MemoryController&&) = delete;

  bool can_accept(bool write) const { return room(write) > 0; }
  uint32_t room(bool write) const;          // free entries of the read or write queue
  void enqueue(const MemRequest& request);  // request.arrival >= every earlier one
  uint64_t next_event() const {
    if (!plan_valid_) compute_plan();
    return std::min(plan_.cycle, first_completion());
  }
  void advance(uint64_t until, std::vector<MemCompletion>& done) {
    // Inline: a partition advances every channel it finds due, and most have nothing due yet.
    if (plan_valid_ && plan_.cycle > until && first_completion() > until) {
      passed(until);
    } else {
      run_until(until, done);
    }
  }
  void set_command_observer(std::function<void(const DramCommand&)> observer);

  const ControllerStats& stats() const { return *stats_; }
  const DramChannel& channel() const { return channel_; }

 private:
  struct Slot {  // a queued request
    MemRequest request;
    uint64_t seq = 0;       // arrival order
    uint32_t bank = 0;      // bank_index() of the request
    uint32_t bypassed = 0;  // younger row hits to its bank served before it
    // The scheduler's class were its bank to hold its row open ([1]) or not ([0]), taken when
    // it arrives and again when it is bypassed, so that planning makes no calls for it.
    uint8_t urgency[2] = {};
    uint8_t outcome = 0;  // what its bank needed so far (Outcome bits)
  };
  // Per queue and bank: the requests to it and the one that speaks for it, chosen again only
  // when a command to the bank or an arrival for it changed them (incremental planning).
  struct Candidate {
    uint32_t queued = 0;                               // requests to it (Queue::queued_of)
    int32_t slot = -1;                                 // the one speaking for the bank; none: -1
    DramCommandKind kind = DramCommandKind::Activate;  // its next command
  };
  struct Queue {
    uint32_t size = 0, capacity = 0;
    std::vector<Slot> slots;  // `capacity` of them
    std::vector<uint32_t> free;
    mutable std::vector<Candidate> candidates;  // per bank, brought up to date by planning
    // Per bank, `capacity` entries of which the first Candidate::queued hold the slots of the
    // requests to it in arrival order (one block: planning walks them often).
    std::vector<uint32_t> queued;
    uint32_t* queued_of(uint32_t bank) { return &queued[size_t(bank) * capacity]; }
    const uint32_t* queued_of(uint32_t bank) const { return &queued[size_t(bank) * capacity]; }
    // Banks whose candidate is to be chosen again, a bit each: set by every command to the bank
    // in both queues, so both queues' words share one block (stale_words_), which stays cached.
    uint64_t* stale = nullptr;
    uint32_t stale_words = 0;
    bool is_stale(uint32_t bank) const { return stale[bank >> 6] >> (bank & 63) & 1; }
    void mark_stale(uint32_t bank) const { stale[bank >> 6] |= uint64_t(1) << (bank & 63); }
    void clear_stale(uint32_t bank) const { stale[bank >> 6] &= ~(uint64_t(1) << (bank & 63)); }
    // What planning scans, per bank (apart, so that the scan is a tight loop): the candidate's
    // key ((urgency, seq, bank), the least the most urgent; ~0 for none), the earliest cycle of its
    // next command by its bank's own constraints and its arrival (kNever for none), and the entry
    // of DramChannel::shared_table() that holds the rest.
    mutable std::vector<uint64_t> key, own;
    mutable std::vector<uint32_t> shared;
  };
  struct Refresh {          // per rank
    uint64_t due = kNever;  // the next REF (or REFpb) is owed from this cycle
    uint32_t bank = 0;      // per-bank refresh: the bank it goes to (rank-local index)
  };
  // The next command and when: valid until a command issues or a request arrives.
  struct Plan {
    uint64_t cycle = kNever;
    DramCommand command;
    bool refresh = false;  // else it serves a request:
    bool write = false;    // of the write queue, in
    uint32_t slot = 0;
    uint64_t key = 0;  // refresh 0, a request 1 + its candidate's key: the least wins a tie
    uint64_t now = 0;  // planned from this cycle on
  };

  static bool is_read(DramCommandKind k) {
    return k == DramCommandKind::Read || k == DramCommandKind::ReadPrecharge;
  }
  static bool is_column(DramCommandKind k) {
    return is_read(k) || k == DramCommandKind::Write || k == DramCommandKind::WritePrecharge;
  }
  void compute_plan() const;
  void run_until(uint64_t until, std::vector<MemCompletion>& done);
  uint64_t first_completion() const {
    return in_flight_head_ < in_flight_.size() ? in_flight_[in_flight_head_].cycle : kNever;
  }
  // advance() through `until` with nothing due: the plan, first cycle > until, stays valid from
  // the later start.
  void passed(uint64_t until) {
    if (until != kNever) now_ = std::max(now_, until + 1);
    plan_.now = std::max(plan_.now, now_);
  }
  Plan plan_at(uint64_t now) const;
  void choose(const Queue& q, uint32_t bank) const;
  void offer(const Queue& q, uint32_t bank, bool owed, Plan& best) const;
  void make_plan(const Queue& q, uint32_t bank, uint64_t at, uint64_t key, Plan& plan) const;
  void touched(uint32_t bank);
  bool refresh_owed(uint64_t now) const;
  bool refresh_holds(const MemRequest& r, uint64_t now) const;
  bool serving_writes() const { return writes_.size != 0 && (draining_ || reads_.size == 0); }
  void take_urgencies(Slot& s) const {
    s.urgency[0] = scheduler_->urgency(s.request, false, s.bypassed);
    s.urgency[1] = scheduler_->urgency(s.request, true, s.bypassed);
  }
  void rank_again();  // every queued request's classes, after the scheduler's state changed
  void issue(const Plan& plan);
  void serve(Queue& q, uint32_t slot, DramCommand& c, uint64_t data_end);
  bool row_wanted(const Slot& s) const;
  size_t bank_index(uint32_t rank, uint32_t bank_group, uint32_t bank) const {
    const DramTiming& t = channel_.timing();
    return (size_t(rank) * t.bank_groups + bank_group) * t.banks_per_group + bank;
  }

  // What every command and every "anything due?" check reads comes first, together: 64
  // controllers share the host's L1 cache, and a visit finds its controller cold.
  mutable Plan plan_;
  mutable bool plan_valid_ = false;
  bool draining_ = false;        // writes are served until the write queue falls to write_low
  bool auto_precharge_ = false;  // closed page
  int last_column_write_ = -1;   // direction of the last column command (-1: none yet)
  uint64_t now_ = 0;  // the first cycle a command may still issue at (one command per cycle)
  uint64_t refresh_due_ = kNever;  // the least Refresh::due: planning's fast test for refresh
  size_t in_flight_head_ = 0;
  std::vector<MemCompletion> in_flight_;  // in data order (bursts take the bus in issue order)
  std::vector<uint64_t> stale_words_;     // Queue::stale of reads_, then of writes_
  // A candidate's key is (urgency << 56 | seq << bank_bits_ | bank): the bank rides in the low
  // bits, below the arrival order, so that planning's scan need not carry it apart.
  unsigned bank_bits_ = 0;
  uint32_t banks_per_rank_ = 0;
  uint64_t bank_mask_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t last_arrival_ = 0;
  std::function<void(const DramCommand&)> observer_;
  Queue reads_, writes_;
  DramChannel channel_;
  std::unique_ptr<ControllerStats> stats_;  // apart: a controller moves, a StatGroup does not
  std::vector<Refresh> refresh_;
  uint64_t refresh_interval_ = 0;  // per rank (RefreshPolicy::interval)
  bool per_bank_refresh_ = false;  // RefreshPolicy::per_bank
  std::unique_ptr<DramScheduler> scheduler_;
  ControllerConfig config_;
};

}  // namespace gpusoc::mempart
