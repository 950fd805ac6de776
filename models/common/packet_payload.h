// How a MemPacket travels between the memory system's SystemC modules (memory.model = tlm): a
// generic payload carrying the packet in a MemPacketExtension, from a pool whose payloads are
// their own memory manager.
//
// Between our own modules the extension is what counts. Towards a memory partition the payload
// is also a standard access, so that a third-party target (a DRAM simulator) can time it
// without knowing the extension: TLM_READ_COMMAND for reads and fills, TLM_WRITE_COMMAND for
// writes and write-backs, the address of the first sector, the length of the sector run, byte
// enables on the sectors the packet names, and a scratch buffer for data (timing only: the data
// lives in device memory, design guide section 3).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tlm>

#include "models/common/mem_packet.h"

namespace gpusoc {

struct MemPacketExtension : tlm::tlm_extension<MemPacketExtension> {
  MemPacket packet;
  tlm::tlm_extension_base* clone() const override { return new MemPacketExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    packet = static_cast<const MemPacketExtension&>(other).packet;
  }
};

/// The packet a payload carries: its extension's, or, for a payload from an initiator that does
/// not know the extension, the sectors its address and length span (op Read or Write by its
/// command, id 0).
MemPacket packet_of(const tlm::tlm_generic_payload& tx);

/// The payloads a module holds while their packets are inside its part, by the id the part
/// carries for each (a slot, reused once free), so that a reply finds its payload.
class PayloadSlots {
 public:
  /// A slot for `tx` (acquired already, where it has a memory manager).
  uint32_t put(tlm::tlm_generic_payload& tx) {
    if (free_.empty()) {
      slots_.push_back(nullptr);
      free_.push_back(uint32_t(slots_.size() - 1));
    }
    const uint32_t slot = free_.back();
    free_.pop_back();
    slots_[slot] = &tx;
    return slot;
  }
  tlm::tlm_generic_payload& operator[](uint64_t slot) const { return *slots_[slot]; }
  /// The transaction is over: the payload released (where it has a memory manager), the slot
  /// free.
  void done(uint64_t slot) {
    tlm::tlm_generic_payload& tx = *slots_[slot];
    free_.push_back(uint32_t(slot));
    if (tx.has_mm()) tx.release();
  }

 private:
  std::vector<tlm::tlm_generic_payload*> slots_;
  std::vector<uint32_t> free_;
};

class PacketPayloadPool {
 public:
  /// `scratch_bytes`: the data buffer every payload points at (one line, at least).
  explicit PacketPayloadPool(uint32_t scratch_bytes);
  ~PacketPayloadPool();
  PacketPayloadPool(const PacketPayloadPool&) = delete;
  PacketPayloadPool& operator=(const PacketPayloadPool&) = delete;

  /// A payload carrying `packet` (acquired once: release() it when its transaction is over),
  /// set up as the standard access described above.
  tlm::tlm_generic_payload& get(const MemPacket& packet);

 private:
  struct Payload;
  std::vector<std::unique_ptr<Payload>> all_;
  std::vector<Payload*> free_;
  std::vector<uint8_t> scratch_;
};

}  // namespace gpusoc
