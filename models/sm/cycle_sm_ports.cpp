// The cycle-level SM's ports: the L1 miss path's requests out on `mem_initiator` and the replies
// back, and texture and surface instructions, each warp instruction one request to the TPC's
// texture unit on `tex_initiator`; fetches and surface loads hold their destination registers
// until the unit answers (the stall reason "texture"), stores and reductions are posted.
#include <fmt/format.h>

#include "models/common/error.h"
#include "models/sm/cycle_sm.h"
#include "models/sm/texture_request.h"

namespace gpusoc::sm {

void CycleSm::end_of_elaboration() {
  if (!port_.bound()) throw ModelError(name(), "mem_initiator is not bound to device memory");
}

void CycleSm::texture_access(const ptx::TextureFootprint& f) {
  if (!tex_port_.bound()) {
    throw ModelError(name(),
                     "a texture or surface instruction, and no texture unit is bound to "
                     "tex_initiator");
  }
  count(&CycleStats::texture_requests, lsu_.instruction_kernel());
  describe_texture_request(f, tex_describe_);
  TextureOut out;
  if (!spare_sectors_.empty()) {
    out.sectors = std::move(spare_sectors_.back());
    spare_sectors_.pop_back();
  }
  out.sectors.swap(tex_describe_.texture_sectors);
  MemoryRequest& m = out.request;
  m.address = out.sectors.empty() ? 0 : out.sectors.front();
  m.bytes = 32;
  m.kind = AccessKind::Texture;
  m.warp = lsu_.instruction_warp();
  m.texels = tex_describe_.texels;
  m.quads = tex_describe_.quads;
  m.texture_write = f.kind != ptx::GlobalAccess::Load;
  if (f.kind == ptx::GlobalAccess::Load) {
    m.tag = L1MissPath::kAccessTag | lsu_.add_texture_part();
  } else {
    m.tag = L1MissPath::kStoreTag;
  }
  tex_outbox_.push_back(std::move(out));
}

void CycleSm::send_texture() {
  if (!texture_can_send()) return;
  TextureOut& out = tex_outbox_.front();
  out.request.texture_sectors = &out.sectors;
  tex_port_.send(out.request, time_of(cycle_));
  texture_in_flight_ = true;
  if (miss_path_.sent_elsewhere()) last_reply_ = sc_core::sc_time_stamp();  // watchdog's clock
  out.sectors.clear();
  spare_sectors_.push_back(std::move(out.sectors));
  tex_outbox_.pop_front();
}

void CycleSm::send_cycle() {
  if (miss_path_.waiting() == 0) return;
  if (!miss_path_.can_send()) {
    ++stats_.port_stalls;
    return;
  }
  if (miss_path_.send(time_of(cycle_), stats_))
    last_reply_ = sc_core::sc_time_stamp();  // the watchdog's clock starts
}

void CycleSm::take_replies() {
  replies_.clear();
  port_.take_completions(replies_);
  if (texture_in_flight_) {
    tex_port_.take_completions(replies_);
    texture_in_flight_ = tex_port_.in_flight() > 0;
  }
  last_reply_ = sc_core::sc_time_stamp();
  for (const MemoryCompletion& c : replies_) {
    if (c.error) {
      throw ModelError(name(), fmt::format("device memory answered a timing request with an error "
                                           "(tag 0x{:x})",
                                           c.tag));
    }
  }
  miss_path_.arrived(replies_, cycle_, cycle_ps_, ps_);
}

void CycleSm::land_replies() {
  miss_path_.land(cycle_,
                  [this](uint32_t access, uint64_t cycle) { lsu_.part_done(access, cycle); });
}

}  // namespace gpusoc::sm
