// What the command processor asks of a copy engine. A copy engine serves one request at a time
// (a second caller waits its turn); different engines run concurrently with each other and with
// kernels.
#pragma once

#include <cstdint>

#include <systemc>

#include "models/gigathread/packets.h"

namespace gpusoc::pcie {

struct CopyRequest {
  uint64_t source = 0;
  uint64_t destination = 0;
  uint64_t bytes = 0;
  cmd::CopyDirection direction = cmd::CopyDirection::HostToDevice;
  bool raise_interrupt = false;  // latch kIntrCopy (bar0_map.h) when the copy completes
};

struct FillRequest {
  uint64_t destination = 0;  // device address
  uint64_t bytes = 0;        // a multiple of element_bytes
  uint32_t value = 0;
  uint32_t element_bytes = 1;    // 1, 2 or 4
  bool raise_interrupt = false;  // latch kIntrCopy (bar0_map.h) when the fill completes
};

class CopyService : public virtual sc_core::sc_interface {
 public:
  /// Block the calling SC_THREAD until done; return ErrorCode::None or the fault
  /// (HostAccessFault, DeviceAccessFault, InvalidPacket for a bad direction or element size).
  virtual cmd::ErrorCode copy(const CopyRequest& request) = 0;
  virtual cmd::ErrorCode fill(const FillRequest& request) = 0;
};

}  // namespace gpusoc::pcie
