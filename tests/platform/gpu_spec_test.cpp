// The GPU structure and clocks resolved from the shipped configurations, checked
// against NVIDIA's published GeForce 8800 GTX figures.
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "platform/gpu_spec.h"

namespace gpusoc::platform {
namespace {

using ::testing::HasSubstr;

const std::string kConfigDir = GPUSOC_CONFIG_DIR;

GpuSpec resolve(const std::string& file, const std::vector<std::string>& sets = {}) {
  Config config;
  if (!file.empty()) config.load_file(kConfigDir + "/" + file);
  for (const std::string& set : sets) config.apply_set(set);
  return GpuSpec::from_config(config);
}

std::string resolve_error(const std::vector<std::string>& sets) {
  try {
    resolve("tesla-8800gtx.json", sets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError";
  return "";
}

TEST(GpuSpecTest, GeForce8800GtxMatchesItsPublishedFigures) {
  const GpuSpec gtx = resolve("tesla-8800gtx.json");
  EXPECT_EQ(gtx.total_sms(), 16u);  // 8 TPCs x 2 SMs
  EXPECT_EQ(gtx.total_sp_cores(), 128u);
  EXPECT_EQ(gtx.sm.sfus, 2u);
  // 384-bit GDDR3 at 900 MHz, double data rate: 48 B x 1.8 GT/s.
  EXPECT_DOUBLE_EQ(gtx.peak_dram_gbytes_per_s(), 86.4);
  // 128 SPs x 2 flops (multiply-add) x 1.35 GHz. NVIDIA's 518 GFLOP/s also counts the
  // MUL that the SFU can co-issue (3 flops per SP per clock), which we do not model.
  EXPECT_DOUBLE_EQ(gtx.peak_fp32_gflops(), 345.6);
  EXPECT_EQ(gtx.clock.core_mhz, 575.0);
  EXPECT_EQ(gtx.sm.warp_size, 32u);
  EXPECT_EQ(gtx.sm.max_threads, 768u);
  EXPECT_EQ(gtx.sm.max_ctas, 8u);
  EXPECT_EQ(gtx.sm.registers, 8192u);
  EXPECT_EQ(gtx.sm.shared_memory_bytes, 16u * 1024);
  EXPECT_EQ(gtx.sm.max_threads_per_cta, 512u);
  EXPECT_EQ(gtx.memory.partitions, 6u);
  EXPECT_EQ(gtx.memory.bus_width_bits, 64u);
  EXPECT_EQ(gtx.memory.type, "GDDR3");
  EXPECT_EQ(gtx.memory.capacity_bytes, 768ull << 20);
}

TEST(GpuSpecTest, SmallConfigurationHasTwoSms) {
  const GpuSpec small = resolve("small.json");
  EXPECT_EQ(small.gpu.gpcs, 1u);
  EXPECT_EQ(small.gpu.tpcs_per_gpc, 1u);
  EXPECT_EQ(small.gpu.sms_per_tpc, 2u);
  EXPECT_EQ(small.total_sms(), 2u);
  EXPECT_EQ(small.total_sp_cores(), 16u);
  EXPECT_EQ(small.memory.partitions, 2u);
  EXPECT_DOUBLE_EQ(small.peak_dram_gbytes_per_s(), 28.8);
  EXPECT_EQ(small.sm.max_threads, 768u) << "the SM itself is the 8800 GTX's";
}

TEST(GpuSpecTest, DefaultsAreTheGeForce8800Gtx) {
  const GpuSpec defaults = resolve("");
  const GpuSpec gtx = resolve("tesla-8800gtx.json");
  EXPECT_EQ(defaults.total_sms(), gtx.total_sms());
  EXPECT_EQ(defaults.peak_fp32_gflops(), gtx.peak_fp32_gflops());
  EXPECT_EQ(defaults.peak_dram_gbytes_per_s(), gtx.peak_dram_gbytes_per_s());
  EXPECT_EQ(defaults.memory.capacity_bytes, gtx.memory.capacity_bytes);
  EXPECT_EQ(defaults.sm.stack_bytes_per_thread, gtx.sm.stack_bytes_per_thread);
}

TEST(GpuSpecTest, MemoryTypeIsChosenByName) {
  EXPECT_EQ(resolve("small.json", {"memory.type=HBM2"}).memory.type, "HBM2");
  EXPECT_EQ(resolve("small.json", {"memory.type=HBM2-2430"}).memory.type, "HBM2-2430");
}

TEST(GpuSpecTest, ACtaMustFitInAnSm) {
  EXPECT_EQ(resolve_error({"sm.max_threads_per_cta=1024"}),
            "--set: sm.max_threads_per_cta = 1024 exceeds sm.max_threads = 768 (from " +
                kConfigDir + "/tesla-8800gtx.json)");
  EXPECT_THAT(resolve_error({"sm.max_shared_per_cta=32768"}),
              HasSubstr("sm.max_shared_per_cta = 32768 exceeds sm.shared_memory_bytes = 16384"));
}

TEST(GpuSpecTest, ResidentThreadsAreWholeWarps) {
  EXPECT_THAT(resolve_error({"sm.max_threads=770"}),
              HasSubstr("--set: sm.max_threads = 770 is not a multiple of sm.warp_size = 32"));
}

// The files in configs/ describe hardware; how faithfully it is simulated is the user's choice
// on the command line, so that a V100 run is never silently the slow cycle-level model.
TEST(GpuSpecTest, ConfigurationFilesLeaveTheFidelityAtItsDefault) {
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kConfigDir)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    Config config;
    config.load_file(entry.path());
    for (const char* fidelity : {"sm.model", "memory.model"})
      EXPECT_EQ(config.origin(fidelity), "default") << entry.path() << " sets " << fidelity;
  }
  EXPECT_GE(files, 3u);
}

}  // namespace
}  // namespace gpusoc::platform
