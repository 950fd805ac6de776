// `gpusoc run APP`: runs a program of the kernel suite on the functional core, checks its
// results against the CPU, and exits 0 only when they match. (The SoC issue moves apps onto
// the simulated host.)
#include <fmt/format.h>

#include <iostream>

#include "models/common/error.h"
#include "models/common/logging.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/common/stats_report.h"
#include "models/ptx/inst.h"
#include "platform/command.h"
#include "platform/gpu_spec.h"
#include "sw/apps/suite.h"

namespace gpusoc::platform {
namespace {

struct FunctionalStats : StatGroup {
  explicit FunctionalStats(StatGroup& parent) : StatGroup(parent, "functional") {}
  Counter warp_instructions{*this, "warp_instructions", "instructions", "warp instructions issued"};
  Counter thread_instructions{*this, "thread_instructions", "instructions",
                              "instructions summed over the threads that executed them"};
  Counter ctas{*this, "ctas", "CTAs", "CTAs run"};
  Formula simd_efficiency{
      *this, "simd_efficiency", "ratio",
      "thread instructions per warp instruction, over the warp size", [this] {
        return warp_instructions.value()
                   ? double(thread_instructions.value()) /
                         (double(ptx::kWarpSize) * double(warp_instructions.value()))
                   : 0.0;
      }};
};

ptx::DeviceOptions device_options(const GpuSpec& spec) {
  ptx::DeviceOptions o;
  o.num_sms = spec.total_sms();
  o.max_threads_per_cta = spec.sm.max_threads_per_cta;
  o.max_shared_bytes_per_cta = spec.sm.max_shared_per_cta;
  o.stack_bytes_per_thread = spec.sm.stack_bytes_per_thread;
  o.device_memory_bytes = spec.memory.capacity_bytes;
  // Device printf goes through the host log, one line per printf.
  o.printf_sink = [log = logger("gpu.printf")](const std::string& text) {
    log->info("{}", text.size() && text.back() == '\n' ? text.substr(0, text.size() - 1) : text);
  };
  return o;
}

int run(const CommandContext& ctx) {
  const apps::SuiteApp* app = apps::find_suite_app(ctx.args[0]);
  if (!app) {
    std::string names;
    for (const auto& a : apps::suite_apps()) names += (names.empty() ? "" : ", ") + a.name;
    throw UsageError("unknown app '" + ctx.args[0] + "' (apps: " + names + ")");
  }
  uint64_t size = app->default_size;
  if (auto s = ctx.options.get("size")) {
    try {
      size_t used = 0;
      size = std::stoull(*s, &used);
      if (used != s->size() || size == 0) throw std::invalid_argument(*s);
    } catch (const std::exception&) {
      throw UsageError("--size '" + *s + "': expected a positive integer");
    }
  }
  const GpuSpec spec = GpuSpec::from_config(ctx.config);
  if (spec.sm.warp_size != 32) {
    throw UsageError(fmt::format("sm.warp_size is {}: the functional core runs 32-thread warps",
                                 spec.sm.warp_size));
  }
  ptx::FunctionalDevice device(device_options(spec));
  const apps::RunResult result = app->run(device, size);
  StatGroup gpu(ctx.stats, "gpu");
  FunctionalStats stats(gpu);
  stats.warp_instructions += result.stats.warp_instructions;
  stats.thread_instructions += result.stats.thread_instructions;
  stats.ctas += result.stats.ctas;
  std::cout << stats_summary(ctx.stats) << result.summary << "\n"
            << (result.verified ? "PASSED" : "FAILED") << ": " << app->name << "\n";
  ctx.write_stats();
  return result.verified ? 0 : 1;
}

std::string app_list() {
  std::string s = "run a suite app and check it against the CPU; apps:";
  for (const auto& a : apps::suite_apps()) s += " " + a.name;
  return s;
}

const CommandRegistration kRun{
    Command("run", app_list(), run)
        .args("APP", 1, 1)
        .option({"size", "N", "problem size (elements, or matrix order)"})};

}  // namespace
}  // namespace gpusoc::platform
