// MemoryController: queues, write draining, page policy and refresh around a DramChannel.
// The controller keeps one plan, the next command and its cycle: over the banks of the served
// queue, the request speaking for each (least urgency class, then oldest) whose next command may
// go soonest wins (ties: the more urgent). Refresh comes before requests. A plan stays valid until
// a command issues or a request arrives, so idle cycles cost nothing. Planning is incremental: each
// bank's candidate (its request, next command, and when the bank's own constraints allow it) is
// kept until a command to that bank or an arrival for it; the constraints banks share (tRRD,
// tFAW, tCCD, tWTR, the data bus) are kept once per bank group, updated by the commands that move
// them; so a plan is one branch-free scan over the banks.
#include "models/mempart/memory_controller.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/error.h"

namespace gpusoc::mempart {
namespace {

constexpr const char* kModule = "memory controller";
using K = DramCommandKind;

// What a request's bank needed before its column command (for the row hit statistics).
enum Outcome : uint8_t { kHit = 0, kMiss = 1, kConflict = 2 };

struct PagePolicy {
  const char* name;
  bool auto_precharge;  // close the row after the last queued request to it
};
const PagePolicy kPagePolicies[] = {{"open", false}, {"closed", true}};

const PagePolicy* find_page_policy(const std::string& name) {
  for (const PagePolicy& p : kPagePolicies) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

bool is_read(K k) {
  return k == K::Read || k == K::ReadPrecharge;
}

bool is_column(K k) {
  return is_read(k) || k == K::Write || k == K::WritePrecharge;
}

}  // namespace

const std::vector<std::string>& page_policy_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const PagePolicy& p : kPagePolicies) v.emplace_back(p.name);
    return v;
  }();
  return names;
}

std::string ControllerConfig::problem(const std::string& prefix) const {
  const auto& schedulers = dram_scheduler_names();
  if (std::find(schedulers.begin(), schedulers.end(), scheduler) == schedulers.end()) {
    return fmt::format("{}.scheduler: unknown scheduler '{}' (known: {})", prefix, scheduler,
                       fmt::join(schedulers, ", "));
  }
  if (!find_page_policy(page_policy)) {
    return fmt::format("{}.page_policy: unknown page policy '{}' (known: {})", prefix, page_policy,
                       fmt::join(page_policy_names(), ", "));
  }
  if (read_queue == 0) return prefix + ".read_queue must be at least 1";
  if (write_queue == 0) return prefix + ".write_queue must be at least 1";
  if (write_high == 0 || write_high > write_queue) {
    return fmt::format("{}.write_high must be in 1..{}.write_queue ({}) (it is {})", prefix, prefix,
                       write_queue, write_high);
  }
  if (write_low >= write_high) {
    return fmt::format("{}.write_low must be below {}.write_high ({}) (it is {})", prefix, prefix,
                       write_high, write_low);
  }
  if (starvation_cap == 0) return prefix + ".starvation_cap must be at least 1";
  return {};
}

MemoryController::MemoryController(const DramTiming& timing, const ControllerConfig& config,
                                   const std::string& prefix)
    : config_(config), channel_(timing) {
  if (const std::string why = config.problem(prefix); !why.empty()) throw ConfigError(why);
  if (config.per_bank_refresh && timing.tRFCpb == 0) {
    throw ConfigError(fmt::format("{}.per_bank_refresh: {} has no per-bank refresh (tRFCpb 0)",
                                  prefix, timing.name));
  }
  auto_precharge_ = find_page_policy(config.page_policy)->auto_precharge;
  scheduler_ = make_dram_scheduler(config.scheduler, config.starvation_cap);
  banks_per_rank_ = timing.banks();
  const size_t banks = size_t(timing.ranks) * banks_per_rank_;
  reads_.capacity = config.read_queue;
  writes_.capacity = config.write_queue;
  for (Queue* q : {&reads_, &writes_}) {
    q->slots.resize(q->capacity);
    for (uint32_t i = q->capacity; i-- > 0;) q->free.push_back(i);
    q->candidates.resize(banks);
    for (Candidate& c : q->candidates) c.queued.reserve(q->capacity);
    q->stale.reserve(banks);
    q->key.assign(banks, ~0ull);
    q->own.assign(banks, kNever);
    q->shared.assign(banks, 0);
  }
  stats_.bank_columns.resize(banks);
  stats_.bank_activates.resize(banks);
  shared_.resize(size_t(timing.ranks) * timing.bank_groups * 4);
  for (uint32_t rank = 0; rank < timing.ranks; ++rank) {
    for (K kind : {K::Activate, K::Read}) update_shared(kind, rank);
  }
  refresh_interval_ = config.per_bank_refresh ? timing.tREFI / timing.banks() : timing.tREFI;
  refresh_.resize(timing.ranks);
  for (Refresh& r : refresh_) r.due = refresh_interval_ ? refresh_interval_ : kNever;
}

