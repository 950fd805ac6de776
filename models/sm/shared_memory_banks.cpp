#include "models/sm/shared_memory_banks.h"

#include <algorithm>
#include <string>

#include "models/common/error.h"

namespace gpusoc::sm {
namespace {

constexpr unsigned kLanes = 32;
constexpr unsigned kMaxWordsPerLane = 32;  // PTX accesses are at most 16 bytes
constexpr unsigned kChains = 64;
constexpr uint16_t kEnd = 0xffff;

// Whether every bank delivers at most one word (a conflict-free access or a broadcast), with a
// bit per bank: what most accesses are, settled without counting words. Needs banks <= kChains.
bool one_word_per_bank(const uint64_t* addresses, ptx::LaneMask lanes, unsigned bytes,
                       unsigned word_shift, uint64_t bank_mask) {
  uint64_t used = 0;
  uint64_t word_of[kChains];
  for (ptx::LaneMask rest = lanes; rest != 0; rest &= rest - 1) {
    const uint64_t address = addresses[__builtin_ctz(rest)];
    const uint64_t last_word = (address + bytes - 1) >> word_shift;
    for (uint64_t word = address >> word_shift; word <= last_word; ++word) {
      const uint64_t bank = word & bank_mask;
      if (!(used >> bank & 1)) {
        used |= uint64_t(1) << bank;
        word_of[bank] = word;
      } else if (word_of[bank] != word) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

uint32_t SharedMemoryBanks::conflict_degree(const uint64_t* addresses, ptx::LaneMask lanes,
                                            unsigned bytes) const {
  if (lanes == 0 || bytes == 0) return 0;
  const unsigned word_shift = unsigned(__builtin_ctz(bank_bytes));
  const uint64_t bank_mask = banks - 1;
  if (((bytes + bank_bytes - 2) >> word_shift) + 1 > kMaxWordsPerLane) {  // worst alignment
    throw ModelError("shared memory", "a " + std::to_string(bytes) +
                                          "-byte access may span more than " +
                                          std::to_string(kMaxWordsPerLane) + " bank words");
  }
  if (banks <= kChains && one_word_per_bank(addresses, lanes, bytes, word_shift, bank_mask)) {
    return 1;
  }
  // A conflict: the distinct words so far, chained by bank (modulo kChains, so one walk finds a
  // repeated word and counts the words its bank already delivers). Nothing but the heads needs
  // clearing.
  uint64_t words[kLanes * kMaxWordsPerLane];
  uint16_t next[kLanes * kMaxWordsPerLane];
  uint16_t head[kChains];
  const unsigned chains = std::min<unsigned>(banks, kChains);
  std::fill_n(head, chains, kEnd);
  uint16_t count = 0;
  uint32_t degree = 1;

  for (ptx::LaneMask rest = lanes; rest != 0; rest &= rest - 1) {
    const uint64_t address = addresses[__builtin_ctz(rest)];
    const uint64_t last_word = (address + bytes - 1) >> word_shift;
    for (uint64_t word = address >> word_shift; word <= last_word; ++word) {
      uint16_t& chain = head[word & (chains - 1)];
      uint32_t same_bank = 0;
      uint16_t e = chain;
      while (e != kEnd && words[e] != word) {
        same_bank += ((words[e] ^ word) & bank_mask) == 0;
        e = next[e];
      }
      if (e != kEnd) continue;  // broadcast: the word is already being delivered
      words[count] = word;
      next[count] = chain;
      chain = count++;
      degree = std::max(degree, same_bank + 1);
    }
  }
  return degree;
}

}  // namespace gpusoc::sm
