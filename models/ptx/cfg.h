// Control flow of one function: basic blocks, and immediate post-dominators, which are where the
// divergent paths of a branch meet again (the SIMT reconvergence points).
#pragma once

#include <cstdint>
#include <vector>

#include "models/ptx/inst.h"

namespace gpusoc::ptx {

constexpr uint32_t kNoReconverge = 0xffffffffu;

struct BasicBlock {
  uint32_t first = 0;                // pc of the first instruction
  uint32_t last = 0;                 // pc of the last instruction
  std::vector<uint32_t> successors;  // block indices; the virtual exit is not listed
  bool reaches_exit = false;         // ends in ret/exit/trap, or falls off the end of the code
};

class ControlFlowGraph {
 public:
  explicit ControlFlowGraph(const std::vector<Inst>& code);

  const std::vector<BasicBlock>& blocks() const { return blocks_; }
  uint32_t block_of(uint32_t pc) const { return block_of_pc_[pc]; }
  /// The virtual exit's index in immediate_post_dominators().
  uint32_t exit_node() const { return uint32_t(blocks_.size()); }
  /// For each block, its immediate post-dominator (a block index, or exit_node()). Blocks from
  /// which the exit cannot be reached (endless loops) are given exit_node().
  const std::vector<uint32_t>& immediate_post_dominators() const { return ipdom_; }

 private:
  void build_blocks(const std::vector<Inst>& code);
  void compute_post_dominators();

  std::vector<BasicBlock> blocks_;
  std::vector<uint32_t> block_of_pc_;
  std::vector<uint32_t> ipdom_;
};

/// Fills Inst::reconverge of every branch: the first pc of its block's immediate post-dominator,
/// or kNoReconverge when the paths meet only at the function's exit.
void assign_reconvergence_points(std::vector<Inst>& code);

}  // namespace gpusoc::ptx
