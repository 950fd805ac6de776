#include "models/common/packet_payload.h"

#include <algorithm>

namespace gpusoc {

MemPacket packet_of(const tlm::tlm_generic_payload& tx) {
  if (const MemPacketExtension* e = tx.get_extension<MemPacketExtension>()) return e->packet;
  MemPacket p;
  const uint64_t first = tx.get_address() & ~uint64_t(kSectorBytes - 1);
  const uint64_t end = tx.get_address() + std::max(1u, tx.get_data_length());
  const uint64_t sectors = (end - first + kSectorBytes - 1) / kSectorBytes;
  p.address = first;
  p.sector_mask = sectors >= 32 ? ~0u : (1u << sectors) - 1;
  p.op = tx.is_write() ? MemOp::Write : MemOp::Read;
  return p;
}

// A pooled payload: its extension is a member, and the last release() returns it to the pool.
struct PacketPayloadPool::Payload final : tlm::tlm_generic_payload, tlm::tlm_mm_interface {
  Payload(PacketPayloadPool& owner, size_t line) : pool(owner), byte_enables(line) {
    set_mm(this);
    set_extension(&extension);
  }
  ~Payload() override { clear_extension(&extension); }
  void free(tlm::tlm_generic_payload*) override { pool.free_.push_back(this); }

  PacketPayloadPool& pool;
  MemPacketExtension extension;
  std::vector<uint8_t> byte_enables;  // per byte of the run: whether its sector is named
};

PacketPayloadPool::PacketPayloadPool(uint32_t scratch_bytes)
    : scratch_(std::max<uint32_t>(scratch_bytes, 32 * kSectorBytes)) {}

PacketPayloadPool::~PacketPayloadPool() = default;

tlm::tlm_generic_payload& PacketPayloadPool::get(const MemPacket& packet) {
  if (free_.empty()) {
    all_.push_back(std::make_unique<Payload>(*this, scratch_.size()));
    free_.push_back(all_.back().get());
  }
  Payload& p = *free_.back();
  free_.pop_back();
  p.extension.packet = packet;
  // The run of sectors from the first to the last named; the gaps' bytes disabled.
  const uint32_t span = 32 - uint32_t(__builtin_clz(packet.sector_mask));
  const uint32_t bytes = span * kSectorBytes;
  for (uint32_t s = 0; s < span; ++s) {
    std::fill_n(p.byte_enables.begin() + s * kSectorBytes, kSectorBytes,
                (packet.sector_mask >> s & 1) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED);
  }
  const bool gaps = packet.sector_mask != (span >= 32 ? ~0u : (1u << span) - 1);
  p.set_command(packet.op == MemOp::Write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(packet.address);
  p.set_data_ptr(scratch_.data());
  p.set_data_length(bytes);
  p.set_streaming_width(bytes);
  p.set_byte_enable_ptr(gaps ? p.byte_enables.data() : nullptr);
  p.set_byte_enable_length(gaps ? bytes : 0);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.acquire();
  return p;
}

}  // namespace gpusoc
