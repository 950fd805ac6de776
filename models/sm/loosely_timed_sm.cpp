#include "models/sm/loosely_timed_sm.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/decoupling_quantum.h"
#include "models/common/error.h"
#include "models/sm/device_memory_view.h"
#include "models/sm/texture_request.h"

namespace gpusoc::sm {

using sc_core::sc_time;

struct LooselyTimedSm::ResidentCta {
  ResidentCta(GridWork& g, ptx::Dim3 id, std::unique_ptr<ptx::CtaRunner> r)
      : grid(&g), ctaid(id), runner_ptr(std::move(r)), runner(*runner_ptr) {}
  GridWork* grid;
  ptx::Dim3 ctaid;
  std::unique_ptr<ptx::CtaRunner> runner_ptr;
  ptx::CtaRunner& runner;
  std::vector<Ps> ready;  // per warp: when it may issue next
  Ps start = 0;
  Ps end = 0;  // once finished: when its last warp completed
};

LooselyTimedSm::LooselyTimedSm(sc_core::sc_module_name name, uint32_t sm_id,
                               const LtSmTiming& timing, StatGroup& stats_parent)
    : sc_module(name),
      mem_initiator("mem_initiator"),
      tex_initiator("tex_initiator"),
      sm_id_(sm_id),
      timing_(timing),
      cycle_ps_(timing.cycle_ps()),
      scratch_(32 * ptx::kWarpSize),
      stats_(stats_parent, basename()),
      ctas_(stats_, "ctas", "CTAs", "CTAs run to completion"),
      warp_instructions_(stats_, "warp_instructions", "instructions", "warp instructions issued"),
      thread_instructions_(stats_, "thread_instructions", "instructions",
                           "thread instructions executed (active, guard-true lanes)"),
      memory_requests_(stats_, "memory_requests", "requests",
                       "warp-level global memory requests sent to the memory path"),
      sectors_(stats_, "sectors", "sectors", "32-byte sectors those requests touched"),
      stall_ns_(stats_, "load_stall_ns", "ns",
                "warp time spent waiting for global loads and texture fetches"),
      texture_requests_(stats_, "texture_requests", "requests",
                        "texture and surface warp instructions sent to the texture unit") {
  mem_initiator.register_invalidate_direct_mem_ptr(this,
                                                   &LooselyTimedSm::invalidate_direct_mem_ptr);
  tx_.set_extension(&request_);
  request_.sm = sm_id;
  tex_tx_.set_extension(&tex_request_);
  tex_request_.sm = sm_id;
  SC_HAS_PROCESS(LooselyTimedSm);
  SC_THREAD(run);
}

LooselyTimedSm::~LooselyTimedSm() {
  tx_.clear_extension(&request_);  // members, not the payloads' to delete
  tex_tx_.clear_extension(&tex_request_);
}

LooselyTimedSm::Ps LooselyTimedSm::now_ps() const {
  return ps_.now();
}

void LooselyTimedSm::launch_cta(GridWork& grid, ptx::Dim3 ctaid) {
  arriving_.push_back({&grid, ctaid, now_ps()});
  work_arrived_.notify(sc_core::SC_ZERO_TIME);
}

SparseMemory& LooselyTimedSm::device_memory() {
  if (!vram_) vram_ = map_device_memory(*mem_initiator.operator->(), name());
  return *vram_;
}

void LooselyTimedSm::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (vram_) vram_->revoke(start, end);  // asked for again at the next access
}

void LooselyTimedSm::admit_new_ctas() {
  // Reporting a dropped CTA can place another on this SM: take the list first.
  std::vector<Arrival> batch;
  batch.swap(arriving_);
  for (const Arrival& a : batch) {
    if (a.grid->failed) {  // its grid faulted before the CTA got here: it never starts
      const sc_time now = sc_core::sc_time_stamp();
      listener_->cta_retired(*a.grid, sm_id_, dropped_cta(a.ctaid, now, now));
      continue;
    }
    auto cta = std::make_unique<ResidentCta>(*a.grid, a.ctaid, runners_.take(*a.grid));
    cta->start = a.time;
    cta->runner.start(a.ctaid, sm_id_, &device_memory(), this);
    cta->ready.assign(cta->runner.num_warps(), cta->start + ps_.of(timing_.cta_launch));
    resident_.push_back(std::move(cta));
  }
}

