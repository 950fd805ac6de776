// MemoryController's planning. The controller keeps one plan, the next command and its cycle:
// over the banks of the served queue, the request speaking for each (least urgency class, then
// oldest) whose next command may go soonest wins (ties: the more urgent). Refresh comes before
// requests. A plan stays valid until a command issues or a request arrives, so idle cycles cost
// nothing. Planning is incremental: each bank's candidate (its request, next command, and when
// the bank's own constraints allow it) is kept until a command to that bank or an arrival for it;
// the constraints banks share (tRRD, tFAW, tCCD, tWTR, the data bus) the channel keeps once per
// bank group (DramChannel::shared_table()); so a plan is one branch-free scan over the banks.
#include <algorithm>

#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {

using K = DramCommandKind;

void MemoryController::compute_plan() const {
  if (plan_valid_) return;
  // A refresh falling due before the plan's cycle holds its banks back: plan again from then.
  for (uint64_t now = now_;;) {
    plan_ = plan_at(now);
    uint64_t due = refresh_due_;  // the first refresh due after now
    if (due <= now) {
      due = kNever;
      for (const Refresh& r : refresh_) {
        if (r.due > now) due = std::min(due, r.due);
      }
    }
    if (due > plan_.cycle) break;
    now = due;
  }
  plan_valid_ = true;
}

bool MemoryController::refresh_owed(uint64_t now) const {
  return refresh_due_ <= now;
}

// Whether a refresh owed at `now` holds r's bank (the whole rank for REF).
bool MemoryController::refresh_holds(const MemRequest& r, uint64_t now) const {
  const Refresh& f = refresh_[r.rank];
  if (f.due > now) return false;
  return !per_bank_refresh_ || f.bank == r.bank_group * channel_.timing().banks_per_group + r.bank;
}

// A command went to `bank` (flat index): its candidates in both queues are chosen again.
void MemoryController::touched(uint32_t bank) {
  const uint64_t bit = uint64_t(1) << (bank & 63);
  uint64_t* words = stale_words_.data();  // the queues' words, side by side
  words[bank >> 6] |= bit;
  words[reads_.stale_words + (bank >> 6)] |= bit;
}

// Chooses again the request that speaks for `bank` (flat index) in q. Branch-light: this runs
// after every command, on a bank whose state just changed.
void MemoryController::choose(const Queue& q, uint32_t bank) const {
  Candidate& c = q.candidates[bank];
  q.clear_stale(bank);
  const DramChannel::Bank& b = channel_.bank_at(bank);
  uint64_t best_key = ~0ull;
  int32_t best = -1;
  const uint32_t* queued = q.queued_of(bank);
  for (uint32_t k = 0; k < c.queued; ++k) {
    const Slot& s = q.slots[queued[k]];
    const uint8_t urgency = s.urgency[b.open & (b.row == s.request.row)];
    const uint64_t key = uint64_t(urgency) << 56 | s.seq << bank_bits_ | bank;
    const bool better = key < best_key;
    best_key = better ? key : best_key;
    best = better ? int32_t(queued[k]) : best;
  }
  c.slot = best;
  q.key[bank] = best_key;
  if (best < 0) {
    q.own[bank] = kNever;
    return;
  }
  // Its next command (ACT to a closed bank, PRE to another row, else its column command) and
  // when the bank's own constraints let it go.
  const MemRequest& r = q.slots[uint32_t(best)].request;
  const bool hit = b.open & (b.row == r.row);
  c.kind = !b.open ? K::Activate : !hit ? K::Precharge : r.write ? K::Write : K::Read;
  q.own[bank] = std::max(DramChannel::next_command_ready(b, r.row, r.write), r.arrival);
  q.shared[bank] = channel_.shared_index(c.kind, r.rank, r.bank_group);
}

