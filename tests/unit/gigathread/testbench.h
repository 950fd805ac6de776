// A testbench for the command processor: host memory and VRAM as MemoryTargets, test doubles
// for the CTA distributor (records each grid, takes a set simulated time, returns scripted
// results), the copy engines (copy through the memories' backdoors in a set time) and the
// interrupt controller (records what it is told, and when), and a host driver thread that
// programs the channels through the MMIO socket and writes packets into the rings.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/interrupt.h"
#include "models/common/memory_target.h"
#include "models/common/stat_group.h"
#include "models/gigathread/command_processor.h"
#include "models/gigathread/grid_executor.h"
#include "models/gigathread/packets.h"
#include "models/pcie/bar0_map.h"
#include "models/pcie/copy_service.h"

namespace gpusoc::gigathread::testing {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

struct GridCall {
  std::string kernel;
  ptx::Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> params;
  uint32_t registers_per_thread = 0;
  uint32_t channel = 0;
  sc_time start, end;
  std::string kernel_at_end;  // read again when the grid ends: the program must still live
};

class GridDouble : public GridExecutor {
 public:
  sc_time duration{10, SC_US};
  std::deque<GridResult> scripted;  // returned in order; when empty, success
  std::vector<GridCall> calls;      // in the order the grids started
  GridResult run_grid(const GridRequest& request) override;
};

struct CopyCall {
  uint32_t engine = 0;
  bool fill = false;
  pcie::CopyRequest copy;
  pcie::FillRequest fill_request;
  sc_time start, end;
};

class CopyDouble : public pcie::CopyService {
 public:
  CopyDouble(uint32_t index, MemoryTarget& host, MemoryTarget& vram, sc_time duration,
             std::vector<CopyCall>& log)
      : index_(index), host_(host), vram_(vram), duration_(duration), log_(log) {}
  cmd::ErrorCode copy(const pcie::CopyRequest& request) override;
  cmd::ErrorCode fill(const pcie::FillRequest& request) override;

 private:
  uint8_t* locate(uint64_t address, uint64_t bytes, bool host, cmd::ErrorCode& error);
  uint32_t index_;
  MemoryTarget& host_;
  MemoryTarget& vram_;
  sc_time duration_;
  std::vector<CopyCall>& log_;
};

class InterruptDouble : public InterruptSink {
 public:
  struct Event {
    sc_time time;
    uint32_t bits;
  };
  struct MmioFault {
    uint32_t bits, offset;
  };
  std::vector<Event> raised, errors;
  std::vector<MmioFault> mmio_faults;
  void raise(uint32_t causes) override { raised.push_back({sc_core::sc_time_stamp(), causes}); }
  void report_error(uint32_t bits) override { errors.push_back({sc_core::sc_time_stamp(), bits}); }
  void report_mmio_fault(uint32_t bits, uint32_t offset) override {
    mmio_faults.push_back({bits, offset});
  }
};

class HostDriver : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostDriver> mmio;
  tlm_utils::simple_initiator_socket<HostDriver> memcheck_mmio;  // the memory checker's registers
  std::function<void()> program;
  explicit HostDriver(sc_core::sc_module_name name);
  void write_reg(uint32_t channel, uint32_t reg, uint32_t value);
  uint32_t read_reg(uint32_t channel, uint32_t reg);
  /// Sends a raw access; returns its response.
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, void* data,
                                  unsigned bytes);

 private:
  void run();
};

struct TestbenchOptions {
  GigaThreadConfig config = default_config();
  uint32_t copy_engines = 3;
  sc_time host_latency{100, SC_NS};
  sc_time vram_latency{10, SC_NS};
  sc_time copy_time{2, SC_US};
  static GigaThreadConfig default_config();
};

class Testbench {
 public:
  static constexpr uint64_t kHostBase = 0x8000'0000;
  static constexpr uint64_t kHostBytes = 64ull << 20;
  static constexpr uint64_t kVramBase = 0x2'0000'0000;
  static constexpr uint64_t kVramBytes = 256ull << 20;

  explicit Testbench(const TestbenchOptions& options = {});

  /// Runs `program` in the driver thread, then the simulation until nothing is left to do.
  void run(std::function<void()> program);

