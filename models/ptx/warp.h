// One warp of the functional core: registers, local memory, the divergence tree of its SIMT paths
// (warp_simt.cpp) and the call stack. Runs decoded instructions; barriers are left to its CTA
// (cta_runner.h).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "models/ptx/inst.h"
#include "models/ptx/launch.h"
#include "models/tex/texture_fetch.h"

namespace gpusoc::ptx {

class Warp {
 public:
  enum class State : uint8_t { Ready, AtBarrier, Done };

  /// Where the warp stopped at bar.sync / bar.red / bar.arrive.
  struct BarrierArrival {
    uint32_t id = 0;
    uint32_t count = 0;    // threads expected; 0 means every thread of the CTA
    LaneMask lanes = 0;    // lanes that executed the barrier instruction
    uint32_t threads = 0;  // threads the arrival counts: every thread of the warp not exited
    bool waits = true;     // false for bar.arrive
    bool reduces = false;  // bar.red
    BarRedOp red_op = BarRedOp::Popc;
    uint32_t red_dst = kNoReg;
    uint32_t red_true_lanes = 0;  // arriving lanes whose predicate was true
  };

  /// Prepares the warp to run the kernel from its first instruction. `lanes`: threads that exist.
  void start(const LaunchContext& launch, CtaContext& cta, uint32_t warp_index, LaneMask lanes);

  /// Runs up to `budget` instructions, stopping early at a barrier (bar.arrive included, so that
  /// the CTA sees every arrival) or when every thread is done.
  /// Returns the number executed. Throws ExecutionError on a fault.
  uint64_t run(uint64_t budget);

  /// The instruction the warp runs next (what run(1) will execute), for a timed SM's scoreboard
  /// and pipelines; null when the warp is not Ready. Resolves implicit returns (falling off the
  /// end of a function) first, so it may change the warp's state.
  const Inst* next_instruction();
  /// Offset of the running function's registers among the warp's register frames, in registers:
  /// frame + Inst register index numbers a register uniquely across calls.
  uint32_t register_frame() const { return uint32_t(reg_base_ / kWarpSize); }
  /// PC (instruction index) and function of the path the warp runs now, for diagnostics.
  uint32_t pc() const;
  const Function* function() const { return fn_; }

  State state() const { return state_; }
  const BarrierArrival& barrier() const { return barrier_; }
  /// Resumes after a completed barrier; for bar.red, `red_result` is written to the destination.
  void release_barrier(uint32_t red_result);
  /// Threads that have exited (or never existed).
  LaneMask finished_lanes() const { return exited_; }

  uint64_t warp_instructions() const { return warp_instructions_; }
  /// warp_instructions() when the warp last made forward progress: a store to global or shared
  /// memory, an atomic or mbarrier arrival, a barrier passed, or lanes exiting. A warp that runs
  /// on and on without any of these is stuck (the launch watchdog; launch.h).
  uint64_t progress_at() const { return progress_at_; }
  /// Where the warp is and what it waits for, for a watchdog's report: "warp 3 at line 41
  /// (PC 12): waits at barrier 0", "... runs without storing; its last load read 0x1000 at
  /// line 40".
  std::string describe() const;
  /// Warp instructions issued so far, by InstClass: what the timed SMs charge.
  const std::array<uint64_t, kNumInstClasses>& class_counts() const { return class_counts_; }
  uint64_t thread_instructions() const { return thread_instructions_; }

 private:
  /// A node of the divergence tree; simt_ keeps them in preorder (see warp_simt.cpp).
  struct SimtEntry {
    uint32_t pc;
    uint32_t reconverge;
    LaneMask mask;
    uint32_t level;  // depth in the tree: children of a branch or call are one deeper
  };
  struct CallFrame {
    const Function* fn;
    size_t reg_base;      // caller's register frame
    uint32_t frame_base;  // caller's local frame
    uint32_t call_site;   // in the caller's call_sites
    size_t simt_depth;    // index in simt_ of the callee's base entry
    uint32_t stack_used;  // caller's stack charge
    LaneMask returned;    // callee lanes that executed ret
  };

