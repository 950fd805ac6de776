#include "tests/fuzz/soc_harness.h"

#include <stdlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <spdlog/sinks/null_sink.h>
#include <systemc>

#include "models/common/config.h"
#include "models/common/logging.h"
#include "models/common/stat_group.h"
#include "models/gigathread/packets.h"
#include "models/pcie/bar0_map.h"
#include "platform/soc_platform.h"
#include "tests/fuzz/fuzz_support.h"

namespace gpusoc::fuzz {

const char* const SocHarness::kResidentPtx = R"(.version 7.0
.target sm_80
.address_size 64

.visible .entry store_ids(
	.param .u64 store_ids_param_0,
	.param .u32 store_ids_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [store_ids_param_0];
	ld.param.u32 	%r2, [store_ids_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.u32 	%p1, %r1, %r2;
	@%p1 bra 	$L__store_done;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r1;
$L__store_done:
	ret;
}

.visible .entry spin(
	.param .u32 spin_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<3>;

	ld.param.u32 	%r1, [spin_param_0];
	mov.u32 	%r2, 0;
$L__spin_loop:
	setp.ge.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L__spin_done;
	add.s32 	%r2, %r2, 1;
	bra.uni 	$L__spin_loop;
$L__spin_done:
	ret;
}
)";

namespace {

using sc_core::sc_time;

// PCI configuration space (docs/registers.md).
constexpr uint32_t kCfgCommand = 0x04, kCfgBar0 = 0x10, kCfgBar1 = 0x18, kCfgMsi = 0x60,
                   kCfgMsiAddressLo = 0x64, kCfgMsiAddressHi = 0x68, kCfgMsiData = 0x6C;
constexpr uint32_t kCommandMemory = 1u << 1, kCommandBusMaster = 1u << 2;

// Host DRAM from host.memory_base: the harness's ring, fence word and ModuleLoad result, then
// the input's scratch.
constexpr uint64_t kRingOffset = 1ull << 20, kRingBytes = 4096;
constexpr uint64_t kFenceOffset = kRingOffset + kRingBytes;
constexpr uint64_t kResultOffset = kFenceOffset + 4096, kResultBytes = 16384;
constexpr uint64_t kScratchOffset = 16ull << 20;
constexpr uint32_t kHarnessChannel = 0;

// For the GPU to go idle once every channel is disabled, and for the harness's own packets:
// longer than any packet an input can write takes (the largest copy is of all 128 MiB of VRAM;
// launches stop at the watchdog).
sc_time settle_time() {
  return sc_time(200, sc_core::SC_MS);
}

// Polls start at 1 us and double up to this: completion is noticed promptly, and a long wait
// takes few polls.
sc_time max_poll_step() {
  return sc_time(100, sc_core::SC_US);
}

}  // namespace

bool poll_until(host::HostBus& bus, const sc_time& limit, const std::function<bool()>& done) {
  sc_time waited = sc_core::SC_ZERO_TIME, step(1, sc_core::SC_US);
  while (!done()) {
    if (waited > limit) return false;
    bus.compute(step);
    bus.sync();
    waited += step;
    step = std::min(step * 2, max_poll_step());
  }
  return true;
}

void pause(host::HostBus& bus, const sc_time& duration) {
  bus.compute(duration);
  bus.sync();
}

struct SocHarness::Impl {
  StatGroup stats;
  std::unique_ptr<platform::SocPlatform> platform;
  host::HostAddressMap map;
  uint64_t bar0 = 0, bar1 = 0, bar1_bytes = 0, ecam = 0, vram_base = 0;
  uint32_t channels = 0, copy_engines = 0;
  uint32_t resident = 0;  // id of the resident module's current copy; 0 before the first
  uint64_t fence_value = 0;

  uint32_t cfg_read(host::HostBus& bus, uint32_t offset) { return bus.read32(ecam + offset); }
  void cfg_write(host::HostBus& bus, uint32_t offset, uint32_t v) { bus.write32(ecam + offset, v); }
  uint32_t reg(host::HostBus& bus, uint32_t offset) { return bus.read32(bar0 + offset); }
  void set_reg(host::HostBus& bus, uint32_t offset, uint32_t v) { bus.write32(bar0 + offset, v); }
  void set_ch(host::HostBus& bus, uint32_t ch, uint32_t r, uint32_t v) {
    set_reg(bus, bar0::channel_offset(ch, r), v);
  }

