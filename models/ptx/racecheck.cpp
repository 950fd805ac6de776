#include "models/ptx/racecheck.h"

#include <fmt/format.h>

#include "models/ptx/inst.h"

namespace gpusoc::ptx {
namespace {

std::string thread_name(uint32_t linear, const Dim3& b) {
  return fmt::format("thread ({},{},{})", linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y));
}

uint32_t warp_of(uint32_t thread) {
  return thread / kWarpSize;
}

}  // namespace

std::string SharedRaceCheck::access(uint32_t offset, unsigned bytes, bool write, uint32_t thread,
                                    uint32_t line, const Dim3& block) {
  const uint32_t warp = warp_of(thread);
  for (uint32_t w = offset / 4; w <= (offset + bytes - 1) / 4 && w < words_.size(); ++w) {
    Word& word = words_[w];
    if (word.epoch != epoch_) word = Word{epoch_, {}, {}, {}};
    const auto foreign = [&](const Access& a) {
      return a.thread != kNobody && warp_of(a.thread) != warp;
    };
    const Access* other = nullptr;
    const char* kind = nullptr;
    if (foreign(word.writer)) {
      other = &word.writer;
      kind = write ? "write-after-write" : "read-after-write";
    } else if (write && (foreign(word.reader) || foreign(word.other_reader))) {
      other = foreign(word.reader) ? &word.reader : &word.other_reader;
      kind = "write-after-read";
    }
    if (other) {
      return fmt::format(
          "racecheck: {} hazard on shared memory at offset {:#x}: {} {} it, and {} {} it at line "
          "{}, with no barrier between",
          kind, w * 4, thread_name(thread, block), write ? "writes" : "reads",
          thread_name(other->thread, block), other == &word.writer ? "wrote" : "read", other->line);
    }
    if (write) {
      word.writer = {thread, line};
    } else if (word.reader.thread == kNobody) {
      word.reader = {thread, line};
    } else if (warp_of(word.reader.thread) != warp) {
      word.other_reader = {thread, line};
    }
  }
  return {};
}

}  // namespace gpusoc::ptx