MemoryController::~MemoryController() = default;

uint32_t MemoryController::room(bool write) const {
  const Queue& q = write ? writes_ : reads_;
  return q.capacity - q.size;
}

void MemoryController::enqueue(const MemRequest& request) {
  const DramTiming& t = channel_.timing();
  if (!can_accept(request.write)) {
    throw ModelError(kModule, fmt::format("request {}: the {} queue is full", request.id,
                                          request.write ? "write" : "read"));
  }
  if (request.rank >= t.ranks || request.bank_group >= t.bank_groups ||
      request.bank >= t.banks_per_group || request.row >= t.rows || request.column >= t.columns) {
    throw ModelError(kModule, fmt::format("request {}: rank {} bank group {} bank {} row {} column "
                                          "{} is outside {}",
                                          request.id, request.rank, request.bank_group,
                                          request.bank, request.row, request.column, t.name));
  }
  if (request.arrival < last_arrival_) {
    throw ModelError(kModule, fmt::format("request {} arrives at {}, before an earlier one ({})",
                                          request.id, request.arrival, last_arrival_));
  }
  last_arrival_ = request.arrival;
  const bool served_writes = serving_writes();
  Queue& q = request.write ? writes_ : reads_;
  const uint32_t index = q.free.back();
  q.free.pop_back();
  ++q.size;
  Slot& s = q.slots[index];
  s.request = request;
  s.seq = next_seq_++;
  s.bank = uint32_t(bank_index(request.rank, request.bank_group, request.bank));
  s.bypassed = 0;
  s.outcome = kHit;
  s.urgency = kUnknown;
  Candidate& c = q.candidates[s.bank];
  c.queued.push_back(index);
  if (!c.stale) c.stale = true, q.stale.push_back(s.bank);
  if (request.write && writes_.size >= config_.write_high) draining_ = true;
  if (!plan_valid_ || request.write != served_writes) {
    // Planned afresh, unless the plan served the other queue and still does.
    plan_valid_ = plan_valid_ && serving_writes() == served_writes;
    return;
  }
  // Only this bank's candidate changed: unless it was the plan, or a refresh falling due made
  // compute_plan() plan from a later cycle than now_, the plan is the sooner of the two.
  if (plan_.now != now_ ||
      (!plan_.refresh && plan_.cycle != kNever && q.slots[plan_.slot].bank == s.bank)) {
    plan_valid_ = false;
    return;
  }
  offer(q, s.bank, refresh_owed(plan_.now), plan_);
}

void MemoryController::set_command_observer(std::function<void(const DramCommand&)> observer) {
  observer_ = std::move(observer);
}

uint64_t MemoryController::next_event() const {
  compute_plan();
  const uint64_t done =
      in_flight_head_ < in_flight_.size() ? in_flight_[in_flight_head_].cycle : kNever;
  return std::min(plan_.cycle, done);
}

