// A customer's own CPU model drives the GPU: a bare TLM initiator that knows nothing of our
// runtime or headers, only docs/registers.md and docs/commands.md (every offset below is typed
// in from those pages). It enumerates the PCI function, programs the BARs and MSI, uploads PTX
// through the BAR1 aperture, loads it with a ModuleLoad packet, launches vector_add, waits for
// a fence and its MSI, and checks the result against the CPU. Once with 32-bit sockets, once with
// 64-bit ones as VCML-style platforms have (GpuSoc::connect bridges the widths).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/common/bus_width_bridge.h"
#include "models/common/config.h"
#include "models/common/error.h"
#include "models/common/memory_target.h"
#include "platform/gpu_soc.h"
#include "tests/support/systemc_test.h"

namespace gpusoc {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

// docs/registers.md
constexpr uint32_t kCfgCommand = 0x04, kCfgBar0 = 0x10, kCfgBar1 = 0x18;
constexpr uint32_t kCfgMsiControl = 0x62, kCfgMsiAddressLo = 0x64, kCfgMsiAddressHi = 0x68,
                   kCfgMsiData = 0x6C;
constexpr uint32_t kId = 0x0000, kVramBaseLo = 0x0008, kVramBaseHi = 0x000C,
                   kIntrStatus = 0x0100, kIntrMask = 0x0104, kIntrClear = 0x0108;
constexpr uint32_t kChannel0 = 0x10000;
constexpr uint32_t kRingBaseLo = 0x00, kRingBaseHi = 0x04, kRingSize = 0x08, kPut = 0x0C,
                   kGet = 0x10, kDoorbell = 0x14, kError = 0x1C, kControl = 0x34;
// docs/commands.md
constexpr uint32_t kLaunch = 1, kFence = 6, kModuleLoad = 7, kFlagInterrupt = 1;

// Our own choices as the platform integrator.
constexpr uint64_t kHostMemory = 0x1'0000'0000, kHostMemoryBytes = 64 << 20;
constexpr uint64_t kBar0Address = 0x40'0000'0000, kBar1Address = 0x40'1000'0000;
constexpr uint64_t kMsiAddress = kHostMemory + 0xF000;
constexpr uint64_t kRing = kHostMemory + 0x10'0000, kResult = kHostMemory + 0x20'0000,
                   kDescriptor = kHostMemory + 0x30'0000, kParams = kDescriptor + 0x100,
                   kFenceWord = kHostMemory + 0x40'0000;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The host's memory as a target of `Width` bits: our MemoryTarget, behind a bridge of our own
// where the platform's sockets are wider.
template <unsigned Width>
struct HostMemory {
  explicit HostMemory(MemoryTarget& dram) : target(dram.target) {}
  decltype(MemoryTarget::target)& target;
};
template <>
struct HostMemory<64> {
  explicit HostMemory(MemoryTarget& dram) : bridge("dram_bridge"), target(bridge.target) {
    bridge.initiator.bind(dram.target);
  }
  BusWidthBridge<64, 32> bridge;
  decltype(bridge.target)& target;
};

template <unsigned Width>
struct BareHost : sc_core::sc_module {
  using Socket = tlm_utils::simple_initiator_socket<BareHost, Width>;
  Socket cfg{"cfg"}, mem{"mem"};
  MemoryTarget dram;
  HostMemory<Width> memory{dram};  // what the GPU's DMA binds to
  std::function<void(BareHost&)> program;

  BareHost(sc_core::sc_module_name name, StatGroup& stats)
      : sc_module(name), dram("dram", dram_config(), stats) {
    SC_HAS_PROCESS(BareHost);
    SC_THREAD(run);
  }
  static MemoryTargetConfig dram_config() {
    MemoryTargetConfig c;
    c.base = kHostMemory;
    c.size = kHostMemoryBytes;
    return c;
  }
  void run() {
    program(*this);
    sc_core::sc_stop();
  }
  void access(Socket& socket, tlm::tlm_command command, uint64_t address, void* data,
              unsigned bytes) {
    tlm::tlm_generic_payload tx;
    tx.set_command(command);
    tx.set_address(address);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(bytes);
    tx.set_streaming_width(bytes);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(tx, delay);
    wait(delay);
    if (!tx.is_response_ok())
      throw std::runtime_error("access to 0x" + std::to_string(address) + " failed: " +
                               tx.get_response_string());
  }
  uint32_t cfg_read(uint32_t offset, unsigned bytes = 4) {
    uint32_t v = 0;
    access(cfg, tlm::TLM_READ_COMMAND, offset, &v, bytes);
    return v;
  }
  void cfg_write(uint32_t offset, uint32_t v, unsigned bytes = 4) {
    access(cfg, tlm::TLM_WRITE_COMMAND, offset, &v, bytes);
  }
  uint32_t reg(uint32_t offset) {
    uint32_t v = 0;
    access(mem, tlm::TLM_READ_COMMAND, kBar0Address + offset, &v, 4);
    return v;
  }
  void set_reg(uint32_t offset, uint32_t v) {
    access(mem, tlm::TLM_WRITE_COMMAND, kBar0Address + offset, &v, 4);
  }
  void vram_write(uint64_t offset, const void* data, size_t bytes) {
    for (size_t done = 0; done < bytes; done += 256) {
      const unsigned n = unsigned(std::min<size_t>(256, bytes - done));
      access(mem, tlm::TLM_WRITE_COMMAND, kBar1Address + offset + done,
             const_cast<uint8_t*>(static_cast<const uint8_t*>(data)) + done, n);
    }
  }
  void vram_read(uint64_t offset, void* data, size_t bytes) {
    for (size_t done = 0; done < bytes; done += 256) {
      const unsigned n = unsigned(std::min<size_t>(256, bytes - done));
      access(mem, tlm::TLM_READ_COMMAND, kBar1Address + offset + done,
             static_cast<uint8_t*>(data) + done, n);
    }
  }
  uint8_t* host(uint64_t address) { return dram.backdoor(address, 1); }
  uint64_t host64(uint64_t address) {
    uint64_t v;
    std::memcpy(&v, host(address), 8);
    return v;
  }