  // Host memory, through the backdoor (no simulated time).
  template <typename T>
  void poke(uint64_t address, const T& value) {
    std::memcpy(host.backdoor(address, sizeof(T)), &value, sizeof(T));
  }
  template <typename T>
  T peek(uint64_t address) {
    T value;
    std::memcpy(&value, host.backdoor(address, sizeof(T)), sizeof(T));
    return value;
  }
  std::string peek_string(uint64_t address, uint64_t max_bytes = 4096);
  /// 64-byte aligned scratch space in host memory, zeroed.
  uint64_t alloc(uint64_t bytes);

  // Channels, from the driver thread.
  uint64_t ring_base(uint32_t ch) const { return kHostBase + uint64_t(ch) * 0x10000; }
  uint64_t error_log(uint32_t ch) const { return kHostBase + 0x100000 + uint64_t(ch) * 0x1000; }
  static constexpr uint32_t kErrorLogBytes = 0x1000;
  /// Programs the ring (at ring_base(ch)), the error log, PUT = 0, and enables the channel.
  void enable(uint32_t ch, uint32_t ring_bytes = 4096);
  /// Writes a packet at the channel's PUT (wrapping) without telling the channel.
  void push(uint32_t ch, const cmd::Packet& packet);
  /// CH_PUT, then the doorbell.
  void submit(uint32_t ch);
  uint32_t reg(uint32_t ch, uint32_t r) { return driver.read_reg(ch, r); }
  /// Waits (polling every microsecond, at most a simulated second) until the 64-bit word at
  /// `address` is at least `value`.
  void wait_value(uint64_t address, uint64_t value);

  /// Puts `text` (and `ptxas_report`, unless empty) in VRAM and loads it on channel `ch` into a
  /// result buffer of `buffer_bytes`; returns the result once the load is done.
  struct LoadResult {
    cmd::ModuleLoadResult header;
    std::vector<cmd::KernelEntry> kernels;
    std::vector<cmd::GlobalEntry> globals;
    std::vector<cmd::ParamEntry> params;
    std::string strings;
    std::string diagnostics;
    std::string kernel_name(size_t i) const {
      return strings.substr(kernels.at(i).name_offset, kernels.at(i).name_bytes);
    }
    std::string global_name(size_t i) const {
      return strings.substr(globals.at(i).name_offset, globals.at(i).name_bytes);
    }
  };
  LoadResult load_module(uint32_t ch, const std::string& text, uint64_t buffer_bytes = 65536,
                         const std::string& ptxas_report = {});
  /// Reads a result buffer, laid out as packets.h describes (computed here independently).
  LoadResult read_result(uint64_t address);
  /// A LaunchDescriptor in host memory with its parameter buffer; returns its address.
  uint64_t descriptor(uint64_t kernel, ptx::Dim3 grid, ptx::Dim3 block,
                      const std::vector<uint8_t>& params, uint32_t param_bytes_field = ~0u,
                      uint64_t stats_address = 0);
  void clear_error(uint32_t ch) { driver.write_reg(ch, bar0::CH_ERROR_CLEAR, 1); }

  StatGroup stats;
  TestbenchOptions options;
  MemoryTarget host;
  MemoryTarget vram;
  GridDouble grid;
  std::vector<CopyCall> copy_log;
  std::vector<std::unique_ptr<CopyDouble>> engines;
  InterruptDouble irq;
  CommandProcessor cp;
  HostDriver driver;

 private:
  std::vector<uint32_t> put_, ring_bytes_;
  uint64_t next_scratch_ = kHostBase + 0x200000;
  uint64_t next_text_ = kVramBase;
  uint64_t next_fence_value_ = 1;
};

// Packet builders.
cmd::Packet packet(cmd::Opcode op, std::initializer_list<uint64_t> args, uint32_t flags = 0);
cmd::Packet fence(uint64_t address, uint64_t value, uint32_t flags = 0);
cmd::Packet sem_release(uint64_t address, uint64_t value, uint32_t flags = 0);
cmd::Packet sem_acquire(uint64_t address, uint64_t value, uint64_t poll_ns);
cmd::Packet launch(uint64_t descriptor);

}  // namespace gpusoc::gigathread::testing