void MemoryController::advance(uint64_t until, std::vector<MemCompletion>& done) {
  for (compute_plan(); plan_.cycle <= until; compute_plan()) issue(plan_);
  while (in_flight_head_ < in_flight_.size() && in_flight_[in_flight_head_].cycle <= until) {
    done.push_back(in_flight_[in_flight_head_++]);
  }
  if (in_flight_head_ == in_flight_.size() || in_flight_head_ >= 64) {
    in_flight_.erase(in_flight_.begin(), in_flight_.begin() + ptrdiff_t(in_flight_head_));
    in_flight_head_ = 0;
  }
  // The plan (first cycle > until) stays valid from the later start.
  if (until != kNever) now_ = std::max(now_, until + 1);
  plan_.now = std::max(plan_.now, now_);
}

bool MemoryController::serving_writes() const {
  return writes_.size != 0 && (draining_ || reads_.size == 0);
}

void MemoryController::compute_plan() const {
  if (plan_valid_) return;
  // A refresh falling due before the plan's cycle holds its banks back: plan again from then.
  for (uint64_t now = now_;;) {
    plan_ = plan_at(now);
    uint64_t due = kNever;
    for (const Refresh& r : refresh_) {
      if (r.due > now) due = std::min(due, r.due);
    }
    if (due > plan_.cycle) break;
    now = due;
  }
  plan_valid_ = true;
}

bool MemoryController::refresh_owed(uint64_t now) const {
  for (const Refresh& f : refresh_) {
    if (f.due <= now) return true;
  }
  return false;
}

// Whether a refresh owed at `now` holds r's bank (the whole rank for REF).
bool MemoryController::refresh_holds(const MemRequest& r, uint64_t now) const {
  const Refresh& f = refresh_[r.rank];
  if (f.due > now) return false;
  return !config_.per_bank_refresh ||
         f.bank == r.bank_group * channel_.timing().banks_per_group + r.bank;
}

// A command went to `bank` (flat index): its candidates in both queues are chosen again.
void MemoryController::touched(uint32_t bank) {
  for (Queue* q : {&reads_, &writes_}) {
    Candidate& c = q->candidates[bank];
    if (!c.stale) c.stale = true, q->stale.push_back(bank);
  }
}

// Where shared_ keeps DramChannel::shared_ready(kind, rank, bank_group).
uint32_t MemoryController::shared_index(K kind, uint32_t rank, uint32_t bank_group) const {
  const uint32_t cls = kind == K::Activate ? 0 : kind == K::Precharge ? 1 : is_read(kind) ? 2 : 3;
  return (rank * channel_.timing().bank_groups + bank_group) * 4 + cls;
}

// A command moved shared constraints: ACT those of ACT in `rank`, REF those of ACT and PRE, a
// column command those of RD and WR in every rank (the data bus is the channel's).
void MemoryController::update_shared(K kind, uint32_t rank) {
  const DramTiming& t = channel_.timing();
  const bool column = is_column(kind);
  const K kinds[2] = {column ? K::Read : K::Activate, column ? K::Write : K::Precharge};
  const size_t count = kind == K::Activate ? 1 : 2;
  for (uint32_t r = column ? 0 : rank; r < (column ? t.ranks : rank + 1); ++r) {
    for (uint32_t bg = 0; bg < t.bank_groups; ++bg) {
      for (size_t i = 0; i < count; ++i) {
        shared_[shared_index(kinds[i], r, bg)] = channel_.shared_ready(kinds[i], r, bg);
      }
    }
  }
}

