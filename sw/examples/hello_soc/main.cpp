// hello_soc: a host program of one's own on the gpusoc platform (docs/embedding.md). It builds the
// SoC from a configuration, opens the GPU through the runtime, runs scale.ptx and checks the
// result against the CPU; then runs the same launch on the bare functional core, with the same
// launch types (models/common/kernel_launch.h), and checks that both ran the same instructions.
// The exit status is 0 only when every element matches and the counts agree.
//
//   hello_soc [CONFIG.json] [NAME=VALUE ...]
// CONFIG.json defaults to gpusoc's configs/small.json; NAME=VALUE overrides a parameter.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/kernel_launch.h"
#include "models/common/stat_group.h"
#include "models/ptx/device.h"
#include "platform/soc_platform.h"
#include "sw/runtime/runtime.h"

using namespace gpusoc;

namespace {

void print_properties(const rt::DeviceProperties& p) {
  std::printf("device:  %s\n", p.name.c_str());
  std::printf("PCI:     %04x:%04x rev %02x, class %06x\n", unsigned(p.vendor_id),
              unsigned(p.device_id), unsigned(p.revision), p.class_code);
  std::printf("link:    PCIe gen %u x%u (capable of gen %u x%u)\n", p.pcie_generation,
              p.pcie_lanes, p.pcie_max_generation, p.pcie_max_lanes);
  std::printf("BAR0:    0x%" PRIx64 ", %" PRIu64 " KiB of registers\n", p.bar0_address,
              p.bar0_bytes >> 10);
  std::printf("BAR1:    0x%" PRIx64 ", %" PRIu64 " MiB VRAM aperture\n", p.bar1_address,
              p.bar1_bytes >> 20);
  std::printf("VRAM:    %" PRIu64 " MiB at 0x%" PRIx64 "\n", p.vram_bytes >> 20, p.vram_base);
  std::printf("engines: %u channels, %u copy engines, register map %u.%u\n", p.channels,
              p.copy_engines, p.register_map_version >> 16, p.register_map_version & 0xFFFF);
}

struct Outcome {
  uint32_t mismatches = 0;
  double kernel_ms = 0;
  LaunchStats stats;  // the launch's, as either device reports it
};

const float kFactor = 1.5f;

std::vector<float> inputs(uint32_t n) {
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i % 1000) * 0.37f - 100.0f;
  return x;
}

// n is not a multiple of the block: the kernel guards its tail.
LaunchConfig scale_config(uint32_t n, LaunchStats& stats) {
  return LaunchConfig{Dim3((n + 255) / 256), Dim3(256), 0, &stats};
}

// y = a * x against the same product on the CPU: one IEEE rounding each, so equal.
uint32_t mismatches(const std::vector<float>& x, const std::vector<float>& y) {
  uint32_t wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) wrong += y[i] != kFactor * x[i];
  return wrong;
}

// On the SoC, through the runtime: the statistics are there once the stream has synchronized.
Outcome run_scale(rt::Device& dev, uint32_t n) {
  rt::Module module = dev.load_module_file(HELLO_SOC_KERNEL);
  const rt::Kernel scale = module.kernel("scale");
  const std::vector<float> x = inputs(n);
  rt::DeviceBuffer<float> dx = dev.alloc<float>(n), dy = dev.alloc<float>(n);
  dx.upload(x);
  Outcome outcome;
  rt::Event start = dev.create_event(), stop = dev.create_event();
  rt::Stream& stream = dev.default_stream();
  stream.record(start);
  stream.launch(scale, scale_config(n, outcome.stats), dx, kFactor, dy, n);
  stream.record(stop);
  const std::vector<float> y = dy.download();  // synchronous: waits for the launch
  outcome.kernel_ms = rt::Event::elapsed_ms(start, stop);
  outcome.mismatches = mismatches(x, y);
  return outcome;
}

// On the bare functional core: the same kernel, launch configuration and arguments.
Outcome run_scale_functional(uint32_t n) {
  ptx::FunctionalDevice dev;
  const ptx::Module module = dev.load_module_file(HELLO_SOC_KERNEL);
  const std::vector<float> x = inputs(n);
  const ptx::DevicePtr dx = dev.upload(x), dy = dev.malloc(n * sizeof(float));
  Outcome outcome;
  dev.launch(module.kernel("scale"), scale_config(n, outcome.stats), dx, kFactor, dy, n);
  outcome.mismatches = mismatches(x, dev.download<float>(dy, n));
  return outcome;
}

}  // namespace

// libsystemc's main() calls sc_main; the platform elaborates and simulates inside it.
extern "C" int sc_main(int argc, char** argv) {
  std::string config_file = HELLO_SOC_CONFIG;
  std::vector<std::string> overrides;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.find('=') != std::string::npos)
      overrides.push_back(arg);
    else
      config_file = arg;
  }
  try {
    Config config;
    config.load_file(config_file);
    for (const std::string& o : overrides) config.apply_set(o);  // like gpusoc's --set
    StatGroup stats;
    platform::SocPlatform soc(config, stats);  // one per process: SystemC elaborates once

    const uint32_t n = 10000;
    Outcome outcome;
    const sc_core::sc_time end = soc.run([&](host::HostBus& bus) {
      rt::Device dev(bus);  // enumerates the PCI function, sets up the channels
      print_properties(dev.properties());
      outcome = run_scale(dev, n);
    });  // every runtime object is gone before the host program returns
    std::printf("scale:   %u elements, kernel %.3f us simulated (events), %.3f us (its "
                "statistics), %" PRIu64 " warp instructions, occupancy %.0f%%\n",
                n, outcome.kernel_ms * 1e3, outcome.stats.kernel_ns() / 1e3,
                outcome.stats.warp_instructions, 100 * outcome.stats.achieved_occupancy());
    std::printf("program: %.3f us simulated\n", end.to_seconds() * 1e6);
    const Outcome bare = run_scale_functional(n);
    std::printf("core:    %" PRIu64 " warp instructions on the bare functional core\n",
                bare.stats.warp_instructions);
    if (outcome.mismatches != 0 || bare.mismatches != 0) {
      std::printf("hello_soc: FAILED, %u (SoC) and %u (core) of %u elements differ from the CPU\n",
                  outcome.mismatches, bare.mismatches, n);
      return 1;
    }
    if (bare.stats.warp_instructions != outcome.stats.warp_instructions ||
        bare.stats.ctas != outcome.stats.ctas) {
      std::printf("hello_soc: FAILED, the SoC and the core ran different instructions\n");
      return 1;
    }
    std::printf("hello_soc: PASSED, %u elements match the CPU\n", n);
    return 0;
  } catch (const std::exception& e) {  // gpusoc::Error, rt::Error, SystemC reports
    std::fprintf(stderr, "hello_soc: %s\n", e.what());
    return 1;
  }
}
