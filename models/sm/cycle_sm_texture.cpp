// The cycle-level SM's texture and surface instructions: each warp instruction becomes one request
// to the TPC's texture unit on `tex_initiator`; fetches and surface loads hold their destination
// registers until the unit answers (the stall reason "texture"), stores and reductions are posted.
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
  count(&CycleStats::texture_requests, slots_[issuing_slot_].cta->kernel);
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
  m.warp = slots_[issuing_slot_].warp;
  m.texels = tex_describe_.texels;
  m.quads = tex_describe_.quads;
  m.texture_write = f.kind != ptx::GlobalAccess::Load;
  if (f.kind == ptx::GlobalAccess::Load) {
    const uint32_t id = issuing_access();
    ++accesses_[id].parts;
    accesses_[id].texture = true;
    m.tag = L1MissPath::kAccessTag | id;
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

}  // namespace gpusoc::sm
