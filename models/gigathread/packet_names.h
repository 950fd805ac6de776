// Names of opcodes, for error messages, logs and statistics (error codes: cmd::error_name).
#pragma once

#include "models/gigathread/packets.h"

namespace gpusoc::gigathread {

/// "Launch", "SemAcquire", ...; "unknown" for a value outside the enumeration.
const char* opcode_name(cmd::Opcode op);

constexpr uint32_t kNumOpcodes = uint32_t(cmd::Opcode::ModuleUnload) + 1;

}  // namespace gpusoc::gigathread