// Chooses again the request that speaks for `bank` (flat index) in q.
void MemoryController::choose(const Queue& q, uint32_t bank) const {
  Candidate& c = q.candidates[bank];
  c.stale = false;
  c.slot = -1;
  q.key[bank] = ~0ull;
  q.own[bank] = kNever;
  const uint32_t rank = bank / banks_per_rank_;
  const uint32_t local = bank % banks_per_rank_;
  const uint32_t bg = local / channel_.timing().banks_per_group;
  const uint32_t bk = local % channel_.timing().banks_per_group;
  const bool open = channel_.is_open(rank, bg, bk);
  const uint32_t row = channel_.open_row(rank, bg, bk);
  const bool changed = open != c.open || row != c.row;
  c.open = open, c.row = row;
  for (uint32_t i : c.queued) {
    Slot& s = q.slots[i];
    const bool hit = open && row == s.request.row;
    if (changed || s.urgency == kUnknown) s.urgency = scheduler_->urgency(hit, s.bypassed);
    const uint64_t key = uint64_t(s.urgency) << 56 | s.seq;
    if (key >= q.key[bank]) continue;
    c.slot = int32_t(i), q.key[bank] = key;
    c.kind = !open ? K::Activate : !hit ? K::Precharge : s.request.write ? K::Write : K::Read;
  }
  if (c.slot < 0) return;
  const MemRequest& r = q.slots[uint32_t(c.slot)].request;
  q.own[bank] = std::max(channel_.bank_ready(c.kind, rank, bg, bk), r.arrival);
  q.shared[bank] = shared_index(c.kind, rank, bg);
}

MemoryController::Plan MemoryController::plan_at(uint64_t now) const {
  const DramTiming& t = channel_.timing();
  Plan best;
  best.now = now;
  // Owed refreshes first: close what they need closed, then refresh.
  for (uint32_t rank = 0; rank < t.ranks; ++rank) {
    const Refresh& f = refresh_[rank];
    if (f.due > now) continue;
    const uint32_t bg = config_.per_bank_refresh ? f.bank / t.banks_per_group : 0;
    const uint32_t bank = config_.per_bank_refresh ? f.bank % t.banks_per_group : 0;
    K kind = config_.per_bank_refresh ? K::RefreshBank : K::Refresh;
    uint64_t at = channel_.earliest(kind, rank, bg, bank, now);
    if (at == kNever) {  // something is open
      kind = config_.per_bank_refresh ? K::Precharge : K::PrechargeAll;
      at = channel_.earliest(kind, rank, bg, bank, now);
    }
    if (at < best.cycle) {
      best.cycle = at, best.refresh = true;
      best.command = DramCommand{kind, rank, bg, bank, 0, 0, at};
    }
  }
  const Queue& q = serving_writes() ? writes_ : reads_;
  if (q.size == 0) return best;
  for (uint32_t bank : q.stale) {
    if (q.candidates[bank].stale) choose(q, bank);
  }
  q.stale.clear();
  if (refresh_owed(now)) {  // rare: banks may be held
    for (uint32_t bank = 0, banks = uint32_t(q.key.size()); bank < banks; ++bank) {
      offer(q, bank, true, best);
    }
    return best;
  }
  // The scan every command pays for: branch-free over the banks.
  uint64_t at_best = kNever, key_best = ~0ull;
  uint32_t bank_best = 0;
  for (uint32_t bank = 0, banks = uint32_t(q.key.size()); bank < banks; ++bank) {
    const uint64_t at = std::max({q.own[bank], shared_[q.shared[bank]], now});
    const uint64_t key = q.key[bank];
    const bool better = at < at_best || (at == at_best && key < key_best);
    at_best = better ? at : at_best;
    key_best = better ? key : key_best;
    bank_best = better ? bank : bank_best;
  }
  if (at_best < best.cycle) offer(q, bank_best, false, best);
  return best;
}

// Makes the candidate of `bank` in q the plan if it goes sooner (or as soon and is more urgent),
// planning from best.now; `owed`: a refresh is owed then.
void MemoryController::offer(const Queue& q, uint32_t bank, bool owed, Plan& best) const {
  const Candidate& c = q.candidates[bank];
  if (c.stale) choose(q, bank);
  if (c.slot < 0) return;
  const uint64_t at = std::max({q.own[bank], shared_[q.shared[bank]], best.now});
  const uint64_t key = q.key[bank] + 1;
  if (at > best.cycle || (at == best.cycle && key >= best.key)) return;
  const MemRequest& r = q.slots[uint32_t(c.slot)].request;
  if (owed && refresh_holds(r, best.now)) return;
  best.cycle = at, best.key = key;
  best.command = DramCommand{c.kind, r.rank, r.bank_group, r.bank, r.row, r.column, at};
  best.refresh = false, best.write = r.write, best.slot = uint32_t(c.slot);
}