bool LooselyTimedSm::pick_warp(ResidentCta*& best, uint32_t& best_warp) const {
  best = nullptr;
  Ps earliest = ~Ps(0);
  for (const auto& cta : resident_) {
    if (cta->runner.finished()) continue;
    for (uint32_t w = 0; w < cta->runner.num_warps(); ++w) {
      if (cta->runner.warp(w).state() == ptx::Warp::State::Ready && cta->ready[w] < earliest) {
        earliest = cta->ready[w];
        best = cta.get();
        best_warp = w;
      }
    }
  }
  return best != nullptr;
}

void LooselyTimedSm::catch_up(Ps t) {
  const Ps now = now_ps();
  if (t > now) wait(ps_.until(t));
}

void LooselyTimedSm::retire(std::unique_ptr<ResidentCta>& cta) {
  CtaReport report;
  report.ctaid = cta->ctaid;
  report.start = ps_.time(cta->start);
  report.end = ps_.time(cta->end);
  cta->runner.add_stats(report.stats);
  ++ctas_;
  warp_instructions_ += report.stats.warp_instructions;
  thread_instructions_ += report.stats.thread_instructions;
  GridWork& grid = *cta->grid;
  runners_.give_back(grid, std::move(cta->runner_ptr));
  cta.reset();
  listener_->cta_retired(grid, sm_id_, report);
}

// Retires, in time order, the finished CTAs that ended no later than `before`.
void LooselyTimedSm::retire_due(Ps before) {
  for (;;) {
    auto due = resident_.end();
    for (auto it = resident_.begin(); it != resident_.end(); ++it) {
      if ((*it)->runner.finished() && (*it)->end <= before &&
          (due == resident_.end() || (*it)->end < (*due)->end))
        due = it;
    }
    if (due == resident_.end()) return;
    catch_up((*due)->end);
    std::unique_ptr<ResidentCta> cta = std::move(*due);
    resident_.erase(due);
    retire(cta);
  }
}

void LooselyTimedSm::drop_failed_grids() {
  for (auto it = resident_.begin(); it != resident_.end();) {
    if (!(*it)->grid->failed) {
      ++it;
      continue;
    }
    std::unique_ptr<ResidentCta> cta = std::move(*it);
    it = resident_.erase(it);
    listener_->cta_retired(
        *cta->grid, sm_id_,
        dropped_cta(cta->ctaid, ps_.time(cta->start), sc_core::sc_time_stamp()));
  }
}

void LooselyTimedSm::run_slice(ResidentCta& cta, uint32_t w) {
  const ptx::Warp& warp = cta.runner.warp(w);
  const Ps start = std::max(cta.ready[w], issue_free_);
  const auto before = warp.class_counts();
  access_time_ = start;
  slice_stall_ = 0;
  request_.warp = w;
  try {
    cta.runner.step(w, timing_.slice_instructions);
  } catch (const ptx::ExecutionError& e) {  // a kernel fault; model errors propagate
    catch_up(start);
    auto it = std::find_if(resident_.begin(), resident_.end(),
                           [&](const auto& c) { return c.get() == &cta; });
    std::unique_ptr<ResidentCta> failed = std::move(*it);
    resident_.erase(it);
    failed->grid->failed = true;
    CtaReport report;
    report.ctaid = failed->ctaid;
    report.start = ps_.time(failed->start);
    report.end = sc_core::sc_time_stamp();
    report.failed = true;
    report.message = e.what();
    listener_->cta_retired(*failed->grid, sm_id_, report);
    return;
  }
  Ps issue_cycles = 0;
  const auto& after = warp.class_counts();
  for (size_t c = 0; c < after.size(); ++c)
    issue_cycles += (after[c] - before[c]) * timing_.issue_cycles[c];
  issue_free_ = start + issue_cycles * cycle_ps_;
  cta.ready[w] = issue_free_ + slice_stall_;
  stall_ps_ += slice_stall_;
  stall_ns_ += stall_ps_ / 1000;
  stall_ps_ %= 1000;
  for (uint32_t r : cta.runner.released()) cta.ready[r] = std::max(cta.ready[r], cta.ready[w]);
  if (cta.runner.finished()) cta.end = *std::max_element(cta.ready.begin(), cta.ready.end());
}

