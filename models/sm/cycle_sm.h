// The cycle-level SM. Its processing blocks each pick one warp per cycle (WarpScheduler), check
// the warp's next instruction against its scoreboard and the block's pipelines, and issue it;
// the PTX core executes it functionally at issue (one instruction at a time: ptx::CtaRunner::step),
// and the SM decides when its results are ready. Loads, stores and atomics go through the LSU
// (lsu.h: shared memory and its bank conflicts, the coalescer, one line per cycle) to the L1 miss
// path (l1_miss_path.h: the constant cache and the L1, sectored, with MSHRs), whose misses leave
// as approximately timed requests on `mem_initiator` (MemoryRequestPort, cycle_sm_ports.cpp).
//
// Time: one SC_THREAD per SM counts cycles in plain C++ and runs ahead of SystemC time by at most
// a quantum. A cycle in which nothing can happen is skipped: the SM jumps to the next cycle at
// which a register lands, a unit frees, a memory reply returns or a CTA arrives. It waits on
// SystemC only for the quantum, for replies whose time it cannot know yet, and when it is empty.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>

#include "models/common/picoseconds.h"
#include "models/common/sparse_memory.h"
#include "models/ptx/cta_runner.h"
#include "models/sm/cta_runner_pool.h"
#include "models/sm/cycle_sm_config.h"
#include "models/sm/cycle_sm_stats.h"
#include "models/sm/execution_units.h"
#include "models/sm/l1_miss_path.h"
#include "models/sm/lsu.h"
#include "models/sm/memory_request_port.h"
#include "models/sm/mio_queues.h"
#include "models/sm/register_use.h"
#include "models/sm/scoreboard.h"
#include "models/sm/sm_interface.h"
#include "models/sm/warp_scheduler.h"

