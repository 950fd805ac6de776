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

const char* error_name(cmd::ErrorCode code) {
  using cmd::ErrorCode;
  switch (code) {
    case ErrorCode::None:
      return "None";
    case ErrorCode::InvalidPacket:
      return "InvalidPacket";
    case ErrorCode::InvalidKernel:
      return "InvalidKernel";
    case ErrorCode::InvalidLaunchConfig:
      return "InvalidLaunchConfig";
    case ErrorCode::LaunchOutOfResources:
      return "LaunchOutOfResources";
    case ErrorCode::InvalidLaunchParams:
      return "InvalidLaunchParams";
    case ErrorCode::LaunchFailed:
      return "LaunchFailed";
    case ErrorCode::HostAccessFault:
      return "HostAccessFault";
    case ErrorCode::DeviceAccessFault:
      return "DeviceAccessFault";
    case ErrorCode::ModuleLoadFailed:
      return "ModuleLoadFailed";
    case ErrorCode::InvalidModule:
      return "InvalidModule";
  }
  return "unknown";
}

}  // namespace gpusoc::gigathread
