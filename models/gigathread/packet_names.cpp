#include "models/gigathread/packet_names.h"

namespace gpusoc::gigathread {

const char* opcode_name(cmd::Opcode op) {
  using cmd::Opcode;
  switch (op) {
    case Opcode::Nop:
      return "Nop";
    case Opcode::Launch:
      return "Launch";
    case Opcode::Copy:
      return "Copy";
    case Opcode::Memset:
      return "Memset";
    case Opcode::SemAcquire:
      return "SemAcquire";
    case Opcode::SemRelease:
      return "SemRelease";
    case Opcode::Fence:
      return "Fence";
    case Opcode::ModuleLoad:
      return "ModuleLoad";
    case Opcode::ModuleUnload:
      return "ModuleUnload";
  }
  return "unknown";
}

}  // namespace gpusoc::gigathread