  void discover(host::HostBus& bus);
  void enumerate(host::HostBus& bus);
  void reset_registers(host::HostBus& bus);
  void run_harness_packets(host::HostBus& bus, const std::vector<cmd::Packet>& packets);
  void load_resident(host::HostBus& bus);
  std::string busy_units(host::HostBus& bus);
  void prepare(host::HostBus& bus);
  void settle(host::HostBus& bus, const char* target);
};

// Once: where the windows are, the BAR sizes, what the GPU has.
void SocHarness::Impl::discover(host::HostBus& bus) {
  map = bus.address_map();
  ecam = map.ecam_base;  // bus 0, device 0, function 0
  cfg_write(bus, kCfgBar1, ~0u);
  cfg_write(bus, kCfgBar1 + 4, ~0u);
  const uint64_t mask =
      uint64_t(cfg_read(bus, kCfgBar1 + 4)) << 32 | (cfg_read(bus, kCfgBar1) & ~0xFu);
  bar1_bytes = ~mask + 1;
  bar0 = map.mmio_base;
  bar1 = map.mmio_base + std::max<uint64_t>(bar1_bytes, bar0::kSize);
  enumerate(bus);
  channels = reg(bus, bar0::NUM_CHANNELS);
  copy_engines = reg(bus, bar0::NUM_COPY_ENGINES);
  vram_base = uint64_t(reg(bus, bar0::VRAM_BASE_HI)) << 32 | reg(bus, bar0::VRAM_BASE_LO);
}

// BARs, MSI and the command register, as the runtime's enumeration leaves them.
void SocHarness::Impl::enumerate(host::HostBus& bus) {
  cfg_write(bus, kCfgBar0, uint32_t(bar0));
  cfg_write(bus, kCfgBar0 + 4, uint32_t(bar0 >> 32));
  cfg_write(bus, kCfgBar1, uint32_t(bar1));
  cfg_write(bus, kCfgBar1 + 4, uint32_t(bar1 >> 32));
  cfg_write(bus, kCfgMsiAddressLo, uint32_t(map.msi_address));
  cfg_write(bus, kCfgMsiAddressHi, uint32_t(map.msi_address >> 32));
  cfg_write(bus, kCfgMsiData, map.msi_data);
  cfg_write(bus, kCfgMsi, (cfg_read(bus, kCfgMsi) & 0xFFFFu) | 1u << 16);  // one vector, enabled
  // Memory decoding and bus mastering; the status half (write 1 to clear) gets zeros.
  cfg_write(bus, kCfgCommand, kCommandMemory | kCommandBusMaster);
}

void SocHarness::Impl::reset_registers(host::HostBus& bus) {
  for (uint32_t ch = 0; ch < channels; ++ch) {
    set_ch(bus, ch, bar0::CH_CONTROL, 0);
    for (uint32_t r :
         {bar0::CH_RING_BASE_LO, bar0::CH_RING_BASE_HI, bar0::CH_RING_SIZE, bar0::CH_PUT,
          bar0::CH_ERROR_LOG_LO, bar0::CH_ERROR_LOG_HI, bar0::CH_ERROR_LOG_SIZE})
      set_ch(bus, ch, r, 0);
    set_ch(bus, ch, bar0::CH_ERROR_CLEAR, 1);
  }
  set_reg(bus, bar0::INTR_MASK, 0);
  set_reg(bus, bar0::INTR_CLEAR, ~0u);
  set_reg(bus, bar0::ERROR_CLEAR, ~0u);
  set_reg(bus, bar0::BAR1_WINDOW_LO, 0);
  set_reg(bus, bar0::BAR1_WINDOW_HI, 0);
  set_reg(bus, bar0::kMemcheckBase + bar0::MC_CONTROL, 0);
  set_reg(bus, bar0::kMemcheckBase + bar0::MC_COMMAND, bar0::kMemcheckClear);
}

// Runs `packets` on the harness's channel from an empty ring, a fence after them, and waits
// for the fence. The channel must get there: it is the harness's, set up as documented.
void SocHarness::Impl::run_harness_packets(host::HostBus& bus,
                                           const std::vector<cmd::Packet>& packets) {
  const uint64_t ring = map.memory_base + kRingOffset, fence = map.memory_base + kFenceOffset;
  constexpr size_t kBatch = kRingBytes / sizeof(cmd::Packet) - 2;  // room for the fence
  for (size_t first = 0; first == 0 || first < packets.size(); first += kBatch) {
    const size_t n = std::min(kBatch, packets.size() - first);
    uint8_t* slots = bus.memory(ring, kRingBytes);
    std::memcpy(slots, packets.data() + first, n * sizeof(cmd::Packet));
    cmd::Packet f;
    f.opcode = cmd::Opcode::Fence;
    f.a[0] = fence;
    f.a[1] = ++fence_value;
    std::memcpy(slots + n * sizeof(cmd::Packet), &f, sizeof f);
    std::memset(bus.memory(fence, 8), 0, 8);  // an input may have written anything there
    set_ch(bus, kHarnessChannel, bar0::CH_CONTROL, 0);
    set_ch(bus, kHarnessChannel, bar0::CH_RING_BASE_LO, uint32_t(ring));
    set_ch(bus, kHarnessChannel, bar0::CH_RING_BASE_HI, uint32_t(ring >> 32));
    set_ch(bus, kHarnessChannel, bar0::CH_RING_SIZE, uint32_t(kRingBytes));
    set_ch(bus, kHarnessChannel, bar0::CH_PUT, 0);
    set_ch(bus, kHarnessChannel, bar0::CH_CONTROL, 1);
    set_ch(bus, kHarnessChannel, bar0::CH_PUT, uint32_t((n + 1) * sizeof(cmd::Packet)));
    set_ch(bus, kHarnessChannel, bar0::CH_DOORBELL, 1);
    const bool done = poll_until(bus, settle_time(), [&] {
      uint64_t seen = 0;
      std::memcpy(&seen, bus.memory(fence, 8), 8);
      return seen == fence_value;
    });
    if (!done) {
      finding("harness", fmt::format("the harness's channel did not reach its fence in {} "
                                     "(CH_STATUS 0x{:x}, CH_ERROR {}, CH_GET 0x{:x})",
                                     settle_time().to_string(),
                                     reg(bus, bar0::channel_offset(0, bar0::CH_STATUS)),
                                     reg(bus, bar0::channel_offset(0, bar0::CH_ERROR)),
                                     reg(bus, bar0::channel_offset(0, bar0::CH_GET))));
    }
    set_ch(bus, kHarnessChannel, bar0::CH_CONTROL, 0);
  }
}

// A fresh copy of the resident module; the previous copy and every module loaded since (by the
// previous input) are unloaded.
void SocHarness::Impl::load_resident(host::HostBus& bus) {
  const std::string_view text = kResidentPtx;
  for (size_t done = 0; done < text.size(); done += 256)
    bus.write(bar1 + done, text.data() + done, std::min<size_t>(256, text.size() - done));
  const uint64_t result = map.memory_base + kResultOffset;
  std::memset(bus.memory(result, kResultBytes), 0, kResultBytes);
  cmd::Packet load;
  load.opcode = cmd::Opcode::ModuleLoad;
  load.a[0] = vram_base;
  load.a[1] = text.size();
  load.a[2] = result;
  load.a[3] = kResultBytes;
  run_harness_packets(bus, {load});
  cmd::ModuleLoadResult header;
  std::memcpy(&header, bus.memory(result, sizeof header), sizeof header);
  if (header.status != uint32_t(cmd::ErrorCode::None) || header.module_id == 0) {
    const auto l = cmd::module_load_result_layout(header.num_kernels, header.num_globals,
                                                  header.num_params, header.strings_bytes, 0);
    const char* buffer = reinterpret_cast<const char*>(bus.memory(result, kResultBytes));
    const std::string diagnostics =
        l.diagnostics < kResultBytes
            ? std::string(buffer + l.diagnostics,
                          strnlen(buffer + l.diagnostics, kResultBytes - l.diagnostics))
            : std::string();
    finding("harness", fmt::format("the resident module did not load (status {}): {}",
                                   header.status, diagnostics));
  }
  std::vector<cmd::Packet> unloads;
  for (uint32_t id = resident; id != 0 && id < header.module_id; ++id) {
    cmd::Packet unload;
    unload.opcode = cmd::Opcode::ModuleUnload;
    unload.a[0] = id;
    unloads.push_back(unload);
  }
  if (!unloads.empty()) run_harness_packets(bus, unloads);
  resident = header.module_id;
}

std::string SocHarness::Impl::busy_units(host::HostBus& bus) {
  std::string busy;
  for (uint32_t ch = 0; ch < channels; ++ch) {
    const uint32_t status = reg(bus, bar0::channel_offset(ch, bar0::CH_STATUS));
    if (status & bar0::kChannelBusy)
      busy += fmt::format(" channel {} (CH_STATUS 0x{:x}, CH_GET 0x{:x});", ch, status,
                          reg(bus, bar0::channel_offset(ch, bar0::CH_GET)));
  }
  for (uint32_t ce = 0; ce < copy_engines; ++ce) {
    if (reg(bus, bar0::copy_engine_offset(ce, bar0::CE_STATUS)) & 1)
      busy += fmt::format(" copy engine {};", ce);
  }
  return busy;
}

void SocHarness::Impl::prepare(host::HostBus& bus) {
  enumerate(bus);
  reset_registers(bus);
  load_resident(bus);
  reset_registers(bus);
  std::memset(bus.memory(map.memory_base + kScratchOffset, kScratchBytes), 0, kScratchBytes);
}

void SocHarness::Impl::settle(host::HostBus& bus, const char* target) {
  enumerate(bus);
  for (uint32_t ch = 0; ch < channels; ++ch) set_ch(bus, ch, bar0::CH_CONTROL, 0);
  // Each poll stops at the first busy unit.
  const auto idle = [&] {
    for (uint32_t ch = 0; ch < channels; ++ch) {
      if (reg(bus, bar0::channel_offset(ch, bar0::CH_STATUS)) & bar0::kChannelBusy) return false;
    }
    for (uint32_t ce = 0; ce < copy_engines; ++ce) {
      if (reg(bus, bar0::copy_engine_offset(ce, bar0::CE_STATUS)) & 1) return false;
    }
    return true;
  };
  if (!poll_until(bus, settle_time(), idle)) {
    finding(target, fmt::format("still busy {} (simulated) after every channel was disabled "
                                "(CH_CONTROL = 0):{}",
                                settle_time().to_string(), busy_units(bus)));
  }
  if (reg(bus, bar0::ID) != bar0::kId || reg(bus, bar0::VERSION) != bar0::kVersion) {
    finding(target,
            fmt::format("ID reads 0x{:x} and VERSION 0x{:x} (documented: 0x{:x}, 0x{:x})",
                        reg(bus, bar0::ID), reg(bus, bar0::VERSION), bar0::kId, bar0::kVersion));
  }
}

SocHarness& SocHarness::instance() {
  static SocHarness* harness = new SocHarness();  // never destroyed: SystemC cannot tear down
  return *harness;
}

SocHarness::SocHarness() : impl_(std::make_unique<Impl>()) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  set_log_sink(std::make_shared<spdlog::sinks::null_sink_mt>());  // formatted, not printed
  try {
    Config config;
    config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/small.json");
    config.apply_set("platform.check_tlm_protocol=true");
    config.apply_set("gigathread.watchdog_warp_instructions=20000");
    config.apply_set("host.memory_bytes=0x4000000");
    impl_->platform = std::make_unique<platform::SocPlatform>(config, impl_->stats);
    impl_->platform->run([&](host::HostBus& bus) { impl_->discover(bus); });
  } catch (...) {
    unexpected_exception("harness setup");
  }
}

