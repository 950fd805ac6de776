// The runtime's error model, in the spirit of cudaError_t: every failure has a Status code and a
// message that says what failed, on which kernel, size or address, and what the GPU reported.
// Calls throw rt::Error (as the CUDA C++ wrappers do); a caller that prefers codes catches it and
// reads status().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "models/common/error.h"
#include "models/gigathread/packets.h"

namespace gpusoc::rt {

enum class Status : uint32_t {
  Success = 0,
  InvalidValue,          // an argument is out of range: size, pointer, count, flag
  OutOfMemory,           // device or pinned host memory is exhausted
  NotInitialized,        // the object was never opened (a default-constructed Device)
  InvalidDevice,         // no usable GPU at the PCI function, or an unsupported register map
  InvalidImage,          // the PTX did not load; the message lists the diagnostics
  NotFound,              // no kernel or global of that name
  FileNotFound,          // a module file could not be read
  InvalidHandle,         // a moved-from, freed or unloaded object, or a handle the GPU rejects
  InvalidConfiguration,  // launch dimensions the kernel or the GPU cannot run
  LaunchOutOfResources,  // a CTA does not fit an SM (threads, registers, shared memory)
  LaunchFailed,          // a kernel faulted while running (illegal address, trap, ...)
  IllegalAddress,        // a copy, memset or DMA touched memory outside what exists
  NotReady,              // asynchronous work has not completed yet
  DeviceError,           // the GPU or the bus reported an error the runtime did not expect
  Timeout,               // the GPU did not answer within RuntimeOptions::sync_timeout
};

/// "InvalidValue" and so on: the enumerator's name.
std::string_view status_name(Status status);
/// One sentence: what the status means.
std::string_view status_description(Status status);

/// What every runtime call throws. what() reads "<StatusName>: <message>".
class Error : public gpusoc::Error {
 public:
  Error(Status status, const std::string& message);
  Status status() const { return status_; }
  /// The message without the status prefix.
  const std::string& message() const { return message_; }

 private:
  Status status_;
  std::string message_;
};

/// The Status for an error code a channel recorded in CH_ERROR.
Status status_from_channel_error(cmd::ErrorCode code);
/// "LaunchFailed", "DeviceAccessFault", ... or "ErrorCode 42" for a code packets.h does not know.
std::string channel_error_name(cmd::ErrorCode code);
/// The Status for bits of BAR0 ERROR_STATUS other than kErrorChannel (channels report their own).
Status status_from_error_bits(uint32_t error_status);
/// "unmapped MMIO offset | DMA error": the names of the set ERROR_STATUS bits.
std::string error_bits_names(uint32_t error_status);

}  // namespace gpusoc::rt
