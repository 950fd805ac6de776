// Typed kernel arguments laid out at the offsets the module loader reports, and the errors for
// a wrong count or a wrong size.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "sw/runtime/buffers.h"
#include "sw/runtime/kernel_args.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

// Like `k(u64 p, u32 n, f64 x, u16 h)` with .param alignment: offsets 0, 8, 16, 24; 32 bytes.
KernelInfo four_params() {
  KernelInfo k;
  k.name = "k";
  k.params = {{0, 8}, {8, 4}, {16, 8}, {24, 2}};
  k.param_buffer_bytes = 32;
  return k;
}

template <typename... Args>
std::vector<uint8_t> pack(const KernelInfo& k, const Args&... args) {
  std::vector<uint8_t> out(k.param_buffer_bytes, 0xFF);  // stale bytes must be cleared
  pack_arguments(k, KernelArgs(args...), out.data());
  return out;
}

template <typename T>
T at(const std::vector<uint8_t>& buffer, size_t offset) {
  T v;
  std::memcpy(&v, buffer.data() + offset, sizeof v);
  return v;
}

TEST(KernelArgsTest, ArgumentsLandAtTheirOffsetsAndGapsAreZero) {
  const std::vector<uint8_t> b =
      pack(four_params(), uint64_t{0x2'0000'0100}, int32_t{-7}, 2.5, uint16_t{0xBEEF});
  EXPECT_EQ(at<uint64_t>(b, 0), 0x2'0000'0100u);
  EXPECT_EQ(at<int32_t>(b, 8), -7);
  EXPECT_EQ(at<double>(b, 16), 2.5);
  EXPECT_EQ(at<uint16_t>(b, 24), 0xBEEF);
  for (size_t gap : {12, 13, 14, 15, 26, 27, 28, 29, 30, 31}) EXPECT_EQ(b[gap], 0) << gap;
}

TEST(KernelArgsTest, WrongArgumentCountNamesTheKernel) {
  try {
    pack(four_params(), uint64_t{1}, int32_t{2});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidValue);
    EXPECT_EQ(e.message(), "kernel k takes 4 parameters, the launch passes 2 arguments");
  }
}

TEST(KernelArgsTest, WrongArgumentSizeNamesIndexAndSizes) {
  try {
    pack(four_params(), uint64_t{1}, uint64_t{2}, 2.5, uint16_t{3});  // argument 1 is 8 bytes
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidValue);
    EXPECT_EQ(e.message(), "kernel k: argument 1 is 8 bytes, its parameter is 4 bytes");
  }
  try {
    pack(four_params(), uint64_t{1}, int32_t{2}, 2.5f, uint16_t{3});  // float for a .f64
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "kernel k: argument 2 is 4 bytes, its parameter is 8 bytes");
  }
}

TEST(KernelArgsTest, KernelWithoutParametersTakesNoArguments) {
  KernelInfo k;
  k.name = "empty";
  EXPECT_TRUE(pack(k).empty());
  try {
    pack(k, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "kernel empty takes 0 parameters, the launch passes 1 argument");
  }
}

TEST(KernelArgsTest, ADeviceBufferPassesItsAddressAndAnEmptyOneIsAnInvalidHandle) {
  // What kernel_argument gives for a buffer: the device address it holds (8 bytes).
  static_assert(std::is_same_v<decltype(kernel_argument(std::declval<DeviceBuffer<float>>())),
                               DevicePtr>);
  const DeviceBuffer<float> empty;
  try {
    KernelArgs args(empty);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidHandle);
  }
}

}  // namespace
}  // namespace gpusoc::rt
