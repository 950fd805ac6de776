// Fuzz target: the bytes as a configuration file, loaded as `gpusoc --config FILE` loads one
// (Config::load_file, models/common/config.*), then "--set" assignments, then resolved into
// every block's configuration the way GpuSoc's constructor resolves them before it builds
// anything (platform/gpu_soc.cpp), and printed as `gpusoc config dump` prints it.
//
// Input: a JSON document, optionally followed by lines "@set NAME=VALUE" (the first line that
// starts with "@set " ends the document). Config reads files only: the document is written to
// a private directory that holds copies of configs/*.json, so that "include" of a shipped
// configuration resolves as it does there.
// Expected: gpusoc::Error (ConfigError naming the key and its origin).
#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/gigathread/cta_dispatcher.h"
#include "models/gigathread/gigathread_config.h"
#include "models/host/host_config.h"
#include "models/memsys/hierarchy_params.h"
#include "models/pcie/link_timing.h"
#include "models/pcie/pcie_config.h"
#include "models/ptx/address_space.h"
#include "models/ptx/device.h"
#include "models/sm/cycle_sm_config.h"
#include "models/sm/sm_timing.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

namespace fs = std::filesystem;
using namespace gpusoc;

fs::path make_work_dir() {
  std::string pattern = (fs::temp_directory_path() / "gpusoc-fuzz-config-XXXXXX").string();
  if (!mkdtemp(pattern.data())) fuzz::finding("config_loader", "harness: mkdtemp failed");
  const fs::path dir = pattern;
  for (const fs::directory_entry& e : fs::directory_iterator(GPUSOC_CONFIG_DIR)) {
    if (e.path().extension() == ".json") fs::copy_file(e.path(), dir / e.path().filename());
  }
  return dir;
}

const fs::path& work_dir() {
  static const fs::path dir = make_work_dir();
  static const bool cleanup = [] {
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(work_dir(), ignored);
    });
    return true;
  }();
  (void)cleanup;
  return dir;
}

// What GpuSoc's constructor and `gpusoc info` derive from a configuration, without building a
// model (SystemC elaborates once per process).
void resolve(const Config& config) {
  const platform::GpuSpec spec = platform::GpuSpec::from_config(config);
  (void)spec.peak_fp32_gflops();
  (void)spec.peak_fp64_gflops();
  (void)spec.peak_dram_gbytes_per_s();
  (void)platform::check_tlm_protocol(config);
  (void)platform::sm_summary(config);
  (void)platform::functional_device_options(config);
  (void)host::HostConfig::from_config(config);

  (void)platform::gigathread_config(spec, config);

  const pcie::PcieConfig link = pcie::PcieConfig::from_config(config);
  const pcie::LinkTiming timing(link.link);
  (void)timing.raw_bytes_per_ns();
  (void)timing.payload_bytes_per_ns(pcie::LinkTiming::kHeader3dw);

  gigathread::DispatcherConfig dispatch = gigathread::DispatcherConfig::from_config(config);
  dispatch.limits = platform::sm_limits(spec);
  if (config.value("memory.model").get<std::string>() == "hierarchy") {
    memsys::MemoryDescription described = platform::memory_description(spec, ptx::kGlobalBase);
    described.ports = spec.total_sms();
    const memsys::HierarchyConfig h = memsys::hierarchy_config_from(config, described);
    (void)memsys::peak_gbytes_per_s(h);
  }
  if (platform::sm_model(config) == "cycle") {
    (void)sm::CycleSmConfig::from_config(config);
  } else {
    (void)sm::LtSmTiming::from_config(config);
  }
  (void)config.to_json().dump(2);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSet = "@set ";
  size_t end = input.rfind(kSet, 0) == 0 ? 0 : input.find("\n" + std::string(kSet));
  if (end != std::string_view::npos && end != 0) ++end;  // keep the document's last newline
  const std::string_view document = input.substr(0, end);
  std::vector<std::string_view> sets;
  for (size_t at = end; at < input.size();) {
    size_t eol = input.find('\n', at);
    if (eol == std::string_view::npos) eol = input.size();
    const std::string_view line = input.substr(at, eol - at);
    if (line.rfind(kSet, 0) == 0) sets.push_back(line.substr(kSet.size()));
    at = eol + 1;
  }

  const fs::path file = work_dir() / "fuzz-input.json";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(document.data(), std::streamsize(document.size()));
    if (!out) fuzz::finding("config_loader", "harness: cannot write " + file.string());
  }
  try {
    Config config;
    config.load_file(file);
    for (std::string_view assignment : sets) config.apply_set(assignment);
    resolve(config);
  } catch (const Error& e) {
    fuzz::expected_error("config_loader", e);
  } catch (...) {
    fuzz::unexpected_exception("config_loader");
  }
  return 0;
}
