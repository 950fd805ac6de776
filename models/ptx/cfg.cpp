#include "models/ptx/cfg.h"

#include <algorithm>

namespace gpusoc::ptx {
namespace {

bool ends_function(Op op) {
  return op == Op::Ret || op == Op::Exit || op == Op::Trap;
}
bool is_guarded(const Inst& in) {
  return in.guard != kNoReg;
}

}  // namespace

ControlFlowGraph::ControlFlowGraph(const std::vector<Inst>& code) {
  build_blocks(code);
  compute_post_dominators();
}

void ControlFlowGraph::build_blocks(const std::vector<Inst>& code) {
  const uint32_t n = uint32_t(code.size());
  std::vector<bool> leader(n + 1, false);
  if (n > 0) leader[0] = true;
  for (uint32_t pc = 0; pc < n; ++pc) {
    const Inst& in = code[pc];
    if (in.op == Op::Bra) {
      if (in.target < n) leader[in.target] = true;
      leader[pc + 1] = true;
    } else if (ends_function(in.op)) {
      leader[pc + 1] = true;
    }
  }
  block_of_pc_.assign(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    if (leader[pc]) blocks_.push_back(BasicBlock{pc, pc, {}, false});
    blocks_.back().last = pc;
    block_of_pc_[pc] = uint32_t(blocks_.size() - 1);
  }
  for (uint32_t b = 0; b < blocks_.size(); ++b) {
    BasicBlock& bb = blocks_[b];
    const Inst& in = code[bb.last];
    const bool falls_through =
        !(ends_function(in.op) && !is_guarded(in)) && !(in.op == Op::Bra && !is_guarded(in));
    if (in.op == Op::Bra && in.target < n) bb.successors.push_back(block_of_pc_[in.target]);
    if (falls_through) {
      if (bb.last + 1 < n) {
        const uint32_t next = block_of_pc_[bb.last + 1];
        if (std::find(bb.successors.begin(), bb.successors.end(), next) == bb.successors.end())
          bb.successors.push_back(next);
      } else {
        bb.reaches_exit = true;
      }
    }
    if (ends_function(in.op)) bb.reaches_exit = true;
  }
}

// Cooper, Harvey and Kennedy's iterative dominator algorithm, run on the reversed graph
// with the virtual exit as its root.
void ControlFlowGraph::compute_post_dominators() {
  const uint32_t exit = exit_node();
  const uint32_t count = exit + 1;
  // Reverse-graph successors of a node are its CFG predecessors.
  std::vector<std::vector<uint32_t>> preds(count);
  for (uint32_t b = 0; b < exit; ++b) {
    for (uint32_t s : blocks_[b].successors) preds[s].push_back(b);
    if (blocks_[b].reaches_exit) preds[exit].push_back(b);
  }
  // Post-order of a depth-first walk of the reversed graph from the exit (iterative).
  std::vector<uint32_t> order;
  std::vector<uint32_t> number(count, kNoReconverge);
  std::vector<bool> seen(count, false);
  std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
  seen[exit] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < preds[node].size()) {
      const uint32_t p = preds[node][next++];
      if (!seen[p]) {
        seen[p] = true;
        stack.push_back({p, 0});
      }
    } else {
      number[node] = uint32_t(order.size());
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<uint32_t> idom(count, kNoReconverge);
  idom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (number[a] < number[b]) a = idom[a];
      while (number[b] < number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const uint32_t b = *it;
      if (b == exit) continue;
      uint32_t new_idom = kNoReconverge;
      // In the reversed graph, b's predecessors are its CFG successors (or the exit).
      auto consider = [&](uint32_t p) {
        if (idom[p] == kNoReconverge) return;
        new_idom = new_idom == kNoReconverge ? p : intersect(p, new_idom);
      };
      for (uint32_t s : blocks_[b].successors) consider(s);
      if (blocks_[b].reaches_exit) consider(exit);
      if (new_idom != idom[b]) {
        idom[b] = new_idom;
        changed = true;
      }
    }
  }
  ipdom_.assign(exit, exit);
  for (uint32_t b = 0; b < exit; ++b) {
    if (idom[b] != kNoReconverge) ipdom_[b] = idom[b];
  }
}

void assign_reconvergence_points(std::vector<Inst>& code) {
  if (code.empty()) return;
  const ControlFlowGraph cfg(code);
  const auto& ipdom = cfg.immediate_post_dominators();
  for (Inst& in : code) {
    if (in.op != Op::Bra) continue;
    const uint32_t b = cfg.block_of(uint32_t(&in - code.data()));
    const uint32_t p = ipdom[b];
    in.reconverge = p == cfg.exit_node() ? kNoReconverge : cfg.blocks()[p].first;
  }
}

}  // namespace gpusoc::ptx
