// A HostSystem with a fake PCIe endpoint on its root port, every device-side socket wrapped in
// a protocol checker. The endpoint's config space is 4 KiB of bytes; its memory target records
// the addresses it sees; its `behaviour` runs in a thread and may issue DMA and MSI writes.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/protocol_checker.h"
#include "models/host/host_system.h"

namespace gpusoc::host::testing {

constexpr uint64_t kGiB = uint64_t{1} << 30;

/// Round numbers for timing checks: 100 ns DRAM latency, 4 bytes/ns, a 1 us quantum.
inline HostConfig test_config() {
  HostConfig config;
  config.map.memory_base = 4 * kGiB;
  config.map.memory_bytes = 64u << 20;
  config.memory_latency = sc_core::sc_time(100, sc_core::SC_NS);
  config.memory_bytes_per_ns = 4;
  config.quantum = sc_core::sc_time(1000, sc_core::SC_NS);
  return config;
}

struct FakeEndpoint : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeEndpoint> config_target{"config_target"};
  tlm_utils::simple_target_socket<FakeEndpoint> mem_target{"mem_target"};
  tlm_utils::simple_initiator_socket<FakeEndpoint> dma_initiator{"dma_initiator"};
  std::array<uint8_t, 4096> config{};
  std::vector<uint64_t> config_addresses, mem_addresses;
  uint32_t mem_data = 0;
  std::function<void(FakeEndpoint&)> behaviour;

  SC_HAS_PROCESS(FakeEndpoint);
  explicit FakeEndpoint(sc_core::sc_module_name name) : sc_module(name) {
    config_target.register_b_transport(this, &FakeEndpoint::config_access);
    mem_target.register_b_transport(this, &FakeEndpoint::mem_access);
    const uint32_t id = 0x0191'10DE;  // device 0x0191, vendor 0x10DE
    std::memcpy(config.data(), &id, 4);
    SC_THREAD(run);
  }
  void run() {
    if (behaviour) behaviour(*this);
  }
  void config_access(tlm::tlm_generic_payload& tx, sc_core::sc_time&) {
    config_addresses.push_back(tx.get_address());
    uint8_t* at = config.data() + tx.get_address();
    if (tx.is_read()) std::memcpy(tx.get_data_ptr(), at, tx.get_data_length());
    if (tx.is_write()) std::memcpy(at, tx.get_data_ptr(), tx.get_data_length());
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void mem_access(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    mem_addresses.push_back(tx.get_address());
    if (tx.is_write() && tx.get_data_length() == 4) std::memcpy(&mem_data, tx.get_data_ptr(), 4);
    if (tx.is_read()) std::memset(tx.get_data_ptr(), 0x5A, tx.get_data_length());
    delay += sc_core::sc_time(50, sc_core::SC_NS);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  /// A DMA request from the endpoint's thread; returns the response, adds to `delay`.
  tlm::tlm_response_status dma(tlm::tlm_command command, uint64_t address, void* data,
                               unsigned bytes, sc_core::sc_time& delay) {
    tlm::tlm_generic_payload tx;
    tx.set_command(command);
    tx.set_address(address);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(bytes);
    tx.set_streaming_width(bytes);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    dma_initiator->b_transport(tx, delay);
    return tx.get_response_status();
  }
};

struct HostBench {
  StatGroup stats;
  HostSystem host;
  FakeEndpoint gpu{"gpu"};
  ProtocolChecker config_check{"config_check"};
  ProtocolChecker mem_check{"mem_check"};
  ProtocolChecker dma_check{"dma_check"};

  explicit HostBench(HostProgram program, const HostConfig& config = test_config())
      : host("host", config, stats) {
    host.config_initiator.bind(config_check.target);
    config_check.initiator.bind(gpu.config_target);
    host.mem_initiator.bind(mem_check.target);
    mem_check.initiator.bind(gpu.mem_target);
    gpu.dma_initiator.bind(dma_check.target);
    dma_check.initiator.bind(host.upstream_target);
    host.set_program(std::move(program));
  }

  /// Runs until the program ends; rethrows what it threw.
  void run() {
    sc_core::sc_start();
    host.cpu.rethrow_program_error();
  }
};

}  // namespace gpusoc::host::testing
