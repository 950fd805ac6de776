// MemoryController: queues, write draining, page policy and refresh around a DramChannel; the
// planning of the next command is in controller_planning.cpp.
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

}  // namespace

std::string ControllerConfig::problem(const std::string& prefix) const {
  if (!dram_schedulers().find(scheduler.name)) {
    return fmt::format("{}.scheduler: unknown scheduler '{}' (known: {})", prefix, scheduler.name,
                       fmt::join(dram_schedulers().names(), ", "));
  }
  if (!refresh_policies().find(refresh.name)) {
    return fmt::format("{}.refresh: unknown refresh policy '{}' (known: {})", prefix, refresh.name,
                       fmt::join(refresh_policies().names(), ", "));
  }
  if (!page_policies().find(page_policy.name)) {
    return fmt::format("{}.page_policy: unknown page policy '{}' (known: {})", prefix,
                       page_policy.name, fmt::join(page_policies().names(), ", "));
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
  return {};
}

ControllerStats::ControllerStats(StatGroup& parent, std::string name, size_t banks)
    : StatGroup(parent, std::move(name)),
      bank_columns(*this, "bank_columns", "bursts", "column commands per bank", banks),
      bank_activates(*this, "bank_activates", "commands", "ACT commands per bank", banks),
      row_hit_rate(*this, "row_hit_rate", "ratio", "row hits per column command",
                   [this] {
                     return double(row_hits.value()) /
                            double(row_hits.value() + row_misses.value() + row_conflicts.value());
                   }),
      read_latency_avg(*this, "read_latency_avg", "cycles",
                       "average cycles from a read's arrival to its last data beat", [this] {
                         return double(read_latency_cycles.value()) / double(reads.value());
                       }) {}

MemoryController::MemoryController(const DramTiming& timing, const ControllerConfig& config,
                                   StatGroup& stats_parent, const std::string& stats_name,
                                   const std::string& prefix)
    : MemoryController(std::make_shared<const DramTiming>(timing), config, stats_parent, stats_name,
                       prefix) {}

MemoryController::MemoryController(std::shared_ptr<const DramTiming> shared_timing,
                                   const ControllerConfig& config, StatGroup& stats_parent,
                                   const std::string& stats_name, const std::string& prefix)
    : channel_(std::move(shared_timing)), config_(config) {
  const DramTiming& timing = channel_.timing();
  if (const std::string why = config.problem(prefix); !why.empty()) throw ConfigError(why);
  const std::unique_ptr<RefreshPolicy> refresh = refresh_policies().make(config.refresh);
  if (const std::string why = refresh->unsupported(timing); !why.empty())
    throw ConfigError(fmt::format("{}.refresh = {}: {}", prefix, config.refresh.name, why));
  per_bank_refresh_ = refresh->per_bank();
  auto_precharge_ = page_policies().make(config.page_policy)->closes_idle_rows();
  scheduler_ = dram_schedulers().make(config.scheduler);
  banks_per_rank_ = timing.banks();
  const size_t banks = size_t(timing.ranks) * banks_per_rank_;
  while ((size_t(1) << bank_bits_) < banks) ++bank_bits_;
  if (bank_bits_ > 16) {  // keys keep 40 bits of arrival order at least
    throw ConfigError(
        fmt::format("{}: {} has {} banks per channel, more than the 65536 a "
                    "controller serves",
                    prefix, timing.name, banks));
  }
  bank_mask_ = (uint64_t(1) << bank_bits_) - 1;
  reads_.capacity = config.read_queue;
  writes_.capacity = config.write_queue;
  for (Queue* q : {&reads_, &writes_}) {
    q->slots.resize(q->capacity);
    for (uint32_t i = q->capacity; i-- > 0;) q->free.push_back(i);
    q->candidates.resize(banks);
    q->queued.assign(banks * q->capacity, 0);
    q->stale_words = uint32_t((banks + 63) / 64);
    q->key.assign(banks, ~0ull);
    q->own.assign(banks, kNever);
    q->shared.assign(banks, 0);
  }
  stale_words_.assign(size_t(reads_.stale_words) * 2, 0);
  reads_.stale = stale_words_.data();
  writes_.stale = stale_words_.data() + reads_.stale_words;
  stats_ = std::make_unique<ControllerStats>(stats_parent, stats_name, banks);
  refresh_interval_ = refresh->interval(timing);
  refresh_.resize(timing.ranks);
  for (Refresh& r : refresh_) r.due = refresh_interval_ ? refresh_interval_ : kNever;
  refresh_due_ = refresh_.front().due;
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
  take_urgencies(s);
  s.outcome = kHit;
  Candidate& c = q.candidates[s.bank];
  q.queued_of(s.bank)[c.queued++] = index;
  q.mark_stale(s.bank);
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

void MemoryController::run_until(uint64_t until, std::vector<MemCompletion>& done) {
  for (compute_plan(); plan_.cycle <= until; compute_plan()) issue(plan_);
  while (in_flight_head_ < in_flight_.size() && in_flight_[in_flight_head_].cycle <= until) {
    done.push_back(in_flight_[in_flight_head_++]);
  }
  if (in_flight_head_ == in_flight_.size() || in_flight_head_ >= 64) {
    in_flight_.erase(in_flight_.begin(), in_flight_.begin() + ptrdiff_t(in_flight_head_));
    in_flight_head_ = 0;
  }
  passed(until);
}

// Whether a queued request other than s wants s's row.
bool MemoryController::row_wanted(const Slot& s) const {
  for (const Queue* q : {&reads_, &writes_}) {
    const uint32_t* queued = q->queued_of(s.bank);
    for (uint32_t k = 0; k < q->candidates[s.bank].queued; ++k) {
      const uint32_t i = queued[k];
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
  const uint64_t data_end = channel_.issue_planned(c);
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
  switch (c.kind) {
    case K::Refresh:
    case K::RefreshBank: {
      ++stats_->refreshes;
      Refresh& f = refresh_[c.rank];
      f.due += refresh_interval_;
      refresh_due_ = kNever;
      for (const Refresh& r : refresh_) refresh_due_ = std::min(refresh_due_, r.due);
      f.bank = (f.bank + 1) % channel_.timing().banks();
      return;
    }
    case K::Precharge:
    case K::PrechargeAll:
      ++stats_->precharges;
      if (!plan.refresh) q.slots[plan.slot].outcome = kConflict;
      return;
    case K::Activate:
      ++stats_->activates;
      ++stats_->bank_activates[bank];
      q.slots[plan.slot].outcome |= kMiss;
      return;
    default:
      ++stats_->bank_columns[bank];
      serve(q, plan.slot, c, data_end);
  }
}

// The column command of q.slots[index] issued: account for it and let the request go.
void MemoryController::serve(Queue& q, uint32_t index, DramCommand& c, uint64_t data_end) {
  Slot& s = q.slots[index];
  const MemRequest& r = s.request;
  stats_->row_hits += s.outcome == kHit;
  stats_->row_misses += s.outcome == kMiss;
  stats_->row_conflicts += (s.outcome & kConflict) != 0;
  stats_->precharges += c.kind == K::ReadPrecharge || c.kind == K::WritePrecharge;
  stats_->data_cycles += channel_.timing().burst_cycles();
  if (last_column_write_ >= 0 && last_column_write_ != int(r.write)) {
    ++stats_->read_write_turnarounds;
  }
  last_column_write_ = r.write;
  if (r.write) {
    ++stats_->writes;
  } else {
    ++stats_->reads;
    stats_->read_latency_cycles += data_end - r.arrival;
  }
  in_flight_.push_back(MemCompletion{r.id, data_end});
  // Leave the bank's list; if a row hit, the older requests to the bank were bypassed.
  uint32_t* queued = q.queued_of(s.bank);
  uint32_t& count = q.candidates[s.bank].queued;
  uint32_t* const end = queued + count;
  uint32_t* const at = std::find(queued, end, index);
  if (s.outcome == kHit) {
    for (uint32_t* it = queued; it != at; ++it) {
      ++q.slots[*it].bypassed;
      take_urgencies(q.slots[*it]);
    }
  }
  std::copy(at + 1, end, at);
  --count;
  q.free.push_back(index);
  --q.size;
  if (r.write && writes_.size <= config_.write_low) draining_ = false;
  if (scheduler_->served(r, c.cycle)) rank_again();
}

void MemoryController::rank_again() {
  for (Queue* q : {&reads_, &writes_}) {
    for (uint32_t bank = 0, banks = uint32_t(q->candidates.size()); bank < banks; ++bank) {
      const uint32_t* queued = q->queued_of(bank);
      for (uint32_t k = 0; k < q->candidates[bank].queued; ++k) take_urgencies(q->slots[queued[k]]);
      if (q->candidates[bank].queued != 0) q->mark_stale(bank);
    }
  }
}

}  // namespace gpusoc::mempart
