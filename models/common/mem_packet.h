// What travels through the timing side of the memory hierarchy (crossbar, L2 slices, memory
// partitions): an access to the sectors of one line, tagged so its reply finds its way back.
// Timing only: data moves functionally elsewhere (design guide section 3).
#pragma once

#include <cstdint>

#include "models/common/bit_count.h"

namespace gpusoc {

enum class MemOp : uint8_t {
  Read,    // the reply carries the sectors' data
  Write,   // carries the sectors' data; the reply is an acknowledgement
  Atomic,  // read-modify-write at the ROP; the reply carries the old values
};

/// Which read-modify-write an atomic is (PTX atom and red), so that the ROP can count them.
enum class AtomicOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
inline constexpr unsigned kAtomicOps = unsigned(AtomicOp::Cas) + 1;
inline constexpr const char* kAtomicOpNames[kAtomicOps] = {"add", "min", "max", "inc",  "dec",
                                                           "and", "or",  "xor", "exch", "cas"};

inline constexpr uint32_t kSectorBytes = 32;
/// The source of a packet no requester made (an L2 write-back).
inline constexpr uint16_t kNoRequester = 0xFFFF;

struct MemPacket {
  uint64_t id = 0;           // the issuer's tag, returned unchanged with the reply
  uint64_t address = 0;      // 32-byte aligned address of the first sector (untranslated)
  uint32_t sector_mask = 1;  // bit i: the sector at address + 32 i; bit 0 always set. Whoever
                             // sends a packet into an L2 slice keeps it within one L2 line.
  MemOp op = MemOp::Read;
  AtomicOp atomic = AtomicOp::Add;  // op Atomic: which one
  uint16_t source = 0;              // the requesting port (SM, or trace source) the reply goes to

  uint32_t sectors() const { return count_bits(sector_mask); }
  uint32_t data_bytes() const { return sectors() * kSectorBytes; }
  /// Whether the packet carries data in the request direction (writes and atomics' operands).
  bool request_carries_data() const { return op != MemOp::Read; }
  /// Whether its reply carries data (reads and atomics' old values).
  bool reply_carries_data() const { return op != MemOp::Write; }
};

}  // namespace gpusoc
