// Status names and the mapping of every GPU-side error (CH_ERROR codes, ERROR_STATUS bits) to a
// Status, checked against tables written here from packets.h and bar0_map.h.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "models/pcie/bar0_map.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

const Status kAll[] = {
    Status::Success,
    Status::InvalidValue,
    Status::OutOfMemory,
    Status::NotInitialized,
    Status::InvalidDevice,
    Status::InvalidImage,
    Status::NotFound,
    Status::FileNotFound,
    Status::InvalidHandle,
    Status::InvalidConfiguration,
    Status::LaunchOutOfResources,
    Status::LaunchFailed,
    Status::IllegalAddress,
    Status::NotReady,
    Status::DeviceError,
    Status::Timeout,
};

TEST(StatusTest, EveryStatusHasItsOwnNameAndADescription) {
  std::set<std::string> names;
  for (Status s : kAll) {
    const std::string name(status_name(s));
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name, "UnknownStatus");
    EXPECT_FALSE(status_description(s).empty()) << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), std::size(kAll));
  EXPECT_EQ(status_name(Status::InvalidConfiguration), "InvalidConfiguration");
  EXPECT_EQ(status_name(static_cast<Status>(999)), "UnknownStatus");
}

TEST(StatusTest, ErrorCarriesStatusAndPrefixedMessage) {
  const Error e(Status::OutOfMemory, "device memory: cannot allocate 4096 bytes");
  EXPECT_EQ(e.status(), Status::OutOfMemory);
  EXPECT_EQ(e.message(), "device memory: cannot allocate 4096 bytes");
  EXPECT_STREQ(e.what(), "OutOfMemory: device memory: cannot allocate 4096 bytes");
  const gpusoc::Error& base = e;  // the CLI catches gpusoc::Error
  EXPECT_STREQ(base.what(), e.what());
}

TEST(StatusTest, EveryChannelErrorCodeMapsToAStatus) {
  using cmd::ErrorCode;
  const std::pair<ErrorCode, Status> expected[] = {
      {ErrorCode::None, Status::Success},
      {ErrorCode::InvalidPacket, Status::DeviceError},
      {ErrorCode::InvalidKernel, Status::InvalidHandle},
      {ErrorCode::InvalidLaunchConfig, Status::InvalidConfiguration},
      {ErrorCode::LaunchOutOfResources, Status::LaunchOutOfResources},
      {ErrorCode::InvalidLaunchParams, Status::InvalidValue},
      {ErrorCode::LaunchFailed, Status::LaunchFailed},
      {ErrorCode::HostAccessFault, Status::IllegalAddress},
      {ErrorCode::DeviceAccessFault, Status::IllegalAddress},
      {ErrorCode::ModuleLoadFailed, Status::InvalidImage},
      {ErrorCode::InvalidModule, Status::InvalidHandle},
  };
  for (const auto& [code, status] : expected) {
    EXPECT_EQ(status_from_channel_error(code), status) << channel_error_name(code);
  }
  EXPECT_EQ(channel_error_name(ErrorCode::LaunchFailed), "LaunchFailed");
  EXPECT_EQ(channel_error_name(ErrorCode::DeviceAccessFault), "DeviceAccessFault");
  EXPECT_EQ(channel_error_name(static_cast<ErrorCode>(42)), "ErrorCode 42");
  EXPECT_EQ(status_from_channel_error(static_cast<ErrorCode>(42)), Status::DeviceError);
}

TEST(StatusTest, ErrorStatusBitsMapToAStatusAndNames) {
  EXPECT_EQ(status_from_error_bits(0), Status::Success);
  EXPECT_EQ(status_from_error_bits(bar0::kErrorDma), Status::IllegalAddress);
  EXPECT_EQ(status_from_error_bits(bar0::kErrorDma | bar0::kErrorUnmapped), Status::IllegalAddress);
  for (uint32_t bit : {bar0::kErrorReadOnlyWrite, bar0::kErrorBadAccess, bar0::kErrorUnmapped}) {
    EXPECT_EQ(status_from_error_bits(bit), Status::DeviceError) << bit;
  }
  EXPECT_EQ(error_bits_names(0), "none");
  EXPECT_EQ(error_bits_names(bar0::kErrorUnmapped | bar0::kErrorDma),
            "MMIO access to an unmapped offset | DMA to host memory refused");
  EXPECT_EQ(error_bits_names(1u << 7), "unknown bits 0x80");
}

}  // namespace
}  // namespace gpusoc::rt
