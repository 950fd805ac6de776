// Faults while a kernel runs (sw/kernels/faults.cu) must surface as ptx::ExecutionError naming
// the kernel; launches the device must refuse up front surface as ptx::LaunchError.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

using ptx::ExecutionError;
using ptx::LaunchError;

// Runs `f`, expecting an ExecutionError whose message contains `needle`.
template <typename F>
void expect_execution_error(F f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no ExecutionError (expected one mentioning " << needle << ")";
  } catch (const ExecutionError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message does not name " << needle << ": " << e.what();
  }
}

class FaultTest : public KernelTest {
 protected:
  void SetUp() override { faults_ = load("faults.ptx"); }
  std::optional<Module> faults_;
};

// 2^36 ints = 256 GiB past a small allocation: unmapped on any configuration.
TEST_F(FaultTest, StoreFarOutOfBoundsThrowsNamingKernel) {
  Kernel k = faults_->kernel("fault_oob_store");
  DevicePtr p = dev.malloc(64 * sizeof(int));
  expect_execution_error([&] { dev.launch(k, Dim3(1), Dim3(32), p, 1LL << 36); },
                         "fault_oob_store");
}

TEST_F(FaultTest, LoadFarOutOfBoundsThrowsNamingKernel) {
  Kernel k = faults_->kernel("fault_oob_load");
  DevicePtr p = dev.malloc(64 * sizeof(int)), out = dev.malloc(64 * sizeof(int));
  expect_execution_error([&] { dev.launch(k, Dim3(1), Dim3(32), p, 1LL << 36, out); },
                         "fault_oob_load");
}

// Stores through a null pointer (addresses 0..127).
TEST_F(FaultTest, NullPointerStoreThrows) {
  Kernel k = faults_->kernel("fault_oob_store");
  expect_execution_error([&] { dev.launch(k, Dim3(1), Dim3(32), DevicePtr(0), 0LL); },
                         "fault_oob_store");
}

TEST_F(FaultTest, TrapThrowsNamingKernel) {
  Kernel k = faults_->kernel("fault_trap");
  DevicePtr p = dev.malloc(64 * sizeof(int));
  expect_execution_error([&] { dev.launch(k, Dim3(2), Dim3(32), p); }, "fault_trap");
}

TEST_F(FaultTest, MisalignedStoreThrows) {
  Kernel k = faults_->kernel("fault_misaligned");
  DevicePtr p = dev.malloc(64);
  expect_execution_error([&] { dev.launch(k, Dim3(1), Dim3(1), p); }, "fault_misaligned");
}

// 100000 nested calls cannot fit the default 1 KiB per-thread stack.
TEST_F(FaultTest, RunawayRecursionOverflowsTheStack) {
  Kernel k = faults_->kernel("fault_stack_overflow");
  DevicePtr out = dev.malloc(sizeof(int));
  expect_execution_error([&] { dev.launch(k, Dim3(1), Dim3(1), 100000, out); },
                         "fault_stack_overflow");
}

class LaunchErrorTest : public KernelTest {
 protected:
  void SetUp() override {
    kernel_.emplace(load("vector_add.ptx").kernel("vector_add"));
    a_ = dev.malloc(4096);
    b_ = dev.malloc(4096);
    c_ = dev.malloc(4096);
  }
  std::optional<Kernel> kernel_;
  DevicePtr a_ = 0, b_ = 0, c_ = 0;
};

TEST_F(LaunchErrorTest, TooManyThreadsPerBlock) {
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(2048), a_, b_, c_, 16), LaunchError);
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(32, 32, 2), a_, b_, c_, 16), LaunchError);
}

TEST_F(LaunchErrorTest, ZeroSizedGridOrBlock) {
  EXPECT_THROW(dev.launch(*kernel_, Dim3(0), Dim3(32), a_, b_, c_, 16), LaunchError);
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(0), a_, b_, c_, 16), LaunchError);
}

TEST_F(LaunchErrorTest, WrongNumberOfArguments) {
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(32), a_, b_, c_), LaunchError);
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(32), a_, b_, c_, 16, 16), LaunchError);
}

TEST_F(LaunchErrorTest, WrongArgumentSize) {
  // n is an int (4 bytes); a long long is 8.
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(32), a_, b_, c_, 16LL), LaunchError);
  // a pointer (8 bytes) passed as an int.
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(32), a_, 0, c_, 16), LaunchError);
}

TEST_F(LaunchErrorTest, TooMuchSharedMemory) {
  Kernel k = load("reduction.ptx").kernel("reduce_shared");
  uint32_t too_much = dev.options().max_shared_bytes_per_cta + 1024;
  EXPECT_THROW(dev.launch(k, LaunchConfig{Dim3(1), Dim3(256), too_much}, KernelArgs(a_, b_, 16)),
               LaunchError);
}

TEST_F(LaunchErrorTest, UnknownKernelName) {
  Module m = load("vector_add.ptx");
  EXPECT_THROW(m.kernel("no_such_kernel"), LaunchError);
}

// A correct launch after the refused ones still works (refusals leave no state behind).
TEST_F(LaunchErrorTest, ValidLaunchAfterRefusals) {
  EXPECT_THROW(dev.launch(*kernel_, Dim3(1), Dim3(2048), a_, b_, c_, 16), LaunchError);
  std::vector<float> x(16, 1.5f);
  dev.copy_to_device(a_, x.data(), 64);
  dev.copy_to_device(b_, x.data(), 64);
  dev.launch(*kernel_, Dim3(1), Dim3(32), a_, b_, c_, 16);
  auto c = dev.download<float>(c_, 16);
  for (float v : c) EXPECT_EQ(v, 3.0f);
}

}  // namespace
}  // namespace gpusoc::kernel_test