MemoryController::Plan MemoryController::plan_at(uint64_t now) const {
  const DramTiming& t = channel_.timing();
  Plan best;
  best.now = now;
  // Owed refreshes first: close what they need closed, then refresh.
  for (uint32_t rank = 0; rank < t.ranks && refresh_owed(now); ++rank) {
    const Refresh& f = refresh_[rank];
    if (f.due > now) continue;
    const uint32_t bg = per_bank_refresh_ ? f.bank / t.banks_per_group : 0;
    const uint32_t bank = per_bank_refresh_ ? f.bank % t.banks_per_group : 0;
    K kind = per_bank_refresh_ ? K::RefreshBank : K::Refresh;
    uint64_t at = channel_.earliest(kind, rank, bg, bank, now);
    if (at == kNever) {  // something is open
      kind = per_bank_refresh_ ? K::Precharge : K::PrechargeAll;
      at = channel_.earliest(kind, rank, bg, bank, now);
    }
    if (at < best.cycle) {
      best.cycle = at, best.refresh = true;
      best.command = DramCommand{kind, rank, bg, bank, 0, 0, at};
    }
  }
  const Queue& q = serving_writes() ? writes_ : reads_;
  if (q.size == 0) return best;
  for (uint32_t w = 0; w < q.stale_words; ++w) {
    for (uint64_t bits = q.stale[w]; bits != 0; bits &= bits - 1) {
      choose(q, w * 64 + uint32_t(__builtin_ctzll(bits)));
    }
  }
  if (refresh_owed(now)) {  // rare: banks may be held
    for (uint32_t bank = 0, banks = uint32_t(q.key.size()); bank < banks; ++bank) {
      offer(q, bank, true, best);
    }
    return best;
  }
  // The scan every command pays for, branch-free over the banks: the least (cycle, key) as one
  // 128-bit number, whose low bits (the key's) name the bank.
  using Packed = unsigned __int128;
  const uint64_t* shared = channel_.shared_table();
  Packed least = ~Packed(0);
  for (uint32_t bank = 0, banks = uint32_t(q.key.size()); bank < banks; ++bank) {
    const uint64_t at = std::max({q.own[bank], shared[q.shared[bank]], now});
    const Packed v = Packed(at) << 64 | q.key[bank];
    least = v < least ? v : least;
  }
  const uint64_t at_best = uint64_t(least >> 64);
  if (at_best < best.cycle) {
    const uint64_t key = uint64_t(least);
    make_plan(q, uint32_t(key & bank_mask_), at_best, key + 1, best);
  }
  return best;
}

// Makes the candidate of `bank` in q the plan if it goes sooner (or as soon and is more urgent),
// planning from best.now; `owed`: a refresh is owed then.
void MemoryController::offer(const Queue& q, uint32_t bank, bool owed, Plan& best) const {
  const Candidate& c = q.candidates[bank];
  if (q.is_stale(bank)) choose(q, bank);
  if (c.slot < 0) return;
  const uint64_t at = std::max({q.own[bank], channel_.shared_table()[q.shared[bank]], best.now});
  const uint64_t key = q.key[bank] + 1;
  if (at > best.cycle || (at == best.cycle && key >= best.key)) return;
  if (owed && refresh_holds(q.slots[uint32_t(c.slot)].request, best.now)) return;
  make_plan(q, bank, at, key, best);
}

// Makes the candidate of `bank` in q, going at `at`, the plan.
void MemoryController::make_plan(const Queue& q, uint32_t bank, uint64_t at, uint64_t key,
                                 Plan& plan) const {
  const Candidate& c = q.candidates[bank];
  const MemRequest& r = q.slots[uint32_t(c.slot)].request;
  plan.cycle = at, plan.key = key;
  plan.command = DramCommand{c.kind, r.rank, r.bank_group, r.bank, r.row, r.column, at};
  plan.refresh = false, plan.write = r.write, plan.slot = uint32_t(c.slot);
}

}  // namespace gpusoc::mempart
