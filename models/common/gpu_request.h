// The one payload extension GPU-internal transactions carry: who asks and what kind of access it
// is, for the timing models along the path. Functional data never depends on it.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm>

#include "models/common/mem_packet.h"

namespace gpusoc {

// Texture: a texture or surface instruction's request from an SM to its texture unit.
enum class AccessKind : uint8_t { Load, Store, Atomic, Instruction, Dma, Texture };

struct GpuRequest : tlm::tlm_extension<GpuRequest> {
  uint32_t sm = 0;  // requesting SM (or ~0u for non-SM units)
  uint32_t warp = 0;
  AccessKind kind = AccessKind::Load;
  AtomicOp atomic = AtomicOp::Add;  // kind Atomic: which read-modify-write
  uint32_t sectors = 0;      // 32-byte sectors the access touches (0: derive from the length)
  uint32_t sector_mask = 0;  // which 32-byte sectors from the address, when not all (0: all)
  /// A timing request's direction (see timing_request()): it stands for a write (a store, a
  /// surface store or reduction) rather than a read.
  bool write = false;
  /// Kind Texture: the 32-byte sectors the instruction's texels (or surface elements) lie in,
  /// each once, the texels the filter blends, and the quads of threads the address units walk.
  std::vector<uint64_t> texture_sectors;
  uint32_t texels = 0;
  uint32_t quads = 0;

  tlm::tlm_extension_base* clone() const override { return new GpuRequest(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const GpuRequest&>(other);
  }
};

/// The extension of a timing request, null for any other payload. A timing request only asks for
/// timing: its data moved functionally already (the SMs read and write device memory through
/// DMI). It is a TLM_IGNORE_COMMAND payload carrying a GpuRequest, so that a target that knows
/// nothing of the extension moves no data, as the base protocol's ignore command asks.
inline const GpuRequest* timing_request(const tlm::tlm_generic_payload& tx) {
  return tx.get_command() == tlm::TLM_IGNORE_COMMAND ? tx.get_extension<GpuRequest>() : nullptr;
}

/// Whether `tx` writes: its command, or a timing request's direction.
inline bool writes(const tlm::tlm_generic_payload& tx) {
  if (const GpuRequest* r = timing_request(tx)) return r->write;
  return tx.is_write();
}

}  // namespace gpusoc
