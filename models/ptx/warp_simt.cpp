// The warp's divergence tree: branches, reconvergence, which path runs (sm.simt_model), and the
// SIMT deadlock watchdog of the stack model.
//
// simt_ holds the tree in preorder; each entry's level is its depth. An entry is a leaf when the
// next entry is not deeper; only leaves run, and running_ is the one running. A divergent branch
// turns the running leaf into the parent (waiting at the reconvergence point) and inserts its
// two children right after it, taken then fall-through; a call inserts the callee's base entry
// after the calling leaf. Under the stack model the running leaf is always the last entry, so
// the tree is exactly the classic reconvergence stack.
#include <fmt/format.h>

#include "models/ptx/warp.h"

namespace gpusoc::ptx {
namespace {

// "0-1", "0,4-7,9": the lanes of a mask, for messages.
std::string lane_list(LaneMask m) {
  std::string s;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(m >> lane & 1)) continue;
    unsigned last = lane;
    while (last + 1 < kWarpSize && (m >> (last + 1) & 1)) ++last;
    if (!s.empty()) s += ',';
    s += last == lane ? fmt::format("{}", lane) : fmt::format("{}-{}", lane, last);
    lane = last;
  }
  return s;
}

}  // namespace

bool Warp::is_leaf(size_t i) const {
  return i + 1 == simt_.size() || simt_[i + 1].level <= simt_[i].level;
}

bool Warp::select_active() {
  while (!simt_.empty()) {
    const SimtEntry& e = *running_;
    if (e.pc != e.reconverge) {
      LaneMask m = e.mask & ~exited_;
      if (!calls_.empty()) m &= ~calls_.back().returned;
      if (m != 0) {
        active_ = m;
        return true;
      }
    }
    erase_running();
  }
  active_ = 0;
  state_ = State::Done;
  return false;
}

void Warp::erase_running() {
  const size_t i = running_index();
  const bool last = i + 1 == simt_.size();  // always, under the stack model
  if (last)
    simt_.pop_back();
  else
    simt_.erase(simt_.begin() + ptrdiff_t(i));
  // When the callee's base entry goes, the caller goes on with the same path: its turn too.
  if (!calls_.empty() && i == calls_.back().simt_depth)
    leave_callee();
  else
    path_start_ = warp_instructions_;
  if (simt_.empty()) {
    running_ = nullptr;
    return;
  }
  // The entry before is a leaf when it is the parent and this was its last child, or the end of
  // the previous sibling's subtree: as a stack would, run it. Otherwise the next sibling's subtree
  // follows: run its first leaf.
  size_t next = i - 1;
  if (!last && (i == 0 || !is_leaf(i - 1))) {
    next = i;
    while (!is_leaf(next)) ++next;
  }
  running_ = &simt_[next];
}

void Warp::branch(const Inst& in, LaneMask taken) {
  SimtEntry& top = *running_;
  const uint32_t pc = top.pc;
  const LaneMask not_taken = active_ & ~taken;
  const bool backward = taken != 0 && in.target <= pc;
  if (backward && simt_deadlock_limit_ != 0 &&
      warp_instructions_ - path_start_ >= simt_deadlock_limit_) {
    check_simt_deadlock(in, pc);
  }
  if (not_taken == 0 || taken == 0) {  // uniform: the same lanes go on
    top.pc = taken ? in.target : pc + 1;
    if (top.pc == top.reconverge) select_active();
  } else {
    // Divergence: the current entry waits at the reconvergence point; the fall-through path
    // runs first, then the taken path, and both end when they reach the reconvergence point.
    const uint32_t level = top.level + 1;
    top.pc = in.reconverge;
    const SimtEntry children[2] = {{in.target, in.reconverge, taken, level},
                                   {pc + 1, in.reconverge, not_taken, level}};
    const size_t parent = running_index();
    if (parent + 1 == simt_.size()) {  // always, under the stack model
      simt_.push_back(children[0]);
      simt_.push_back(children[1]);
    } else {
      simt_.insert(simt_.begin() + ptrdiff_t(parent) + 1, children, children + 2);
    }
    running_ = &simt_[parent + 2];
    path_start_ = warp_instructions_;
    select_active();
  }
  // Independent scheduling: a path that went backwards (a loop, maybe a spin) lets the next
  // path of its function activation have a turn.
  if (backward && independent_ && active_ != 0 && (active_ & ~taken) == 0) switch_path();
}

void Warp::switch_path() {
  const size_t lo = calls_.empty() ? 0 : calls_.back().simt_depth;
  size_t hi = lo + 1;
  while (hi < simt_.size() && simt_[hi].level > simt_[lo].level) ++hi;
  const size_t span = hi - lo, cur = running_index();
  for (size_t k = 1; k < span; ++k) {
    size_t j = cur + k;
    if (j >= hi) j -= span;
    if (is_leaf(j)) {
      running_ = &simt_[j];
      path_start_ = warp_instructions_;
      select_active();
      return;
    }
  }
}

// Only called once the running path has had its turn for simt_deadlock_limit_ instructions.
// Under the stack model every other leaf has waited since the divergence that made it.
void Warp::check_simt_deadlock(const Inst& in, uint32_t pc) {
  LaneMask waiting = 0;
  for (size_t j = 0; j < simt_.size(); ++j) {
    if (j != running_index() && is_leaf(j)) waiting |= simt_[j].mask & ~exited_;
  }
  if (waiting == 0) {  // nothing waits: count afresh rather than look again at every branch
    path_start_ = warp_instructions_;
    return;
  }
  throw ExecutionError(fmt::format(
      "kernel '{}' block ({},{},{}) warp {}: SIMT deadlock at pc {} ({}:{}): threads {} of the "
      "warp have run {} instructions on one path while threads {} wait on another; the "
      "reconvergence stack cannot run them (sm.simt_model=independent can)",
      launch_->kernel->name, cta_->ctaid.x, cta_->ctaid.y, cta_->ctaid.z, warp_index_, pc,
      launch_->program->file, in.line, lane_list(active_), simt_deadlock_limit_,
      lane_list(waiting)));
}

const Inst* Warp::next_instruction() {
  while (state_ == State::Ready && running_->pc >= fn_->code.size()) ret(active_);
  return state_ == State::Ready ? &fn_->code[running_->pc] : nullptr;
}

uint32_t Warp::pc() const {
  return running_ ? running_->pc : 0;
}

}  // namespace gpusoc::ptx
