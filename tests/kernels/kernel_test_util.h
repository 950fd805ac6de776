// Shared helpers for the kernel-suite tests: loading sw/kernels PTX onto a FunctionalDevice,
// deterministic test data, and the float comparisons with their error models.
//
// The data generators, bit views, error models and rounding helpers live in
// sw/apps/reference/numeric.h (shared with the apps); its header comment lists the tolerances
// used across the suite. Each test says which one applies and why.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "models/ptx/device.h"
#include "models/ptx/launch.h"
#include "sw/apps/reference/numeric.h"

namespace gpusoc::kernel_test {

using namespace gpusoc::apps::reference;  // NOLINT: the shared host references, unqualified

using ptx::DevicePtr;
using ptx::Dim3;
using ptx::FunctionalDevice;
using ptx::Kernel;
using ptx::KernelArgs;
using ptx::LaunchConfig;
using ptx::Module;

inline std::string kernel_path(const std::string& ptx_file) {
  return std::string(GPUSOC_KERNEL_DIR) + "/" + ptx_file;
}

inline uint32_t ceil_div(uint64_t a, uint64_t b) {
  return static_cast<uint32_t>((a + b - 1) / b);
}

/// The options every device of the suite starts from. The SIMT model comes from the environment
/// (GPUSOC_SIMT_MODEL=stack|independent, stack when unset): ctest runs every family under both,
/// and both must give the same results.
inline ptx::DeviceOptions suite_options() {
  ptx::DeviceOptions o;
  const char* model = std::getenv("GPUSOC_SIMT_MODEL");
  if (model) {
    PolicyChoice choice(model);  // the stack without its watchdog, as when unset
    if (choice.name == "stack") choice.settings.set("sm.simt_deadlock_instructions", 0);
    o.simt_model = ptx::make_simt_model(choice);  // ConfigError for an unknown model
  }
  return o;
}

/// A device with the PTX of one kernel family loaded.
class KernelTest : public ::testing::Test {
 protected:
  Module load(const std::string& ptx_file) { return dev.load_module_file(kernel_path(ptx_file)); }
  FunctionalDevice dev{suite_options()};
};

template <typename Param>
class KernelTestWithParam : public KernelTest, public ::testing::WithParamInterface<Param> {};

inline ::testing::AssertionResult near_with_tolerance(double actual, double expected, double tol) {
  if (within_tolerance(actual, expected, tol)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "actual " << actual << " expected " << expected << " error "
         << std::fabs(actual - expected) << " > tolerance " << tol;
}

inline ::testing::AssertionResult within_ulps(float actual, double exact, double max_ulps) {
  double e = ulp_error(actual, exact);
  if (e <= max_ulps) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "actual " << actual << " (0x" << std::hex << f2u(actual) << std::dec << ") exact "
         << exact << ": " << e << " ulp > " << max_ulps;
}

}  // namespace gpusoc::kernel_test
