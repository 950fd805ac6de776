// What the runtime's integration tests share: one SocPlatform of configs/small.json per test
// case, the device opened inside the host program, and small helpers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/stat_group.h"
#include "platform/soc_platform.h"
#include "sw/runtime/runtime.h"
#include "tests/support/systemc_test.h"

namespace gpusoc::rt::testing {

inline const std::string kKernelDir = GPUSOC_KERNEL_DIR;

// One platform per test case (SystemC allows one elaboration per kernel instance).
class Soc {
 public:
  /// `sets`: NAME=VALUE overrides of small.json.
  explicit Soc(const std::vector<std::string>& sets = {}) {
    gpusoc::testing::fresh_systemc();
    config_.load_file(std::string(GPUSOC_CONFIG_DIR) + "/small.json");
    for (const std::string& s : sets) config_.apply_set(s);
    platform_ = std::make_unique<platform::SocPlatform>(config_, stats_);
  }
  const StatGroup& stats() const { return stats_; }
  platform::SocPlatform& platform() { return *platform_; }
  /// Runs `body` with no device opened: it opens (and closes) its own.
  sc_core::sc_time run_host(const std::function<void(host::HostBus&)>& body) {
    return platform_->run(body);
  }
  template <typename T>
  T param(const char* name) const {
    return config_.value(name).get<T>();
  }
  /// Runs `body` with the device opened; returns the simulated time the program took.
  sc_core::sc_time run(const std::function<void(Device&, host::HostBus&)>& body,
                       const RuntimeOptions& options = {}) {
    return platform_->run([&](host::HostBus& bus) {
      Device device(bus, options);
      body(device, bus);
    });
  }

 private:
  Config config_;
  StatGroup stats_;
  std::unique_ptr<platform::SocPlatform> platform_;
};

template <typename Fn>
void expect_error(Status status, const std::string& fragment, Fn&& fn) {
  try {
    fn();
    ADD_FAILURE() << "expected " << status_name(status) << " containing '" << fragment << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.what();
  }
}

inline std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

inline uint32_t blocks_for(uint64_t n, uint32_t block) {
  return uint32_t((n + block - 1) / block);
}

// vector_add(a, b, c, n) on the default stream, checked against the CPU (one rounding each).
inline void run_vector_add(Device& dev, const Module& m, size_t n, uint32_t seed) {
  const auto a = random_floats(n, seed), b = random_floats(n, seed + 1);
  auto da = dev.alloc<float>(n), db = dev.alloc<float>(n), dc = dev.alloc<float>(n);
  da.upload(a);
  db.upload(b);
  dev.launch(m.kernel("vector_add"), {blocks_for(n, 256), 256}, da, db, dc, int32_t(n));
  const auto c = dc.download();
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
  EXPECT_EQ(wrong, 0u) << "of " << n << " elements";
}

}  // namespace gpusoc::rt::testing