  // One packet at the channel's PUT, then the doorbell.
  uint32_t put = 0;
  void submit(uint32_t opcode, uint32_t flags, std::vector<uint64_t> args) {
    uint8_t packet[64] = {};
    std::memcpy(packet, &opcode, 4);
    std::memcpy(packet + 4, &flags, 4);
    std::memcpy(packet + 8, args.data(), args.size() * 8);
    std::memcpy(host(kRing + put), packet, 64);
    put = (put + 64) % 4096;
    set_reg(kChannel0 + kPut, put);
    set_reg(kChannel0 + kDoorbell, 1);
  }
  void fence_and_wait(uint64_t value) {
    submit(kFence, kFlagInterrupt, {kFenceWord, value});
    for (int i = 0; i < 100000 && host64(kFenceWord) != value; ++i) wait(1, sc_core::SC_US);
  }
};

template <unsigned Width>
void drive_the_gpu_from_the_documentation_alone() {
  testing::fresh_systemc();
  Config config;
  config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/small.json");
  config.apply_set("platform.check_tlm_protocol=true");
  StatGroup stats;
  platform::GpuSoc gpu("gpu", config, stats);
  BareHost<Width> cpu("cpu", stats);
  gpu.connect(cpu.cfg, gpu.endpoint().config_target, "cpu_config");
  gpu.connect(cpu.mem, gpu.endpoint().mem_target, "cpu_memory");
  gpu.connect(gpu.endpoint().dma_initiator, cpu.memory.target, "dma");

  const std::string ptx = read_text(std::string(GPUSOC_KERNEL_DIR) + "/vector_add.ptx");
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 1000.0f - 3 * i;
  }
  uint32_t vendor = 0, bar0_mask = 0, id = 0, msi_data = 0, errors = 1, get = 0, status = 0;
  uint64_t handle = 0, fence_time_ns = 0;
  std::string kernel_name;

