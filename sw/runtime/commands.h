// Encoders for the command packets of models/gigathread/packets.h: one function per opcode, so
// every packet the runtime writes is built in one place, field by field as the ABI says.
#pragma once

#include <cstdint>
#include <cstring>

#include "models/gigathread/packets.h"

namespace gpusoc::rt::commands {

inline cmd::Packet packet(cmd::Opcode opcode, uint32_t flags) {
  cmd::Packet p;
  p.opcode = opcode;
  p.flags = flags;
  return p;
}

inline cmd::Packet launch(uint64_t descriptor_address, uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::Launch, flags);
  p.a[0] = descriptor_address;
  return p;
}

inline cmd::Packet copy(uint64_t source, uint64_t destination, uint64_t bytes,
                        cmd::CopyDirection direction, uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::Copy, flags);
  p.a[0] = source;
  p.a[1] = destination;
  p.a[2] = bytes;
  p.a[3] = static_cast<uint64_t>(direction);
  return p;
}

inline cmd::Packet memset(uint64_t destination, uint64_t bytes, uint32_t value,
                          uint32_t element_bytes, uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::Memset, flags);
  p.a[0] = destination;
  p.a[1] = bytes;
  p.a[2] = value;
  p.a[3] = element_bytes;
  return p;
}

/// Waits until the 64-bit word at `semaphore` >= value; poll_ns 0 lets the GPU choose.
inline cmd::Packet sem_acquire(uint64_t semaphore, uint64_t value, uint64_t poll_ns,
                               uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::SemAcquire, flags);
  p.a[0] = semaphore;
  p.a[1] = value;
  p.a[2] = poll_ns;
  return p;
}

/// Writes a SemaphoreRecord {value, timestamp} at `record` once earlier packets completed.
inline cmd::Packet sem_release(uint64_t record, uint64_t value, uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::SemRelease, flags);
  p.a[0] = record;
  p.a[1] = value;
  return p;
}

inline cmd::Packet fence(uint64_t word, uint64_t value, uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::Fence, flags);
  p.a[0] = word;
  p.a[1] = value;
  return p;
}

inline cmd::Packet module_load(uint64_t ptx_address, uint64_t ptx_bytes, uint64_t result_address,
                               uint64_t result_bytes, uint64_t report_address = 0,
                               uint64_t report_bytes = 0, uint64_t name_address = 0,
                               uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::ModuleLoad, flags);
  p.a[0] = ptx_address;
  p.a[1] = ptx_bytes;
  p.a[2] = result_address;
  p.a[3] = result_bytes;
  p.a[4] = report_address;
  p.a[5] = report_bytes;
  p.a[6] = name_address;
  return p;
}

inline cmd::Packet module_unload(uint64_t module_id, uint32_t flags = 0) {
  cmd::Packet p = packet(cmd::Opcode::ModuleUnload, flags);
  p.a[0] = module_id;
  return p;
}

/// The 64 bytes of a packet as they go into the ring (the host is little endian, as is the ABI).
inline void encode(const cmd::Packet& p, uint8_t* out) {
  static_assert(sizeof(cmd::Packet) == 64, "packets are 64 bytes");
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the packet ABI is little endian");
  std::memcpy(out, &p, sizeof p);
}

}  // namespace gpusoc::rt::commands