  void advance();        // to the next instruction, reconverging when it is the meeting point
  bool select_active();  // erases finished paths until one can run; false when the warp is done
  void erase_running();  // removes the running leaf (and a finished call) and picks the next
  bool is_leaf(size_t i) const;
  void switch_path();  // independent scheduling: to the next leaf of the same call, round-robin
  void check_simt_deadlock(const Inst& in, uint32_t pc);
  void enter_function(const Function& fn, size_t reg_base);
  void branch(const Inst& in, LaneMask taken);
  void call(const Inst& in, LaneMask exec);
  void leave_callee();  // pops the call frame once the callee's base SIMT entry is gone
  void ret(LaneMask exec);
  void exit_lanes(LaneMask exec);
  void arrive_barrier(const Inst& in, LaneMask exec);
  [[noreturn]] void trap(const Inst& in, LaneMask exec);
  void execute_memory(const Inst& in, LaneMask exec);  // warp_memory.cpp
  void observe(const Inst& in, LaneMask exec, GlobalAccess kind);
  void load(const Inst& in, LaneMask exec);
  void store(const Inst& in, LaneMask exec);
  template <unsigned kSize, bool kChecked>
  void load_sized(const Inst& in, LaneMask exec);
  template <unsigned kSize, bool kChecked>
  void store_sized(const Inst& in, LaneMask exec);
  /// Whether [addr, addr+size) lies inside [0, limit), without overflowing.
  static bool fits(uint64_t addr, uint64_t size, uint64_t limit) {
    return size <= limit && addr <= limit - size;
  }
  /// Host pointer for an access: aligned shared and global accesses inline, the rest (generic
  /// addresses, faults, shared accesses racecheck records) through resolve(). kChecked: the
  /// launch runs with memcheck or racecheck.
  template <bool kChecked>
  uint8_t* pointer(const Inst& in, uint64_t addr, unsigned size, unsigned lane, bool write) {
    if ((addr & (size - 1)) == 0) {
      if (in.space == StateSpace::Shared) {
        if ((!kChecked || !racecheck_) && fits(addr, size, cta_->shared.size()))
          return cta_->shared.data() + addr;
      } else if (in.space == StateSpace::Global) {
        if (!kChecked || !memcheck_ || memcheck_->allows(addr, size, write, memcheck_cache_)) {
          if (uint8_t* p = cta_->global->page_pointer(addr)) return p;
        }
      }
    }
    return resolve(in, in.space, addr, size, lane, write);
  }
  void atomic(const Inst& in, LaneMask exec);
  // Texture and surface instructions (warp_texture.cpp).
  struct TextureObjectCache {  // the last object a warp instruction read: lanes mostly share one
    bool valid = false;
    uint64_t handle = 0;
    tex::Descriptor descriptor;
  };
  void texture(const Inst& in, LaneMask exec);
  /// The handle a .texref/.surfref variable at `address` holds (the host bound it).
  uint64_t reference_handle(const Inst& in, unsigned lane, uint64_t address);
  const tex::Descriptor& texture_object(const Inst& in, unsigned lane, uint64_t handle,
                                        TextureObjectCache& cache);
  const uint8_t* texel(const Inst& in, unsigned lane, const tex::Descriptor& d, uint64_t offset);
  void surface_access(const Inst& in, unsigned lane, const tex::Descriptor& d,
                      const tex::Coordinates& c, unsigned first_value);
  static uint64_t reduce_surface(AtomOp op, ScalarType t, uint64_t old, uint64_t b);
  void address_conversion(const Inst& in, LaneMask exec);
  void mbarrier(const Inst& in, LaneMask exec);
  void device_printf(const Inst& in, LaneMask exec);
  uint64_t address_of(const Operand& o, unsigned lane) const;
  uint64_t address_bias(const Operand& o) const;  // the part of an address all lanes share
  uint8_t* resolve(const Inst& in, StateSpace space, uint64_t addr, unsigned size, unsigned lane,
                   bool write);
  // Out of resolve()'s line, so that unchecked accesses do not pay for their set-up.
  [[noreturn, gnu::noinline]] void misaligned(const Inst& in, uint64_t addr, unsigned size,
                                              unsigned lane) const;
  [[gnu::noinline]] void check_global(const Inst& in, uint64_t addr, unsigned size, unsigned lane,
                                      bool write);  // memcheck
  [[gnu::noinline]] void record_shared(const Inst& in, uint64_t addr, unsigned size, unsigned lane,
                                       bool write);  // racecheck
  std::string read_device_string(uint64_t generic_addr, unsigned lane);
  uint8_t* local(unsigned lane) {
    return local_.get() + size_t(lane) * launch_->local_bytes_per_thread();
  }
  uint64_t special_value(SpecialReg s, unsigned lane) const;
  uint64_t clock_value(ClockReg c) const;
  [[noreturn]] void fault(const Inst& in, unsigned lane, const std::string& what) const;

  const LaunchContext* launch_ = nullptr;
  CtaContext* cta_ = nullptr;
  const Function* fn_ = nullptr;  // function now running
  uint32_t warp_index_ = 0;
  State state_ = State::Done;
  BarrierArrival barrier_;
  LaneMask exited_ = 0;
  LaneMask active_ = 0;  // lanes running on the path *running_
  std::vector<SimtEntry> simt_;
  /// The running leaf, a pointer rather than an index because run() reads it every instruction;
  /// under the stack model always the last entry.
  SimtEntry* running_ = nullptr;
  size_t running_index() const { return size_t(running_ - simt_.data()); }
  bool independent_ = false;          // SimtModel::yields_on_backward_branch()
  uint64_t simt_deadlock_limit_ = 0;  // SimtModel::deadlock_instructions(); 0: no check
  uint64_t path_start_ = 0;           // warp_instructions_ when the running path got its turn
  std::vector<CallFrame> calls_;
  std::vector<uint64_t> regs_;  // frames of num_regs * kWarpSize slots, innermost last
  size_t reg_base_ = 0;
  uint32_t frame_base_ = 0;  // local-memory offset of the current function's frame
  uint32_t stack_used_ = 0;  // stack charged to the active calls (depots and call overhead)
  struct FreeLocal {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  // kWarpSize areas of local_bytes_per_thread(), from calloc: large blocks come as untouched zero
  // pages, so the stacks of thousands of resident warps cost memory only where they are used.
  std::unique_ptr<uint8_t, FreeLocal> local_;
  size_t local_size_ = 0;
  ExecContext ctx_;
  uint64_t warp_instructions_ = 0;
  uint64_t progress_at_ = 0;
  const Inst* last_load_ = nullptr;  // of global or generic memory, for describe()
  uint64_t last_load_at_ = 0;        // warp_instructions_ then
  std::array<uint64_t, kNumInstClasses> class_counts_{};
  uint64_t thread_instructions_ = 0;
  std::array<std::array<uint8_t, 16>, 8> texel_scratch_{};  // texels of the fetch in progress
  uint32_t texel_next_ = 0;
  TextureFootprint footprint_;  // of the texture instruction in progress, for the observer
  // The checkers, last: unchecked runs only test the two pointers, once per memory instruction.
  const AllocationMap* memcheck_ = nullptr;  // the launch's, when it checks accesses
  SharedRaceCheck* racecheck_ = nullptr;     // the CTA's, when the launch checks races
  RegionCache memcheck_cache_;
};

}  // namespace gpusoc::ptx