// Whether a queued request other than s wants s's row.
bool MemoryController::row_wanted(const Slot& s) const {
  for (const Queue* q : {&reads_, &writes_}) {
    for (uint32_t i : q->candidates[s.bank].queued) {
      if (q->slots[i].request.row == s.request.row && &q->slots[i] != &s) return true;
    }
  }
  return false;
}

void MemoryController::issue(const Plan& plan) {
  DramCommand c = plan.command;
  Queue& q = plan.write ? writes_ : reads_;
  if (!plan.refresh && is_column(c.kind) && auto_precharge_ && !row_wanted(q.slots[plan.slot])) {
    c.kind = c.kind == K::Read ? K::ReadPrecharge : K::WritePrecharge;
  }
  const uint64_t data_end = channel_.issue(c);
  if (observer_) observer_(c);
  now_ = c.cycle + 1;
  plan_valid_ = false;
  const uint32_t bank = uint32_t(bank_index(c.rank, c.bank_group, c.bank));
  if (c.kind == K::Refresh || c.kind == K::PrechargeAll) {  // every bank of the rank
    for (uint32_t b = c.rank * banks_per_rank_; b < (c.rank + 1) * banks_per_rank_; ++b) {
      touched(b);
    }
  } else {
    touched(bank);
  }
  if (c.kind == K::Activate || c.kind == K::Refresh || is_column(c.kind)) {
    update_shared(c.kind, c.rank);
  }
  switch (c.kind) {
    case K::Refresh:
    case K::RefreshBank: {
      ++stats_.refreshes;
      Refresh& f = refresh_[c.rank];
      f.due += refresh_interval_;
      f.bank = (f.bank + 1) % channel_.timing().banks();
      return;
    }
    case K::Precharge:
    case K::PrechargeAll:
      ++stats_.precharges;
      if (!plan.refresh) q.slots[plan.slot].outcome = kConflict;
      return;
    case K::Activate:
      ++stats_.activates;
      ++stats_.bank_activates[bank];
      q.slots[plan.slot].outcome |= kMiss;
      return;
    default:
      ++stats_.bank_columns[bank];
      serve(q, plan.slot, c, data_end);
  }
}

// The column command of q.slots[index] issued: account for it and let the request go.
void MemoryController::serve(Queue& q, uint32_t index, DramCommand& c, uint64_t data_end) {
  Slot& s = q.slots[index];
  const MemRequest& r = s.request;
  stats_.row_hits += s.outcome == kHit;
  stats_.row_misses += s.outcome == kMiss;
  stats_.row_conflicts += (s.outcome & kConflict) != 0;
  stats_.precharges += c.kind == K::ReadPrecharge || c.kind == K::WritePrecharge;
  stats_.data_cycles += channel_.timing().burst_cycles();
  if (last_column_write_ >= 0 && last_column_write_ != int(r.write)) {
    ++stats_.read_write_turnarounds;
  }
  last_column_write_ = r.write;
  if (r.write) {
    ++stats_.writes;
  } else {
    ++stats_.reads;
    stats_.total_read_latency += data_end - r.arrival;
  }
  in_flight_.push_back(MemCompletion{r.id, data_end});
  // Leave the bank's list; if a row hit, the older requests to the bank were bypassed.
  std::vector<uint32_t>& queued = q.candidates[s.bank].queued;
  const auto at = std::find(queued.begin(), queued.end(), index);
  if (s.outcome == kHit) {
    for (auto it = queued.begin(); it != at; ++it) {
      ++q.slots[*it].bypassed;
      q.slots[*it].urgency = kUnknown;
    }
  }
  queued.erase(at);
  q.free.push_back(index);
  --q.size;
  if (r.write && writes_.size <= config_.write_low) draining_ = false;
}

}  // namespace gpusoc::mempart
