// Fuzz target: MMIO as a buggy driver issues it: reads and writes of any width and alignment to
// BAR0 (docs/registers.md: the host interface, the copy engines, the channels), some to BAR1 (the
// VRAM aperture) and to configuration space, and pauses that let the GPU act on what was
// written. The registers answer only inside an elaborated SoC, so the sequence runs as a host
// program on the whole SoC (soc_harness.h).
//
// Input: a sequence of operations, each one byte `op` and then its fields (little endian; an
// input that ends early reads zeros). At most kMaxOps operations run.
//   op % 8 = 0..2  BAR0 write:  u8 width code, u32 offset (modulo 1 MiB), u64 value
//   op % 8 = 3..4  BAR0 read:   u8 width code, u32 offset
//   op % 8 = 5     pause:       u16 x 16 ns of host compute (soc_harness.h: pause)
//   op % 8 = 6     BAR1 access: u8 width code (kBar1Widths), u32 offset (modulo the BAR), u64
//                  value; a write when op bit 3 is set
//   op % 8 = 7     config space: u8 width code, u16 offset (modulo 4 KiB), u64 value; a write
//                  when op bit 3 is set
// Width codes pick from kWidths (4 bytes, the only size registers accept, most of the time).
// An access the GPU answers with an error response is expected (HostBusError); a crash, an
// exception out of the models, a protocol violation, a GPU that stays busy once its channels
// are disabled, or ID/VERSION reading other than documented (soc_harness.h) is a finding.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include <systemc>

#include "models/host/host_bus.h"
#include "models/pcie/bar0_map.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/soc_harness.h"

namespace {

using namespace gpusoc;

constexpr size_t kMaxOps = 512;
constexpr uint32_t kWidths[8] = {4, 4, 4, 4, 1, 2, 8, 3};
constexpr uint32_t kBar1Widths[8] = {4, 8, 64, 256, 1, 2, 3, 4096};

// A value for an access of `width` bytes: `value` repeated.
void fill(uint8_t* bytes, uint32_t width, uint64_t value) {
  for (uint32_t i = 0; i < width; i += 8)
    std::memcpy(bytes + i, &value, std::min<uint32_t>(8, width - i));
}

void access(host::HostBus& bus, bool write, uint64_t address, uint32_t width, uint64_t value) {
  uint8_t bytes[4096];
  try {
    if (write) {
      fill(bytes, width, value);
      bus.write(address, bytes, width);
    } else {
      bus.read(address, bytes, width);
    }
  } catch (const host::HostBusError& e) {
    // An error response: what the register map promises for bad offsets and sizes.
    fuzz::expected_error("mmio", e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::ByteReader in(data, size);
  fuzz::SocHarness::instance().run("mmio", [&](fuzz::SocView& v) {
    for (size_t n = 0; n < kMaxOps && !in.empty(); ++n) {
      const uint8_t op = in.take<uint8_t>();
      switch (op % 8) {
        case 0:
        case 1:
        case 2: {
          const uint32_t width = kWidths[in.take<uint8_t>() % 8];
          const uint32_t offset = in.take<uint32_t>() % bar0::kSize;
          access(v.bus, true, v.bar0 + offset, width, in.take<uint64_t>());
          break;
        }
        case 3:
        case 4: {
          const uint32_t width = kWidths[in.take<uint8_t>() % 8];
          const uint32_t offset = in.take<uint32_t>() % bar0::kSize;
          access(v.bus, false, v.bar0 + offset, width, 0);
          break;
        }
        case 5:
          fuzz::pause(v.bus, sc_core::sc_time(16.0 * in.take<uint16_t>(), sc_core::SC_NS));
          break;
        case 6: {
          const uint32_t width = kBar1Widths[in.take<uint8_t>() % 8];
          const uint64_t offset = in.take<uint32_t>() % v.bar1_bytes;
          access(v.bus, op & 8, v.bar1 + offset, width, in.take<uint64_t>());
          break;
        }
        default: {
          const uint32_t width = kWidths[in.take<uint8_t>() % 8];
          const uint32_t offset = in.take<uint16_t>() % 4096;
          access(v.bus, op & 8, v.ecam + offset, width, in.take<uint64_t>());
          break;
        }
      }
    }
  });
  return 0;
}