void SocHarness::run(const char* target, const std::function<void(SocView&)>& program) {
  Impl& h = *impl_;
  try {
    h.platform->run([&](host::HostBus& bus) {
      h.prepare(bus);
      SocView view{bus};
      view.bar0 = h.bar0;
      view.bar1 = h.bar1;
      view.bar1_bytes = h.bar1_bytes;
      view.ecam = h.ecam;
      view.vram_base = h.vram_base;
      view.channels = h.channels;
      view.copy_engines = h.copy_engines;
      view.scratch = h.map.memory_base + kScratchOffset;
      view.resident_module = h.resident;
      program(view);
      h.settle(bus, target);
    });
  } catch (...) {
    unexpected_exception(target);
  }
  if (h.platform->protocol_violations() != 0)
    finding(target, fmt::format("{} TLM protocol violations", h.platform->protocol_violations()));
}

}  // namespace gpusoc::fuzz

// AddressSanitizer's defaults for the programs that run the SoC (read only where it is linked).
// SystemC runs its processes as coroutines on stacks of its own, switched without telling the
// sanitizer: stack-use-after-return detection then frees frames that are still in use, and leak
// detection misses pointers held on those stacks (the SoC itself lives as long as the process).
extern "C" const char* __asan_default_options() {
  return "detect_stack_use_after_return=0:detect_leaks=0";
}
