#include "sw/runtime/status.h"

#include <fmt/format.h>

#include "models/pcie/bar0_map.h"

namespace gpusoc::rt {
namespace {

struct StatusText {
  Status status;
  std::string_view name;
  std::string_view description;
};

constexpr StatusText kStatusTexts[] = {
    {Status::Success, "Success", "no error"},
    {Status::InvalidValue, "InvalidValue", "an argument is out of range"},
    {Status::OutOfMemory, "OutOfMemory", "not enough memory for the request"},
    {Status::NotInitialized, "NotInitialized", "the object was never opened"},
    {Status::InvalidDevice, "InvalidDevice", "no usable GPU was found"},
    {Status::InvalidImage, "InvalidImage", "the module image did not load"},
    {Status::NotFound, "NotFound", "no symbol of that name"},
    {Status::FileNotFound, "FileNotFound", "the file could not be read"},
    {Status::InvalidHandle, "InvalidHandle", "the handle is not (or no longer) valid"},
    {Status::InvalidConfiguration, "InvalidConfiguration",
     "the launch dimensions are not valid for the kernel or the device"},
    {Status::LaunchOutOfResources, "LaunchOutOfResources",
     "a thread block needs more resources than an SM has"},
    {Status::LaunchFailed, "LaunchFailed", "a kernel faulted while running"},
    {Status::IllegalAddress, "IllegalAddress", "an access touched memory that does not exist"},
    {Status::NotReady, "NotReady", "the asynchronous work has not completed"},
    {Status::DeviceError, "DeviceError", "the device reported an unexpected error"},
    {Status::Timeout, "Timeout", "the device did not answer in time"},
};

const StatusText& text_of(Status status) {
  for (const StatusText& t : kStatusTexts) {
    if (t.status == status) return t;
  }
  static const StatusText unknown{Status::DeviceError, "UnknownStatus", "unknown status code"};
  return unknown;
}

}  // namespace

std::string_view status_name(Status status) {
  return text_of(status).name;
}

std::string_view status_description(Status status) {
  return text_of(status).description;
}

Error::Error(Status status, const std::string& message)
    : gpusoc::Error(fmt::format("{}: {}", status_name(status), message)),
      status_(status),
      message_(message) {}

Status status_from_channel_error(cmd::ErrorCode code) {
  using cmd::ErrorCode;
  switch (code) {
    case ErrorCode::None:
      return Status::Success;
    case ErrorCode::InvalidPacket:
      return Status::DeviceError;  // the runtime wrote a bad packet
    case ErrorCode::InvalidKernel:
      return Status::InvalidHandle;
    case ErrorCode::InvalidLaunchConfig:
      return Status::InvalidConfiguration;
    case ErrorCode::LaunchOutOfResources:
      return Status::LaunchOutOfResources;
    case ErrorCode::InvalidLaunchParams:
      return Status::InvalidValue;
    case ErrorCode::LaunchFailed:
      return Status::LaunchFailed;
    case ErrorCode::HostAccessFault:
      return Status::IllegalAddress;
    case ErrorCode::DeviceAccessFault:
      return Status::IllegalAddress;
    case ErrorCode::ModuleLoadFailed:
      return Status::InvalidImage;
    case ErrorCode::InvalidModule:
      return Status::InvalidHandle;
  }
  return Status::DeviceError;
}

std::string channel_error_name(cmd::ErrorCode code) {
  const std::string name = cmd::error_name(code);
  if (name != "unknown") return name;
  return fmt::format("ErrorCode {}", static_cast<uint32_t>(code));
}

Status status_from_error_bits(uint32_t error_status) {
  // A refused DMA means an address the GPU was given does not exist; refused MMIO accesses are
  // the runtime's own mistakes.
  if (error_status & bar0::kErrorDma) return Status::IllegalAddress;
  if (error_status == 0) return Status::Success;
  return Status::DeviceError;
}

std::string error_bits_names(uint32_t error_status) {
  static constexpr std::pair<uint32_t, const char*> kBits[] = {
      {bar0::kErrorReadOnlyWrite, "MMIO write to a read-only register"},
      {bar0::kErrorBadAccess, "MMIO access not 4 bytes or misaligned"},
      {bar0::kErrorUnmapped, "MMIO access to an unmapped offset"},
      {bar0::kErrorChannel, "channel error"},
      {bar0::kErrorDma, "DMA to host memory refused"},
  };
  std::string out;
  uint32_t known = 0;
  for (const auto& [bit, name] : kBits) {
    known |= bit;
    if (error_status & bit) out += out.empty() ? name : std::string(" | ") + name;
  }
  if (error_status & ~known) {
    out += fmt::format("{}unknown bits {:#x}", out.empty() ? "" : " | ", error_status & ~known);
  }
  return out.empty() ? "none" : out;
}

}  // namespace gpusoc::rt
