// A testbench around the host interface: a host CPU's configuration and memory ports, host
// memory and an MSI catcher behind the endpoint's DMA path, the copy engines behind BAR0, VRAM,
// and a port standing for another GPU unit's DMA. Test bodies run in SystemC threads (spawn()).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/memory_target.h"
#include "models/common/protocol_checker.h"
#include "models/common/stat_group.h"
#include "models/common/tlm_router.h"
#include "models/pcie/bar0_map.h"
#include "models/pcie/config_space.h"
#include "models/pcie/copy_engine.h"
#include "models/pcie/pcie_endpoint.h"

namespace gpusoc::pcie::testing {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kHostMemoryBytes = 256 * kMiB;  // host memory at address 0
constexpr uint64_t kMsiAddress = 0xFEE0'0000;
constexpr uint32_t kMsiData = 0x41;
constexpr uint64_t kVramBase = 0x2'0000'0000;
constexpr uint64_t kVramBytes = 64 * kMiB;
constexpr uint64_t kBar0Address = 0x40'0000'0000;  // above 4 GiB: 4 DW request headers
constexpr uint64_t kBar1Address = 0x40'4000'0000;

// The default link, PCIe 1.0 x16, worked out by hand: 2.5 GT/s * 8/10 * 16 lanes / 8 bits =
// 4 bytes/ns, of which DLLPs take 2%: TLPs move at 3.92 bytes/ns; one-way latency 250 ns.
constexpr double kTlpBytesPerNs = 2.5 * 0.8 * 16 / 8 * 0.98;
constexpr double kLatencyNs = 250;
constexpr double kPs = 0.002;  // delays are rounded to picoseconds
/// Time `bytes` occupy one direction of the default link.
inline double wire(double bytes) {
  return bytes / kTlpBytesPerNs;
}

/// Records the memory writes that reach the interrupt controller's MSI address.
struct MsiCatcher : sc_core::sc_module {
  struct Message {
    uint64_t address;
    uint32_t data;
    sc_core::sc_time arrival;
  };
  tlm_utils::simple_target_socket<MsiCatcher> socket{"socket"};
  std::vector<Message> received;

  explicit MsiCatcher(sc_core::sc_module_name name);
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
};

struct BenchOptions {
  PcieConfig config = small_aperture();
  sc_core::sc_time host_latency = sc_core::sc_time(60, sc_core::SC_NS);
  sc_core::sc_time vram_latency = sc_core::sc_time(100, sc_core::SC_NS);
  double vram_bytes_per_ns = 86.4;  // the 8800 GTX's 384-bit GDDR3
  static PcieConfig small_aperture() {
    PcieConfig c;
    c.bar1_bytes = 16 * kMiB;
    return c;
  }
};

class PcieBench : public sc_core::sc_module {
 public:
  StatGroup stats;
  PcieConfig config;
  DeviceInfo device;
  PcieEndpoint endpoint;
  TlmRouter host_bus;
  MemoryTarget host_memory;
  MsiCatcher msi;
  TlmRouter bar0_bus;
  MemoryTarget vram;
  std::vector<std::unique_ptr<CopyEngine>> engines;
  sc_core::sc_signal<bool> irq{"irq"};
  // Base-protocol checkers on the host's ports, the DMA path and the BAR0 forwarding path.
  ProtocolChecker check_cfg{"check_cfg"}, check_mem{"check_mem"}, check_dma{"check_dma"},
      check_reg{"check_reg"}, check_bar0{"check_bar0"}, check_bar1{"check_bar1"};
  tlm_utils::simple_initiator_socket<PcieBench> cfg_port{"cfg_port"};    // host CPU -> ECAM
  tlm_utils::simple_initiator_socket<PcieBench> mem_port{"mem_port"};    // host CPU -> BARs
  // A VP's PCI bus, which has decoded the BARs itself: offsets within BAR0 and BAR1.
  tlm_utils::simple_initiator_socket<PcieBench> bar0_port{"bar0_port"};
  tlm_utils::simple_initiator_socket<PcieBench> bar1_port{"bar1_port"};
  // DMI invalidations that reached mem_port and bar1_port: [start, end] each.
  std::vector<std::pair<uint64_t, uint64_t>> mem_revoked, bar1_revoked;
  tlm_utils::simple_initiator_socket<PcieBench> unit_port{"unit_port"};  // a GPU unit's DMA

  explicit PcieBench(const BenchOptions& options = BenchOptions{},
                     sc_core::sc_module_name name = "bench");

  /// Runs `body` in its own SystemC thread once simulation starts.
  void spawn(std::function<void()> body);

  // Host CPU accesses, each waiting for its returned delay (kept in last_delay).
  uint32_t cfg_read(uint32_t offset, unsigned bytes = 4);
  void cfg_write(uint32_t offset, uint32_t value, unsigned bytes = 4);
  tlm::tlm_response_status access(tlm_utils::simple_initiator_socket<PcieBench>& port,
                                  tlm::tlm_command command, uint64_t address, void* data,
                                  unsigned bytes);
  uint32_t bar0_read(uint32_t offset, tlm::tlm_response_status* status = nullptr);
  tlm::tlm_response_status bar0_write(uint32_t offset, uint32_t value);
  /// Debug read through mem_target (no time, no side effects); returns bytes transferred.
  unsigned bar0_peek(uint32_t offset, uint32_t& value);

  /// What firmware does at boot: assign both BARs, enable memory decoding and bus mastering,
  /// point the MSI at the interrupt controller (enabled when `msi`).
  void enumerate(bool msi = true);

  uint8_t* host(uint64_t address, uint64_t bytes) { return host_memory.backdoor(address, bytes); }
  uint8_t* vram_at(uint64_t offset, uint64_t bytes) {
    return vram.backdoor(kVramBase + offset, bytes);
  }

  /// A statistic by its path below the bench's root group ("gpu_pcie.msis"); NaN if absent.
  double stat(const std::string& path) const;
  /// Base-protocol violations seen by all checkers.
  size_t violations() const;

  sc_core::sc_time last_delay;

 private:
  void mem_invalidated(sc_dt::uint64 start, sc_dt::uint64 end) { mem_revoked.emplace_back(start, end); }
  void bar1_invalidated(sc_dt::uint64 start, sc_dt::uint64 end) {
    bar1_revoked.emplace_back(start, end);
  }
};

void prepare(tlm::tlm_generic_payload& tx, tlm::tlm_command command, uint64_t address, void* data,
             unsigned bytes);
double ns(const sc_core::sc_time& t);

}  // namespace gpusoc::pcie::testing