void LooselyTimedSm::global_access(ptx::GlobalAccess kind, const uint64_t* addresses,
                                   ptx::LaneMask lanes, unsigned /*bytes*/) {
  // Distinct 32-byte sectors, sorted (lanes' accesses are aligned, so none spans two).
  uint64_t sectors[ptx::kWarpSize];
  unsigned n = 0;
  for (ptx::LaneMask m = lanes; m; m &= m - 1) {
    const uint64_t s = addresses[__builtin_ctz(m)] >> 5;
    unsigned i = n;
    while (i > 0 && sectors[i - 1] > s) --i;
    if (i > 0 && sectors[i - 1] == s) continue;
    std::copy_backward(sectors + i, sectors + n, sectors + n + 1);
    sectors[i] = s;
    ++n;
  }
  tx_.set_command(tlm::TLM_IGNORE_COMMAND);  // a timing request (gpu_request.h)
  request_.write = kind == ptx::GlobalAccess::Store;
  tx_.set_address(sectors[0] << 5);
  tx_.set_data_ptr(scratch_.data());
  tx_.set_data_length(n * 32);
  tx_.set_streaming_width(n * 32);
  tx_.set_byte_enable_ptr(nullptr);
  tx_.set_dmi_allowed(false);
  tx_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  request_.kind = kind == ptx::GlobalAccess::Store  ? AccessKind::Store
                  : kind == ptx::GlobalAccess::Load ? AccessKind::Load
                                                    : AccessKind::Atomic;
  request_.sectors = n;
  const Ps now = now_ps();
  const Ps leaves = std::max(access_time_, now);
  // The delay sent is rounded up to the resolution: what the target added is counted from
  // `leaves` itself, so that rounding does not accumulate over a warp's accesses.
  const sc_time sent = ps_.time(leaves - now);
  sc_time delay = sent;
  mem_initiator->b_transport(tx_, delay);
  const Ps done = leaves + (ps_.of(delay) - ps_.of(sent));
  ++memory_requests_;
  sectors_ += n;
  // Stores are posted; loads and atomics hold the warp until the data returns.
  if (kind != ptx::GlobalAccess::Store) {
    slice_stall_ += done - leaves;
    access_time_ = done;
  }
}

void LooselyTimedSm::texture_access(const ptx::TextureFootprint& f) {
  if (tex_initiator.size() == 0) {
    throw ModelError(name(),
                     "a texture or surface instruction, and no texture unit is bound to "
                     "tex_initiator");
  }
  describe_texture_request(f, tex_request_);
  tex_request_.warp = request_.warp;
  tex_tx_.set_command(tlm::TLM_IGNORE_COMMAND);  // a timing request (gpu_request.h)
  tex_request_.write = f.kind != ptx::GlobalAccess::Load;
  tex_tx_.set_address(tex_request_.texture_sectors.empty() ? 0 : tex_request_.texture_sectors[0]);
  tex_tx_.set_data_ptr(scratch_.data());
  tex_tx_.set_data_length(32);
  tex_tx_.set_streaming_width(32);
  tex_tx_.set_byte_enable_ptr(nullptr);
  tex_tx_.set_dmi_allowed(false);
  tex_tx_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const Ps now = now_ps();
  const Ps leaves = std::max(access_time_, now);
  const sc_time sent = ps_.time(leaves - now);  // rounded up: counted from `leaves` (above)
  sc_time delay = sent;
  tex_initiator->b_transport(tex_tx_, delay);
  ++texture_requests_;
  // Fetches and surface loads hold the warp until their results arrive; stores are posted.
  if (f.kind == ptx::GlobalAccess::Load) {
    const Ps done = leaves + (ps_.of(delay) - ps_.of(sent));
    slice_stall_ += done - leaves;
    access_time_ = done;
  }
}

void LooselyTimedSm::run() {
  quantum_ = decoupling_quantum(timing_.quantum);
  const Ps quantum = ps_.of(quantum_);
  for (;;) {
    admit_new_ctas();
    drop_failed_grids();
    ResidentCta* cta = nullptr;
    uint32_t w = 0;
    if (!pick_warp(cta, w)) {
      retire_due(~Ps(0));
      if (resident_.empty() && arriving_.empty()) wait(work_arrived_);
      continue;
    }
    const Ps t = std::max(cta->ready[w], issue_free_);
    const size_t resident_before = resident_.size();
    retire_due(t);
    if (resident_.size() != resident_before) continue;  // slots freed: new CTAs may be here
    if (t > now_ps() + quantum) {
      catch_up(t);
      continue;
    }
    run_slice(*cta, w);
  }
}

}  // namespace gpusoc::sm
