// `gpusoc run APP`: runs a host program of the suite on the simulated host, which drives the GPU
// SoC through the runtime (or, with --functional, on the bare PTX core), checks the results
// against the CPU, prints what the run cost in simulated time, and exits 0 only when the results
// matched. `gpusoc list` names the apps.
#include <fmt/format.h>

#include <deque>
#include <iostream>

#include "models/common/error.h"
#include "models/common/logging.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/common/stats_report.h"
#include "platform/command.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"
#include "platform/launch_options.h"
#include "platform/mem_trace_option.h"
#include "platform/number_text.h"
#include "platform/run_summary.h"
#include "platform/soc_platform.h"
#include "platform/timeline_option.h"
#include "sw/apps/apps.h"
#include "sw/apps/functional_app_device.h"
#include "sw/apps/soc_app_device.h"

namespace gpusoc::platform {
namespace {

const apps::App& find(const std::string& name) {
  if (const apps::App* app = apps::find_app(name)) return *app;
  std::string names;
  for (const auto& a : apps::all_apps()) names += (names.empty() ? "" : ", ") + a.name;
  throw UsageError("unknown app '" + name + "' (apps: " + names + "; see gpusoc list)");
}

// The size from --size, or from the app's own arguments after "--" ("--size N" or "N"), within
// the app's range.
uint64_t app_size(const CommandContext& ctx, const apps::App& app) {
  const auto parse = [&](const std::string& text) {
    return integer_option(app.name + " --size", text, app.size.min, app.size.max);
  };
  uint64_t size = app.default_size;
  if (auto s = ctx.options.get("size")) size = parse(*s);
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    const std::string& a = ctx.args[i];
    if (a == "--size" && i + 1 < ctx.args.size()) {
      size = parse(ctx.args[++i]);
    } else if (a.rfind("--size=", 0) == 0) {
      size = parse(a.substr(7));
    } else if (i == 1 && a.rfind("--", 0) != 0) {
      size = parse(a);
    } else {
      throw UsageError(fmt::format("{}: unknown app argument '{}' (apps take --size N, the {})",
                                   app.name, a, app.size.meaning));
    }
  }
  return size;
}

void report(const apps::App& app, const char* backend, const apps::AppResult& result,
            const apps::AppStats& s, const CommandContext& ctx) {
  const Config& config = ctx.config;
  if (std::string(backend) == "soc")
    std::cout << fmt::format("{} on the SoC; SMs {}\n", app.name, sm_summary(config));
  else
    std::cout << fmt::format("{} on the functional PTX core\n", app.name);
  std::cout << fmt::format(
      "  kernels  {} launches, {} CTAs, {} warp instructions ({} thread instructions)\n",
      s.launches, s.ctas, s.warp_instructions, s.thread_instructions);
  if (std::string(backend) == "soc") {
    std::cout << fmt::format("           {:.3f} ms simulated, achieved occupancy {:.1f}%\n",
                             s.kernel_ns / 1e6, 100 * s.achieved_occupancy());
    const uint64_t bytes = s.h2d_bytes + s.d2h_bytes;
    std::cout << fmt::format(
        "  copies   {:.2f} MB to the device, {:.2f} MB back, {:.3f} ms simulated: {:.2f} GB/s "
        "over PCIe\n",
        s.h2d_bytes / 1e6, s.d2h_bytes / 1e6, s.copy_ns / 1e6,
        s.copy_ns > 0 ? double(bytes) / s.copy_ns : 0.0);
    std::cout << run_summary(stats_values_json(ctx.stats),
                             {s.kernel_ns, GpuSpec::from_config(config).peak_dram_gbytes_per_s()});
  }
  for (const std::string& note : result.notes) std::cout << "  " << note << "\n";
  for (const apps::Figure& f : result.figures)
    std::cout << fmt::format("  figure {:<24} {:12.4f} {:<12} {}\n", f.name, f.value, f.unit,
                             f.description);
  std::cout << "  " << result.summary << "\n"
            << (result.verified ? "PASSED" : "FAILED") << ": " << app.name << "\n";
}

// The app's figures as statistics (app.figures.NAME, with unit and description), so --stats-out
// carries them beside the model's.
struct FigureStats : StatGroup {
  FigureStats(StatGroup& root, const std::vector<apps::Figure>& figures)
      : StatGroup(root, "app"), group(*this, "figures") {
    for (const apps::Figure& f : figures) {
      stats.emplace_back(group, f.name, f.unit, f.description);
      stats.back().set(f.value);
    }
  }
  StatGroup group;
  std::deque<Scalar> stats;
};

// Reports the run, writes the statistics with the app's figures, and gives the exit status.
int finish(const CommandContext& ctx, const apps::App& app, const char* backend,
           const apps::AppResult& result, const apps::AppStats& stats) {
  report(app, backend, result, stats, ctx);
  const FigureStats figures(ctx.stats, result.figures);
  ctx.write_stats();
  return result.verified ? 0 : 1;
}

int run(const CommandContext& ctx) {
  const apps::App& app = find(ctx.args[0]);
  const uint64_t size = app_size(ctx, app);
  apps::AppResult result;
  if (ctx.options.has("functional")) {
    if (app.needs_soc) throw UsageError(app.name + " uses streams and events: it needs the SoC");
    apps::FunctionalAppDevice device(
        with_checking(functional_device_options(ctx.config), ctx.options));
    result = app.run(device, size);
    return finish(ctx, app, device.backend(), result, device.stats());
  }
  SocPlatform soc(ctx.config, ctx.stats);
  const auto trace = start_mem_trace(ctx, soc.gpu());
  TimelineRecording timeline(ctx);
  apps::AppStats stats;
  soc.run([&](host::HostBus& bus) {
    rt::Device runtime(bus, with_checking(rt::RuntimeOptions{}, ctx.options));
    apps::SocAppDevice device(runtime);
    result = app.run(device, size);
    stats = device.stats();
  });
  finish_mem_trace(soc.gpu(), trace.get());
  timeline.finish();
  return finish(ctx, app, "soc", result, stats);
}

int list(const CommandContext&) {
  for (const apps::App& a : apps::all_apps()) {
    std::cout << fmt::format("{:<16} {} (size: {}, default {}, {} to {}){}\n", a.name,
                             a.description, a.size.meaning, a.default_size, a.size.min, a.size.max,
                             a.needs_soc ? " [SoC only]" : "");
  }
  return 0;
}

const CommandRegistration kRun{with_checking_options(
    Command("run",
            "run an app of the suite on the simulated host and GPU, check it against the CPU "
            "(exit 0 only then); gpusoc list names the apps",
            run)
        .args("APP [-- --size N]", 1)
        .option({"size", "N", "problem size (elements, or matrix order)"})
        .option({"functional", "", "run on the bare functional PTX core instead of the SoC"})
        .option(mem_trace_option())
        .option(timeline_option()))};

const CommandRegistration kList{Command("list", "list the apps gpusoc run can run", list)};

}  // namespace
}  // namespace gpusoc::platform
