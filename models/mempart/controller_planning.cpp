// MemoryController's planning. The controller keeps one plan, the next command and its cycle:
// over the banks of the served queue, the request speaking for each (least urgency class, then
// oldest) whose next command may go soonest wins (ties: the more urgent). Refresh comes before
// requests. A plan stays valid until a command issues or a request arrives, so idle cycles cost
// nothing. Planning is incremental: each bank's candidate (its request, next command, and when
// the bank's own constraints allow it) is kept until a command to that bank or an arrival for it;
// the constraints banks share (tRRD, tFAW, tCCD, tWTR, the data bus) are kept once per bank
// group, updated by the commands that move them; so a plan is one branch-free scan over the banks.
#include <algorithm>

#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {

using K = DramCommandKind;

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
  const uint32_t* queued = q.queued_of(bank);
  for (uint32_t k = 0; k < c.queued; ++k) {
    const uint32_t i = queued[k];
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

}  // namespace gpusoc::mempart
