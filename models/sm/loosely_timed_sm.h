// The loosely timed SM: runs its resident CTAs' warps with the PTX core in slices, always the
// warp that is ready earliest, and charges time per warp-instruction class (LtSmTiming). Global
// loads and atomics ask the memory path how long they take with a timing-only transaction on
// `mem_initiator` and stall their warp that long; the data itself moves through DMI. The SM runs
// ahead of SystemC time by at most a quantum and synchronizes only then and when a CTA retires.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/gpu_request.h"
#include "models/common/picoseconds.h"
#include "models/common/sparse_memory.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/ptx/cta_runner.h"
#include "models/sm/cta_runner_pool.h"
#include "models/sm/sm_interface.h"
#include "models/sm/sm_timing.h"

namespace gpusoc::sm {

class LooselyTimedSm : public sc_core::sc_module,
                       public StreamingMultiprocessor,
                       private ptx::GlobalAccessObserver {
 public:
  tlm_utils::simple_initiator_socket<LooselyTimedSm> mem_initiator;
  /// To the TPC's texture unit (models/tex/texture_unit.h): texture and surface instructions.
  /// Optional: an SM without one fails a kernel that uses textures with a ModelError.
  tlm_utils::simple_initiator_socket_optional<LooselyTimedSm> tex_initiator;

  LooselyTimedSm(sc_core::sc_module_name name, uint32_t sm_id, const LtSmTiming& timing,
                 StatGroup& stats_parent);
  ~LooselyTimedSm() override;
  /// How far it runs ahead of SystemC time: its own quantum parameter, else the platform's
  /// tlm_global_quantum, else 1 us (decoupling_quantum), resolved when simulation starts.
  sc_core::sc_time quantum() const { return quantum_; }

  uint32_t sm_id() const override { return sm_id_; }
  void launch_cta(GridWork& grid, ptx::Dim3 ctaid) override;
  // Its loop drops failed grids' CTAs at its next turn: it only sleeps with CTAs resident until
  // the next warp is ready (the end of a quantum or of an instruction's latency).
  void grid_failed() override {}
  void set_listener(CtaRetirementListener& listener) override { listener_ = &listener; }

 private:
  struct ResidentCta;
  using Ps = uint64_t;  // simulated picoseconds

  void run();
  void admit_new_ctas();
  bool pick_warp(ResidentCta*& cta, uint32_t& warp) const;
  void run_slice(ResidentCta& cta, uint32_t warp);
  void retire_due(Ps before);
  void retire(std::unique_ptr<ResidentCta>& cta);
  void drop_failed_grids();
  /// Waits until SystemC time reaches t. CTAs arriving meanwhile are admitted after, with their
  /// arrival time as their start (waking on them too costs SystemC more than it gains).
  void catch_up(Ps t);
  SparseMemory& device_memory();
  void global_access(ptx::GlobalAccess kind, const uint64_t* addresses, ptx::LaneMask lanes,
                     unsigned bytes) override;
  void texture_access(const ptx::TextureFootprint& footprint) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  Ps now_ps() const;

  const uint32_t sm_id_;
  const LtSmTiming timing_;
  const Ps cycle_ps_;
  const Picoseconds ps_;  // SystemC time <-> Ps at the platform's time resolution
  CtaRetirementListener* listener_ = nullptr;
  struct Arrival {
    GridWork* grid;
    ptx::Dim3 ctaid;
    Ps time;
  };
  std::vector<Arrival> arriving_;
  std::vector<std::unique_ptr<ResidentCta>> resident_;
  CtaRunnerPool runners_;
  sc_core::sc_event work_arrived_;
  Ps issue_free_ = 0;                   // when the SM's issue is next free
  std::unique_ptr<SparseMemory> vram_;  // the DMI view of device memory
  sc_core::sc_time quantum_;

  // The slice being run: when its next global access leaves, and the stall it has collected.
  Ps access_time_ = 0;
  Ps slice_stall_ = 0;
  Ps stall_ps_ = 0;  // load stall not yet counted in whole nanoseconds
  tlm::tlm_generic_payload tx_;
  GpuRequest request_;
  std::vector<uint8_t> scratch_;
  tlm::tlm_generic_payload tex_tx_;
  GpuRequest tex_request_;

  StatGroup stats_;
  Counter ctas_, warp_instructions_, thread_instructions_, memory_requests_, sectors_;
  Counter stall_ns_, texture_requests_;
};

}  // namespace gpusoc::sm