namespace gpusoc::sm {

class CycleSm : public sc_core::sc_module,
                public StreamingMultiprocessor,
                private ptx::GlobalAccessObserver,
                private LsuClient {
 public:
  CycleSm(sc_core::sc_module_name name, uint32_t sm_id, const CycleSmConfig& config,
          StatGroup& stats_parent);
  ~CycleSm() override;
  /// How far it runs ahead of SystemC time: its own quantum parameter, else the platform's
  /// tlm_global_quantum, else 1 us (decoupling_quantum), resolved when simulation starts.
  sc_core::sc_time quantum() const { return quantum_; }

  tlm_utils::simple_initiator_socket_optional<MemoryRequestPort>& mem_initiator;  // must be bound
  /// To the TPC's texture unit (models/tex/texture_unit.h): texture and surface instructions.
  /// Optional: an SM without one fails a kernel that uses textures with a ModelError.
  tlm_utils::simple_initiator_socket_optional<MemoryRequestPort>& tex_initiator;

  uint32_t sm_id() const override { return sm_id_; }
  void launch_cta(GridWork& grid, ptx::Dim3 ctaid) override;
  void grid_failed() override;
  uint64_t issued_warp_instructions() const override { return stats_.warp_instructions.value(); }
  void set_listener(CtaRetirementListener& listener) override { listener_ = &listener; }
  const CycleStats& stats() const { return stats_; }
  /// Also count per kernel, in `table` (shared by the GPU's SMs); without it, per SM only.
  void set_kernel_stats(KernelCycleStats& table) { kernel_stats_ = &table; }

 private:
  static constexpr uint64_t kNever = ~uint64_t(0);
  // Texture requests a port may have outstanding: the texture unit's queue (tex.queue_depth)
  // and END_REQ hold any more back, so this only sizes the port's payload pool.
  static constexpr uint32_t kTextureRequestsInFlight = 64;
  // Why a warp could not issue, nearest to issuing first.
  enum class Stall : uint8_t { None, Pipeline, Dependency, Memory, Texture, Barrier, NoWarp };
  struct ResidentCta {
    GridWork* grid = nullptr;
    ptx::Dim3 ctaid;
    std::unique_ptr<ptx::CtaRunner> runner;
    std::vector<uint32_t> slots;  // per warp of the CTA: its warp slot
    uint64_t start_cycle = 0;
    uint32_t live_warps = 0;
    uint64_t done_cycle = kNever;  // once every warp finished: when the CTA leaves
    CycleStats* kernel = nullptr;  // its kernel's counts (null: none kept)
  };
  struct WarpSlot {
    ResidentCta* cta = nullptr;  // null: free
    uint32_t warp = 0;           // index in its CTA
    uint64_t ready_at = 0;       // no use checking before this cycle (kNever: woken by an event)
    uint64_t hold_until = 0;     // its own last issue (a branch), start or barrier holds it till
    Stall stall = Stall::None;   // why it could not issue when last checked
    bool long_wait = false;      // told the scheduler it waits (memory or a barrier)
    uint32_t loads_waiting = 0;  // loads and atomics in flight whose results it will read
    bool draining = false;       // done, but its slot waits for those loads to land
    uint32_t generation = 0;     // placements so far: replies for an earlier warp leave it be
    const ptx::Inst* regs_for = nullptr;  // the instruction `regs` describes, in frame regs_frame
    uint32_t regs_frame = 0;
    RegisterUse regs;
    RegisterUse last_issued;  // its previous instruction's registers (the operand reuse cache)
    Scoreboard scoreboard;
  };
  struct Block {
    std::unique_ptr<WarpScheduler> scheduler;
    ExecutionUnits units;
    std::vector<uint32_t> live;            // occupied slots of this block, in slot order
    std::vector<uint32_t> order;           // scratch for the scheduler
    Stall stall = Stall::NoWarp;           // why the block did not issue this cycle
    CycleStats* charged_kernel = nullptr;  // the kernel charged with this cycle's slot
    // A block none of whose warps is due keeps its stall and charged kernel until one of its
    // warps changes (unsettle()) or `settled_until`, its warps' earliest ready_at: an SM woken
    // for a reply elsewhere then skips the block without looking at its warps.
    bool settled = false;
    uint64_t settled_until = 0;
    Stall settled_stall = Stall::NoWarp;
    CycleStats* settled_kernel = nullptr;
  };
  struct ResidentKernel {
    CycleStats* stats;
    uint32_t ctas = 0;
    uint32_t warps = 0;
  };
  struct Arrival {
    GridWork* grid;
    ptx::Dim3 ctaid;
    uint64_t cycle;
  };

  // cycle_sm.cpp: the cycle loop, CTAs in and out
  void run();
  void admit_arrivals();
  bool place(GridWork& grid, ptx::Dim3 ctaid);
  void retire_finished();
  void finish_warp(uint32_t slot);
  /// The warp ran its last instruction: its slot frees once its loads have landed.
  void warp_done(uint32_t slot);
  void release_slots(ResidentCta& cta);
  void fail_cta(ResidentCta& cta, const std::string& message);
  void drop_failed_grids();
  void report(ResidentCta& cta, bool failed, bool dropped, const std::string& message);
  uint64_t next_wake() const;
  /// Adds `n` to a counter of the SM and of `kernel` (if kept).
  void count(Counter CycleStats::*counter, CycleStats* kernel, uint64_t n = 1) {
    count_cycle_stat(stats_, kernel, counter, n);
  }
  ResidentKernel& resident_kernel(CycleStats* kernel);
  void advance_to(uint64_t cycle);
  /// Lets SystemC time catch up with `cycle` (no-op when it is there already).
  void synchronize_to(uint64_t cycle);
  void wait_for_activity();
  /// Waits for a memory reply (or new work) for up to sm.cycle.watchdog_reply_cycles; when none
  /// comes, the replies are lost: every resident CTA with a warp waiting on one fails.
  void wait_for_replies();
  std::string lost_reply_report(const ResidentCta& cta) const;
  uint64_t now_cycle() const;
  sc_core::sc_time time_of(uint64_t cycle) const;
  // cycle_sm_issue.cpp: scheduling and issue
  bool issue_cycle();  // whether any block issued
  bool try_issue(Block& block, uint32_t slot);
  void wake_released(ResidentCta& cta);
  void access_completed(uint32_t id, const LsuAccess& access) override;
  void lsu_room_again(const std::vector<uint32_t>& slots) override;
  /// Tells the slot's scheduler whether the warp now waits long (on memory or at a barrier).
  void update_long_wait(uint32_t slot);
  // What the PTX core reports of the instruction being issued: to the LSU.
  void global_access(ptx::GlobalAccess kind, const uint64_t* addresses, ptx::LaneMask lanes,
                     unsigned bytes) override {
    lsu_.global_access(kind, addresses, lanes, bytes);
  }
  void on_chip_access(ptx::StateSpace space, ptx::GlobalAccess kind, const uint64_t* addresses,
                      ptx::LaneMask lanes, unsigned bytes) override {
    lsu_.on_chip_access(space, kind, addresses, lanes, bytes);
  }
  // cycle_sm_ports.cpp: requests out, replies in, and the texture unit
  void texture_access(const ptx::TextureFootprint& footprint) override;
  void send_texture();
  bool texture_can_send() const { return !tex_outbox_.empty() && tex_port_.can_send(); }
  void end_of_elaboration() override;
  // Warp slot s changed (ready_at, stall, its CTA, or its block's live warps): its block's
  // settled stall no longer holds.
  void unsettle(uint32_t s) { blocks_[s % blocks_.size()].settled = false; }
  void send_cycle();
  /// Takes the ports' completions to the miss path; the check inline, as most calls find none.
  void collect_replies() {
    if (port_.has_completions() || (texture_in_flight_ && tex_port_.has_completions()))
      take_replies();
  }
  void take_replies();
  void land_replies();
  /// The LSU or a port has work it can do next cycle.
  bool lsu_can_progress() const {
    return miss_path_.can_send() || texture_can_send() || lsu_.can_progress();
  }

  const uint32_t sm_id_;
  const CycleSmConfig config_;
  const uint64_t cycle_ps_;
  const Picoseconds ps_;  // SystemC time <-> picoseconds at the platform's time resolution
  MemoryRequestPort port_;
  MemoryRequestPort tex_port_;
  CtaRetirementListener* listener_ = nullptr;
  std::unique_ptr<SparseMemory> vram_;
  sc_core::sc_time quantum_;
  CtaRunnerPool runners_;

  uint64_t cycle_ = 0;
  uint64_t rounds_ = 0;         // turns of the cycle loop
  bool drop_due_ = false;       // grid_failed(): drop failed grids' CTAs at the next turn
  uint32_t finished_ctas_ = 0;  // CTAs whose warps are all done, waiting to retire
  uint64_t warps_placed_ = 0;   // ages for the schedulers
  std::vector<Arrival> arriving_;
  sc_core::sc_event work_arrived_;
  std::vector<std::unique_ptr<ResidentCta>> resident_;
  std::vector<WarpSlot> slots_;
  std::vector<Block> blocks_;
  uint32_t resident_warps_ = 0;
  std::vector<ResidentKernel> resident_kernels_;  // kernels with CTAs here (when kept)
  KernelCycleStats* kernel_stats_ = nullptr;

  // The lost-reply watchdog: when a reply last came (or the first request went out), and its
  // deadline event with the time it fires (armed while that is not past).
  sc_core::sc_time last_reply_;
  sc_core::sc_event reply_deadline_;
  sc_core::sc_time deadline_;
  L1MissPath miss_path_;  // the L1, the constant cache, requests to the port, replies back
  CycleStats stats_;
  Lsu lsu_;                                // after miss_path_ and stats_, which it uses
  MioQueues mio_;                          // the blocks' queues to the LSU (Volta and later)
  std::vector<MemoryCompletion> replies_;  // scratch
  // Texture requests waiting for the texture unit's port, with their sectors (vectors reused).
  struct TextureOut {
    MemoryRequest request;
    std::vector<uint64_t> sectors;
  };
  std::deque<TextureOut> tex_outbox_;
  bool texture_in_flight_ = false;  // tex_port_ may have completions: checked only then
  std::vector<std::vector<uint64_t>> spare_sectors_;
  GpuRequest tex_describe_;  // scratch
};

}  // namespace gpusoc::sm
