// MemoryController: queues, write draining, page policy and refresh around a DramChannel.
// The controller keeps one plan, the next command and its cycle: a walk over the served queue in
// the scheduler's order, where the first request to each bank speaks for it and the request whose
// next command may go soonest wins (ties: the more urgent). Refresh comes before requests. A plan
// stays valid until a command issues or a request arrives, so idle cycles cost nothing.
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

bool is_column(K k) {
  return k == K::Read || k == K::ReadPrecharge || k == K::Write || k == K::WritePrecharge;
}

}  // namespace

std::string ControllerConfig::problem(const std::string& prefix) const {
  const auto& schedulers = dram_scheduler_names();
  if (std::find(schedulers.begin(), schedulers.end(), scheduler) == schedulers.end()) {
    return fmt::format("{}.scheduler: unknown scheduler '{}' (known: {})", prefix, scheduler,
                       fmt::join(schedulers, ", "));
  }
  if (!find_page_policy(page_policy)) {
    std::vector<std::string> names;
    for (const PagePolicy& p : kPagePolicies) names.emplace_back(p.name);
    return fmt::format("{}.page_policy: unknown page policy '{}' (known: {})", prefix, page_policy,
                       fmt::join(names, ", "));
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
  reads_.scheduler = make_dram_scheduler(config.scheduler, config.starvation_cap);
  writes_.scheduler = make_dram_scheduler(config.scheduler, config.starvation_cap);
  reads_.capacity = config.read_queue;
  writes_.capacity = config.write_queue;
  for (Queue* q : {&reads_, &writes_}) {
    q->requests.reserve(q->capacity);
    q->outcome.reserve(q->capacity);
  }
  order_.reserve(std::max(config.read_queue, config.write_queue));
  claimed_.resize(size_t(timing.ranks) * timing.banks());
  refresh_interval_ = config.per_bank_refresh ? timing.tREFI / timing.banks() : timing.tREFI;
  refresh_.resize(timing.ranks);
  for (Refresh& r : refresh_) r.due = refresh_interval_ ? refresh_interval_ : kNever;
}

MemoryController::~MemoryController() = default;

bool MemoryController::can_accept(bool write) const {
  const Queue& q = write ? writes_ : reads_;
  return q.requests.size() < q.capacity;
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
  Queue& q = request.write ? writes_ : reads_;
  q.requests.push_back(request);
  q.outcome.push_back(kHit);
  q.scheduler->arrived(q.requests);
  if (request.write && writes_.requests.size() >= config_.write_high) draining_ = true;
  plan_valid_ = false;
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
}

bool MemoryController::serving_writes() const {
  return !writes_.requests.empty() && (draining_ || reads_.requests.empty());
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

// Whether a refresh owed at `now` holds r's bank (the whole rank for REF).
bool MemoryController::refresh_holds(const MemRequest& r, uint64_t now) const {
  const Refresh& f = refresh_[r.rank];
  if (f.due > now) return false;
  return !config_.per_bank_refresh ||
         f.bank == r.bank_group * channel_.timing().banks_per_group + r.bank;
}

MemoryController::Plan MemoryController::plan_at(uint64_t now) const {
  const DramTiming& t = channel_.timing();
  Plan best;
  auto consider = [&](uint64_t at, K kind, uint32_t rank, uint32_t bg, uint32_t bank) {
    if (at >= best.cycle) return false;
    best.cycle = at;
    best.command = DramCommand{kind, rank, bg, bank, 0, 0, at};
    return true;
  };
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
    if (consider(at, kind, rank, bg, bank)) best.refresh = true;
  }
  const bool writes = serving_writes();
  const Queue& q = writes ? writes_ : reads_;
  if (q.requests.empty()) return best;
  q.scheduler->order(q.requests, channel_, order_);
  std::fill(claimed_.begin(), claimed_.end(), 0);
  for (uint32_t index : order_) {
    const MemRequest& r = q.requests[index];
    uint8_t& claimed = claimed_[bank_index(r.rank, r.bank_group, r.bank)];
    if (claimed || refresh_holds(r, now)) continue;
    claimed = 1;
    K kind = r.write ? K::Write : K::Read;  // RDA/WRA (same timing) decided at issue
    if (!channel_.is_open(r.rank, r.bank_group, r.bank)) {
      kind = K::Activate;
    } else if (channel_.open_row(r.rank, r.bank_group, r.bank) != r.row) {
      kind = K::Precharge;
    }
    const uint64_t at =
        channel_.earliest(kind, r.rank, r.bank_group, r.bank, std::max(now, r.arrival));
    if (consider(at, kind, r.rank, r.bank_group, r.bank)) {
      best.refresh = false, best.write = writes, best.index = index;
      best.command.row = r.row, best.command.column = r.column;
    }
    if (at == now) break;  // nothing can beat it
  }
  return best;
}

// Whether a queued request other than `except` wants r's row.
bool MemoryController::row_wanted(const MemRequest& r, const MemRequest* except) const {
  for (const Queue* q : {&reads_, &writes_}) {
    for (const MemRequest& o : q->requests) {
      if (&o != except && o.rank == r.rank && o.bank_group == r.bank_group && o.bank == r.bank &&
          o.row == r.row) {
        return true;
      }
    }
  }
  return false;
}

void MemoryController::issue(const Plan& plan) {
  DramCommand c = plan.command;
  Queue& q = plan.write ? writes_ : reads_;
  if (!plan.refresh && is_column(c.kind) && auto_precharge_ &&
      !row_wanted(q.requests[plan.index], &q.requests[plan.index])) {
    c.kind = c.kind == K::Read ? K::ReadPrecharge : K::WritePrecharge;
  }
  const uint64_t data_end = channel_.issue(c);
  if (observer_) observer_(c);
  now_ = c.cycle + 1;
  plan_valid_ = false;
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
      if (!plan.refresh) q.outcome[plan.index] = kConflict;
      return;
    case K::Activate:
      ++stats_.activates;
      q.outcome[plan.index] |= kMiss;
      return;
    default:
      serve(q, plan.index, c, data_end);
  }
}

// The column command of q.requests[index] issued: account for it and let the request go.
void MemoryController::serve(Queue& q, uint32_t index, DramCommand& c, uint64_t data_end) {
  const MemRequest r = q.requests[index];  // a copy: it leaves the queue below
  const uint8_t outcome = q.outcome[index];
  stats_.row_hits += outcome == kHit;
  stats_.row_misses += outcome == kMiss;
  stats_.row_conflicts += (outcome & kConflict) != 0;
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
  q.scheduler->served(q.requests, index, outcome == kHit);
  q.requests.erase(q.requests.begin() + index);
  q.outcome.erase(q.outcome.begin() + index);
  if (r.write && writes_.requests.size() <= config_.write_low) draining_ = false;
}

}  // namespace gpusoc::mempart