  cpu.program = [&](BareHost<Width>& h) {
    vendor = h.cfg_read(0x00);
    h.cfg_write(kCfgBar0, 0xFFFFFFFF);
    bar0_mask = h.cfg_read(kCfgBar0) & ~0xFu;
    h.cfg_write(kCfgBar0, uint32_t(kBar0Address));
    h.cfg_write(kCfgBar0 + 4, uint32_t(kBar0Address >> 32));
    h.cfg_write(kCfgBar1, uint32_t(kBar1Address));
    h.cfg_write(kCfgBar1 + 4, uint32_t(kBar1Address >> 32));
    h.cfg_write(kCfgMsiAddressLo, uint32_t(kMsiAddress));
    h.cfg_write(kCfgMsiAddressHi, uint32_t(kMsiAddress >> 32));
    h.cfg_write(kCfgMsiData, 0x41, 2);
    h.cfg_write(kCfgMsiControl, h.cfg_read(kCfgMsiControl, 2) | 1, 2);
    h.cfg_write(kCfgCommand, 0x6, 2);  // memory space, bus master
    id = h.reg(kId);
    const uint64_t vram = uint64_t(h.reg(kVramBaseHi)) << 32 | h.reg(kVramBaseLo);
    h.set_reg(kIntrMask, 0x3);  // fence and error

    h.set_reg(kChannel0 + kRingBaseLo, uint32_t(kRing));
    h.set_reg(kChannel0 + kRingBaseHi, uint32_t(kRing >> 32));
    h.set_reg(kChannel0 + kRingSize, 4096);
    h.set_reg(kChannel0 + kPut, 0);
    h.set_reg(kChannel0 + kControl, 1);

    // PTX at VRAM offset 0, inputs at 1 and 2 MiB, the output at 3 MiB (BAR1 window 0).
    h.vram_write(0, ptx.data(), ptx.size());
    h.vram_write(1 << 20, a.data(), n * 4);
    h.vram_write(2 << 20, b.data(), n * 4);
    h.submit(kModuleLoad, 0, {vram, ptx.size(), kResult, 64 << 10});
    h.fence_and_wait(1);
    uint32_t load_status, kernels, globals, params;
    std::memcpy(&load_status, h.host(kResult), 4);
    std::memcpy(&kernels, h.host(kResult + 8), 4);
    std::memcpy(&globals, h.host(kResult + 12), 4);
    std::memcpy(&params, h.host(kResult + 16), 4);
    // The names follow the 40-byte header, 48-byte kernel entries, 24-byte global entries and
    // 8-byte parameter entries, at an 8-byte boundary.
    const uint64_t strings = kResult + (40 + 48 * kernels + 24 * globals + 8 * params + 7) / 8 * 8;
    for (uint32_t k = 0; k < kernels && load_status == 0; ++k) {
      const uint64_t entry = kResult + 40 + 48 * k;
      uint32_t name_offset, name_bytes;
      std::memcpy(&name_offset, h.host(entry), 4);
      std::memcpy(&name_bytes, h.host(entry + 4), 4);
      const std::string name(reinterpret_cast<const char*>(h.host(strings + name_offset)),
                             name_bytes);
      if (name == "vector_add") {
        kernel_name = name;
        handle = h.host64(entry + 8);
      }
    }
    uint8_t descriptor[56] = {};
    const uint32_t grid[3] = {(n + 127) / 128, 1, 1}, block[3] = {128, 1, 1};
    const uint32_t param_bytes = 28;
    std::memcpy(descriptor, &handle, 8);
    std::memcpy(descriptor + 8, grid, 12);
    std::memcpy(descriptor + 20, block, 12);
    std::memcpy(descriptor + 36, &param_bytes, 4);
    const uint64_t params_at = kParams;
    std::memcpy(descriptor + 40, &params_at, 8);
    std::memcpy(h.host(kDescriptor), descriptor, 56);
    const uint64_t pa = vram + (1 << 20), pb = vram + (2 << 20), pc = vram + (3 << 20);
    std::memcpy(h.host(kParams), &pa, 8);
    std::memcpy(h.host(kParams + 8), &pb, 8);
    std::memcpy(h.host(kParams + 16), &pc, 8);
    std::memcpy(h.host(kParams + 24), &n, 4);
    h.set_reg(kIntrClear, 0x3);
    h.submit(kLaunch, 0, {kDescriptor});
    h.fence_and_wait(2);
    fence_time_ns = uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9);
    std::memcpy(&msi_data, h.host(kMsiAddress), 4);
    status = h.reg(kIntrStatus);
    errors = h.reg(kChannel0 + kError);
    get = h.reg(kChannel0 + kGet);
    h.vram_read(3 << 20, c.data(), n * 4);
  };
  sc_core::sc_start();

  EXPECT_EQ(vendor & 0xFFFF, 0x10DEu);
  EXPECT_EQ(bar0_mask, ~uint32_t((1 << 20) - 1)) << "BAR0 is 1 MiB";
  EXPECT_EQ(id, 0x50554753u);
  EXPECT_EQ(kernel_name, "vector_add");
  EXPECT_NE(handle, 0u);
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(get, cpu.put);
  EXPECT_EQ(msi_data & 0xFFFF, 0x41u) << "the fence's MSI";
  EXPECT_EQ(status & 1, 1u) << "INTR_STATUS.FENCE latched";
  EXPECT_GT(fence_time_ns, 0u);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
  // Every binding: 3 here, BAR0/BAR1, 2 copy engines x 3, the channels' 3, the memory checker's
  // registers, the 2 SMs, the memory system's data path, and the TPC's texture unit (a binding
  // per SM and one to memory).
  // Where the widths differ, each of the first 3 is checked on its 32-bit side.
  EXPECT_EQ(gpu.protocol_checkers(), 3u + 2 + 6 + 3 + 1 + 2 + 1 + 3);
  EXPECT_EQ(gpu.protocol_violations(), 0u);
}

TEST(BareInitiator, DrivesTheGpuFromTheDocumentationAlone) {
  drive_the_gpu_from_the_documentation_alone<32>();
}

TEST(BareInitiator, DrivesTheGpuThroughSixtyFourBitSockets) {
  drive_the_gpu_from_the_documentation_alone<64>();
}

TEST(BareInitiator, ATimeResolutionCoarserThanANanosecondIsRefusedByName) {
  testing::fresh_systemc();
  sc_core::sc_set_time_resolution(10, SC_NS);
  Config config;
  config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/small.json");
  StatGroup stats;
  try {
    platform::GpuSoc gpu("gpu", config, stats);
    FAIL() << "built at a 10 ns resolution";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("time resolution is 10 ns: the GPU needs 1 ns or finer"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpusoc
