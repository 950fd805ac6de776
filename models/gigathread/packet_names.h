// Names of opcodes and error codes, for error messages, logs and statistics.
#pragma once

#include "models/gigathread/packets.h"

namespace gpusoc::gigathread {

/// "Launch", "SemAcquire", ...; "unknown" for a value outside the enumeration.
const char* opcode_name(cmd::Opcode op);
/// "InvalidKernel", "HostAccessFault", ...; "unknown" for a value outside the enumeration.
const char* error_name(cmd::ErrorCode code);

constexpr uint32_t kNumOpcodes = uint32_t(cmd::Opcode::ModuleUnload) + 1;

}  // namespace gpusoc::gigathread
