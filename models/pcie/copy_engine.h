// A copy engine: the DMA engine that moves data between host memory (through the PCIe endpoint's
// upstream_target) and VRAM, or within VRAM, and fills VRAM. Data moves functionally through TLM
// transactions; time follows the link and memory the transactions cross. Reads are pipelined:
// up to pcie.max_outstanding_reads requests of pcie.max_read_request_bytes are in flight, so
// link latency does not serialize a copy; writes onto the link keep two chunks queued, enough to
// keep it busy without letting one engine's writes hold up everything behind them.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/interrupt.h"
#include "models/common/register_block.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/pcie/copy_service.h"
#include "models/pcie/pcie_config.h"
#include "models/pcie/pcie_endpoint.h"

namespace gpusoc::pcie {

class CopyEngine : public sc_core::sc_module, public CopyService {
 public:
  tlm_utils::simple_target_socket<CopyEngine> mmio_target;        // CE_* registers, window-relative
  tlm_utils::simple_initiator_socket<CopyEngine> dma_initiator;   // to endpoint.upstream_target
  tlm_utils::simple_initiator_socket<CopyEngine> vram_initiator;  // device addresses
  sc_core::sc_port<InterruptSink> interrupt_out;  // kIntrCopy, read-only register writes

  /// Engine `index` (its registers sit at bar0::copy_engine_offset(index, 0)); VRAM is
  /// [device.vram_base, + device.vram_bytes).
  CopyEngine(sc_core::sc_module_name name, uint32_t index, const PcieConfig& config,
             const DeviceInfo& device, StatGroup& stats_parent);

  /// The CE_* registers (offsets relative to the engine's window, bar0_map.h).
  static const std::vector<RegisterSpec>& register_specs();

  // CopyService: one request at a time; a second caller waits its turn.
  cmd::ErrorCode copy(const CopyRequest& request) override;
  cmd::ErrorCode fill(const FillRequest& request) override;

  bool busy() const { return busy_; }
  /// A reset begins: the request under way ends at its next chunk, failed, and so does any
  /// request made before reset_registers().
  void abort() { aborted_ = true; }
  /// A reset ends: CE_COPIES, CE_BYTES and CE_BUSY_NS count from zero again (the statistics do
  /// not), and requests are served again.
  void reset_registers();

 private:
  struct Leg {  // one side of a transfer
    tlm_utils::simple_initiator_socket<CopyEngine>& port;
    uint64_t address;
    cmd::ErrorCode fault;  // what an error response there means
  };
  struct Slot {  // a chunk between its read and its write
    uint64_t offset;
    uint32_t bytes;
    sc_core::sc_time ready;
  };
  struct Stats : StatGroup {
    Stats(StatGroup& parent, const std::string& name, const CopyEngine& engine);
    Counter copies{*this, "copies", "requests", "copies completed"};
    Counter fills{*this, "fills", "requests", "fills completed"};
    Counter host_to_device_bytes{*this, "host_to_device_bytes", "bytes", "copied host -> VRAM"};
    Counter device_to_host_bytes{*this, "device_to_host_bytes", "bytes", "copied VRAM -> host"};
    Counter device_to_device_bytes{*this, "device_to_device_bytes", "bytes", "copied within VRAM"};
    Counter filled_bytes{*this, "filled_bytes", "bytes", "VRAM filled"};
    Counter faults{*this, "faults", "requests", "requests refused or failed"};
    Formula busy_ns;
    Formula bandwidth;
  };

  bool in_vram(uint64_t address, uint64_t bytes) const;
  cmd::ErrorCode pump(const Leg& from, const Leg& to, uint64_t bytes, uint64_t align_address,
                      uint32_t chunk, uint32_t window, uint32_t write_window);
  bool transfer(const Leg& leg, tlm::tlm_command command, uint64_t offset, uint8_t* data,
                uint32_t bytes, sc_core::sc_time& delay);
  void begin();
  /// `what` names the work on the timeline ("host to device", "fill").
  void finish(bool ok, uint64_t bytes, bool raise_interrupt, const char* what);
  void wait_until(const sc_core::sc_time& time);
  void mmio_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned mmio_transport_dbg(tlm::tlm_generic_payload& tx);

  uint32_t index_;
  PcieConfig params_;
  DeviceInfo device_;
  RegisterBlock registers_;
  sc_core::sc_mutex engine_;
  bool busy_ = false;
  bool aborted_ = false;  // by a reset, until reset_registers()
  sc_core::sc_time busy_since_;
  sc_core::sc_time busy_time_;
  uint64_t completed_ = 0;        // CE_COPIES: copies and fills
  uint64_t completed_bytes_ = 0;  // CE_BYTES
  struct {
    uint64_t copies = 0, bytes = 0;
    sc_core::sc_time busy;
  } at_reset_;                   // what the registers count from
  std::vector<uint8_t> buffer_;  // the slots' data, one chunk each
  std::vector<Slot> slots_;
  std::vector<sc_core::sc_time> written_;  // when recent writes were done (posted: sent)
  tlm::tlm_generic_payload tx_;
  Stats stats_;
};

}  // namespace gpusoc::pcie
