// Fuzz target: command packets as a buggy driver writes them (docs/commands.md). The command
// processor decodes packets only inside its channels' SystemC threads, so the input runs on the
// whole SoC (soc_harness.h), through BAR0 and a ring in host memory, and reaches the real copy
// engines, CTA distributor, SMs and module loader.
//
// Input: a 20-byte header, then the body.
//   u32 ring_size   CH_RING_SIZE, as written (the channel checks it at the doorbell)
//   u32 put         CH_PUT for the doorbell
//   u32 channel     which channel (modulo NUM_CHANNELS)
//   u32 log_bytes   CH_ERROR_LOG_SIZE; the log lies kLogOffset into the scratch
//   u32 put_again   when not equal to put: once the channel is idle, CH_PUT again and a doorbell
// The body (at most kBodyMax bytes) is copied to the start of the scratch host memory, which is
// the ring (CH_RING_BASE): packets come first, and descriptors, parameters and semaphores can sit
// after them at host address scratch + offset. The scratch is at host 0x1'0100'0000 with
// configs/small.json (host.memory_base 4 GiB + 16 MiB); VRAM starts at 0x2'0000'0000 and holds
// the resident module's PTX at its first bytes. The kernel handles of the resident module
// (soc_harness.h) are written with module id 0xFFFF'FFF0, as 0xFFFF'FFF0'0000'0000 and
// 0xFFFF'FFF0'0000'0001: every 8-byte-aligned word of the body equal to one becomes the handle of
// this input's copy (whose id grows from input to input).
// Findings beyond crashes and exceptions: a GPU still busy after its channels are disabled
// (soc_harness.h), CH_ERROR outside the documented codes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "models/gigathread/packets.h"
#include "models/pcie/bar0_map.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/soc_harness.h"

namespace {

using namespace gpusoc;

constexpr const char* kTarget = "command_packets";
constexpr uint64_t kBodyMax = 1ull << 20;
constexpr uint64_t kLogOffset = kBodyMax;
constexpr uint64_t kResidentHandle = 0xFFFF'FFF0ull << 32;  // module id 0xFFFF'FFF0

// Lets the channel work until it is idle, for at most `limit`; the harness decides later whether
// a channel that is still busy is stuck.
void wait_idle(fuzz::SocView& v, uint32_t ch, const sc_core::sc_time& limit) {
  fuzz::poll_until(v.bus, limit, [&] {
    return (v.reg(bar0::channel_offset(ch, bar0::CH_STATUS)) & bar0::kChannelBusy) == 0;
  });
}

void check_error_state(fuzz::SocView& v, uint32_t ch, uint64_t log, uint32_t log_bytes) {
  const uint32_t error = v.reg(bar0::channel_offset(ch, bar0::CH_ERROR));
  if (error > uint32_t(cmd::ErrorCode::InvalidModule))
    fuzz::finding(kTarget, fmt::format("CH_ERROR is {}, not a documented ErrorCode", error));
  const uint32_t error_get = v.reg(bar0::channel_offset(ch, bar0::CH_ERROR_GET));
  const uint32_t get = v.reg(bar0::channel_offset(ch, bar0::CH_GET));
  const uint32_t interrupts = v.reg(bar0::INTR_STATUS);
  const uint32_t errors = v.reg(bar0::ERROR_STATUS);
  if (fuzz::verbose()) {
    const char* text = reinterpret_cast<const char*>(v.bus.memory(log, 4096));
    std::fprintf(stderr,
                 "%s: channel %u: CH_GET 0x%x, CH_ERROR %u at 0x%x, INTR_STATUS 0x%x, "
                 "ERROR_STATUS 0x%x; log: %.*s\n",
                 kTarget, ch, get, error, error_get, interrupts, errors,
                 int(std::min<uint32_t>(log_bytes, 4096)), text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::ByteReader in(data, size);
  const uint32_t ring_size = in.take<uint32_t>();
  const uint32_t put = in.take<uint32_t>();
  const uint32_t channel = in.take<uint32_t>();
  const uint32_t log_bytes = in.take<uint32_t>();
  const uint32_t put_again = in.take<uint32_t>();
  const std::string_view body = in.bytes(kBodyMax);

  fuzz::SocHarness::instance().run(kTarget, [&](fuzz::SocView& v) {
    uint8_t* scratch = v.bus.memory(v.scratch, fuzz::SocHarness::kScratchBytes);
    std::memcpy(scratch, body.data(), body.size());
    for (size_t at = 0; at + 8 <= body.size(); at += 8) {
      uint64_t word;
      std::memcpy(&word, scratch + at, 8);
      if (word == kResidentHandle + fuzz::SocHarness::kResidentKernelStoreIds ||
          word == kResidentHandle + fuzz::SocHarness::kResidentKernelSpin) {
        word = uint64_t(v.resident_module) << 32 | (word & 0xFFFF'FFFFu);
        std::memcpy(scratch + at, &word, 8);
      }
    }
    const uint32_t ch = channel % v.channels;
    const uint64_t log = v.scratch + kLogOffset;
    v.set_reg(bar0::channel_offset(ch, bar0::CH_RING_BASE_LO), uint32_t(v.scratch));
    v.set_reg(bar0::channel_offset(ch, bar0::CH_RING_BASE_HI), uint32_t(v.scratch >> 32));
    v.set_reg(bar0::channel_offset(ch, bar0::CH_RING_SIZE), ring_size);
    v.set_reg(bar0::channel_offset(ch, bar0::CH_PUT), 0);
    v.set_reg(bar0::channel_offset(ch, bar0::CH_ERROR_LOG_LO), uint32_t(log));
    v.set_reg(bar0::channel_offset(ch, bar0::CH_ERROR_LOG_HI), uint32_t(log >> 32));
    v.set_reg(bar0::channel_offset(ch, bar0::CH_ERROR_LOG_SIZE), log_bytes);
    v.set_reg(bar0::INTR_MASK, bar0::kIntrFence | bar0::kIntrError | bar0::kIntrCopy);
    v.set_reg(bar0::channel_offset(ch, bar0::CH_CONTROL), 1);
    v.set_reg(bar0::channel_offset(ch, bar0::CH_PUT), put);
    v.set_reg(bar0::channel_offset(ch, bar0::CH_DOORBELL), 1);
    const sc_core::sc_time limit(50, sc_core::SC_MS);
    wait_idle(v, ch, limit);
    check_error_state(v, ch, log, log_bytes);
    if (put_again != put) {
      v.set_reg(bar0::channel_offset(ch, bar0::CH_PUT), put_again);
      v.set_reg(bar0::channel_offset(ch, bar0::CH_DOORBELL), 1);
      wait_idle(v, ch, limit);
      check_error_state(v, ch, log, log_bytes);
    }
  });
  return 0;
}
