#include "models/gigathread/channel_registers.h"

#include "models/pcie/bar0_map.h"

namespace gpusoc::gigathread {

const std::vector<RegisterSpec>& channel_register_specs() {
  using A = RegisterAccess;
  static const std::vector<RegisterSpec> specs = {
      {bar0::CH_RING_BASE_LO, "CH_RING_BASE_LO", A::ReadWrite, 0,
       "Host address of the ring buffer, low 32 bits; 64-byte aligned. Latched when the channel "
       "is enabled."},
      {bar0::CH_RING_BASE_HI, "CH_RING_BASE_HI", A::ReadWrite, 0,
       "Host address of the ring buffer, high 32 bits."},
      {bar0::CH_RING_SIZE, "CH_RING_SIZE", A::ReadWrite, 0,
       "Ring size in bytes: a power of two from 64 B to 16 MiB. Latched when the channel is "
       "enabled."},
      {bar0::CH_PUT, "CH_PUT", A::ReadWrite, 0,
       "Byte offset in the ring where the host writes its next packet; a multiple of 64 below "
       "CH_RING_SIZE."},
      {bar0::CH_GET, "CH_GET", A::ReadOnly, 0,
       "Byte offset of the next packet the command processor fetches; advances as packets are "
       "fetched, wraps at CH_RING_SIZE, resets to 0 when the channel is enabled."},
      {bar0::CH_DOORBELL, "CH_DOORBELL", A::WriteOnly, 0,
       "Any write: fetch and execute the packets from CH_GET up to CH_PUT."},
      {bar0::CH_STATUS, "CH_STATUS", A::ReadOnly, 0,
       "Bit 0 busy (packets pending or executing), bit 1 error (CH_ERROR is not 0), bit 2 "
       "enabled."},
      {bar0::CH_ERROR, "CH_ERROR", A::ReadOnly, 0,
       "ErrorCode of the first packet that failed since CH_ERROR_CLEAR (see docs/commands.md); 0 "
       "if none."},
      {bar0::CH_ERROR_GET, "CH_ERROR_GET", A::ReadOnly, 0,
       "Ring offset of the packet whose error CH_ERROR holds."},
      {bar0::CH_ERROR_CLEAR, "CH_ERROR_CLEAR", A::WriteOnly, 0,
       "Write 1 (bit 0): clear CH_ERROR and CH_ERROR_GET, so that the next error latches."},
      {bar0::CH_ERROR_LOG_LO, "CH_ERROR_LOG_LO", A::ReadWrite, 0,
       "Host address of a buffer that receives the latched error's message as NUL-terminated "
       "text, low 32 bits; 0 for none."},
      {bar0::CH_ERROR_LOG_HI, "CH_ERROR_LOG_HI", A::ReadWrite, 0,
       "Host address of the error log buffer, high 32 bits."},
      {bar0::CH_ERROR_LOG_SIZE, "CH_ERROR_LOG_SIZE", A::ReadWrite, 0,
       "Size of the error log buffer in bytes; longer messages are cut, always NUL-terminated."},
      {bar0::CH_CONTROL, "CH_CONTROL", A::ReadWrite, 0,
       "Bit 0 enable. Setting it latches the ring registers, sets CH_GET to 0 and restarts a "
       "channel stopped by a fetch fault; clearing it stops the channel after its current "
       "packet."},
  };
  return specs;
}

}  // namespace gpusoc::gigathread
