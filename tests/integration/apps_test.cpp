// Every app of the suite through the whole SoC, with loosely timed and with cycle-level SMs: it
// verifies against its CPU reference, runs the same instructions as on the bare functional core
// (same kernels, same inputs), and two runs of the same simulation give bit-identical statistics;
// under memcheck it runs clean.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/mem_packet.h"
#include "models/common/stat_group.h"
#include "models/common/stats_report.h"
#include "platform/soc_platform.h"
#include "sw/apps/apps.h"
#include "sw/apps/functional_app_device.h"
#include "sw/apps/soc_app_device.h"
#include "tests/support/systemc_test.h"

namespace gpusoc::apps {
namespace {

uint64_t small_size(const App& app) {
  return app.size.meaning == "matrix order N" ? 48 : std::min<uint64_t>(app.default_size, 5000);
}

struct SocRun {
  AppResult result;
  AppStats stats;
  std::string statistics;  // the platform's whole statistics tree, as JSON
  double simulated_s = 0;
};

// `options` null: the runtime's defaults, made once the time resolution is set (an sc_time made
// before that counts in the units of the resolution it was made at).
SocRun run_soc(const App& app, const std::string& sm_model, const rt::RuntimeOptions* given,
               double resolution_ps) {
  testing::fresh_systemc();
  sc_core::sc_set_time_resolution(resolution_ps, sc_core::SC_PS);
  const rt::RuntimeOptions defaults;
  const rt::RuntimeOptions& options = given ? *given : defaults;
  Config config;
  config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/small.json");
  config.apply_set("platform.check_tlm_protocol=true");
  config.apply_set("sm.model=" + sm_model);
  if (app.needs_independent_threads) config.apply_set("sm.simt_model=independent");
  StatGroup root;
  SocRun run;
  {
    platform::SocPlatform soc(config, root);
    run.simulated_s = soc.run([&](host::HostBus& bus) {
                           rt::Device runtime(bus, options);
                           SocAppDevice device(runtime);
                           run.result = app.run(device, small_size(app));
                           run.stats = device.stats();
                         })
                          .to_seconds();
    run.statistics = stats_to_json(root).dump();
    // Host: 6 bindings; link: 3; GPU: BAR0/BAR1, 2 copy engines x 3, channels x 3, the memory
    // checker's registers, 2 SMs, the memory system's data path to device memory, and the TPC's
    // texture unit (one binding per SM, one to memory).
    EXPECT_EQ(soc.protocol_checkers(), 6u + 3 + 2 + 6 + 3 + 1 + 2 + 1 + 3);
    EXPECT_EQ(soc.protocol_violations(), 0u);
  }
  return run;
}

SocRun run_on_soc(const App& app, const std::string& sm_model,
                  const rt::RuntimeOptions& options = {}) {
  return run_soc(app, sm_model, &options, 1);
}

class AppOnSoc : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// A virtual platform may run SystemC at 1 ns, or at anything down to 1 fs: the SMs, texture
// units and memory system keep picosecond clocks of their own and round only where they meet
// SystemC time, up to the resolution. So an app gives the same answers and instructions. Its
// kernel time moves, as every hand-off through SystemC time (a wait, a returned delay, an event)
// lands on the resolution's grid and the schedules shift with it, much as they do when anything
// else moves the phase of a run's events against refresh and arbitration. That sensitivity is
// the reference: at 1 ps, the host's copy bandwidth nudged by 0.1% to 0.6% shifts the kernel's
// start; the kernel times at 1 ns and 1 fs must lie within the spread of those runs, widened by
// the spread again on each side (a few runs underestimate it) or by 0.5% where it is smaller.
// Measured: a tiny kernel (vecadd, 20 CTAs) spreads by 12% on loosely timed SMs and 1.3% on
// cycle-level ones, the longer ones by 0-0.7%; 1 ns moves them by 0.02-5%, 1 fs by 0-2.6%
// (docs/embedding.md).
TEST(AppOnSocTimeResolution, OneNanosecondAndOneFemtosecondStayWithinThePhaseSpread) {
  for (const char* name : {"vecadd", "reduce_shared", "texture_sampling", "atomics"}) {
    for (const char* sm_model : {"lt", "cycle"}) {
      SCOPED_TRACE(std::string(name) + " on " + sm_model + " SMs");
      const App& app = *find_app(name);
      testing::fresh_systemc();  // the options' times count in picoseconds
      sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
      rt::RuntimeOptions options;
      const double gbytes_per_s = options.host_copy_gbytes_per_s;
      const SocRun ps = run_soc(app, sm_model, &options, 1);
      ASSERT_TRUE(ps.result.verified) << ps.result.summary;
      double lo = ps.stats.kernel_ns, hi = lo;
      for (const double nudge : {0.999, 0.998, 0.997, 0.996, 0.995, 0.994}) {
        options.host_copy_gbytes_per_s = gbytes_per_s * nudge;
        const double t = run_soc(app, sm_model, &options, 1).stats.kernel_ns;
        lo = std::min(lo, t);
        hi = std::max(hi, t);
      }
      const double margin = std::max(hi - lo, 0.005 * ps.stats.kernel_ns);
      for (const double resolution_ps : {1000.0, 0.001}) {
        const SocRun other = run_soc(app, sm_model, nullptr, resolution_ps);
        ASSERT_TRUE(other.result.verified) << other.result.summary;
        EXPECT_EQ(other.result.summary, ps.result.summary);
        if (!app.order_dependent_counts) {
          EXPECT_EQ(other.stats.warp_instructions, ps.stats.warp_instructions);
        }
        std::printf(
            "[resolution] %s on %s SMs at %g ps: kernel %.1f ns; at 1 ps %.1f ns, "
            "phase spread %.1f-%.1f ns (%.2f%%)\n",
            name, sm_model, resolution_ps, other.stats.kernel_ns, ps.stats.kernel_ns, lo, hi,
            100 * (hi - lo) / ps.stats.kernel_ns);
        EXPECT_GE(other.stats.kernel_ns, lo - margin) << "at " << resolution_ps << " ps";
        EXPECT_LE(other.stats.kernel_ns, hi + margin) << "at " << resolution_ps << " ps";
      }
    }
  }
}

TEST_P(AppOnSoc, VerifiesMatchesTheCoreAndRepeatsExactly) {
  const App& app = *find_app(std::get<0>(GetParam()));
  const std::string& sm_model = std::get<1>(GetParam());
  const SocRun first = run_on_soc(app, sm_model);
  ASSERT_TRUE(first.result.verified) << first.result.summary;
  EXPECT_GT(first.stats.kernel_ns, 0);
  EXPECT_GT(first.stats.copy_ns, 0);
  EXPECT_GT(first.stats.achieved_occupancy(), 0);
  EXPECT_LE(first.stats.achieved_occupancy(), 1.0);

  const SocRun second = run_on_soc(app, sm_model);
  EXPECT_EQ(first.statistics, second.statistics) << "statistics differ between two runs";
  EXPECT_EQ(first.simulated_s, second.simulated_s);
  EXPECT_EQ(first.result.summary, second.result.summary);

  if (app.needs_soc) return;
  ptx::DeviceOptions options;
  if (app.needs_independent_threads) options.simt_model = ptx::make_simt_model("independent");
  options.memcheck = options.racecheck = true;  // which find nothing wrong with the suite
  FunctionalAppDevice core(options);
  const AppResult reference = app.run(core, small_size(app));
  EXPECT_EQ(first.result.summary, reference.summary) << "the computed values differ";
  // Kernels that race through atomics (CAS retry loops, work claimed by atomicCAS) run as many
  // instructions as their interleaving makes them; the SMs interleave warps differently.
  if (!app.order_dependent_counts) {
    EXPECT_EQ(first.stats.warp_instructions, core.stats().warp_instructions);
    EXPECT_EQ(first.stats.thread_instructions, core.stats().thread_instructions);
  }
  EXPECT_EQ(first.stats.ctas, core.stats().ctas);
}

// The value of the statistic named `name` anywhere in the statistics tree (-1: none).
double find_stat(const nlohmann::json& node, const std::string& name) {
  if (!node.is_object()) return -1;
  for (const auto& [key, value] : node.items()) {
    if (key == name && value.is_number()) return value.get<double>();
    if (key == name && value.is_object() && value.contains("value")) return value["value"];
    const double inside = find_stat(value, name);
    if (inside >= 0) return inside;
  }
  return -1;
}

// The sum over every partition's ROP group ("rop") of element `label` of vector `stat`.
double rop_sum(const nlohmann::json& node, const std::string& stat, const std::string& label) {
  double sum = 0;
  for (const auto& [key, value] : node.items()) {
    if (!value.is_object()) continue;
    if (key == "rop" && value.contains(stat))
      sum += value[stat]["value"][label].get<double>();
    else
      sum += rop_sum(value, stat, label);
  }
  return sum;
}

// The ROPs count each kind of global atomic the SMs send: with cycle-level SMs, the atomics app
// makes the ROPs execute exactly the operations its PTX holds (atom.global.* and red.global.*,
// read here from the PTX itself), each at least once, and no others.
TEST(AppOnSocRop, CountsExactlyTheAtomicOperationsTheKernelUses) {
  std::ifstream file(std::string(GPUSOC_KERNEL_DIR) + "/atomics.ptx");
  std::stringstream ptx;
  ptx << file.rdbuf();
  std::set<std::string> used;
  const std::string text = ptx.str();
  const std::regex atomic(R"(\b(?:atom|red)\.global(?:\.(?:cta|gpu|sys))?\.([a-z]+)\.)");
  for (std::sregex_iterator m(text.begin(), text.end(), atomic), end; m != end; ++m)
    used.insert((*m)[1]);
  ASSERT_GE(used.size(), 8u) << "atomics.ptx should use most operations";

  const SocRun run = run_on_soc(*find_app("atomics"), "cycle");
  ASSERT_TRUE(run.result.verified) << run.result.summary;
  const nlohmann::json stats = nlohmann::json::parse(run.statistics);
  ASSERT_EQ(rop_sum(stats, "operations", "total"), find_stat(stats, "rop_operations"));
  double sum = 0;
  for (const char* op : kAtomicOpNames) {
    const double n = rop_sum(stats, "operations", op);
    EXPECT_EQ(n > 0, used.count(op) == 1) << op << ": " << n << " operations";
    sum += n;
  }
  EXPECT_EQ(sum, find_stat(stats, "rop_operations"));
  EXPECT_GT(find_stat(stats, "rop_serialized"), 0) << "counters shared by a whole grid contend";
  EXPECT_EQ(rop_sum(stats, "serialized", "total"), find_stat(stats, "rop_serialized"));
}

// The suite under the SoC's memcheck (the runtime's debug configuration) and racecheck: no false
// reports, and the same results and instructions as without them.
class AppUnderMemcheck : public ::testing::TestWithParam<std::string> {};

TEST_P(AppUnderMemcheck, RunsCleanUnderMemcheckAndRacecheckWithTheSameResults) {
  const App& app = *find_app(GetParam());
  rt::RuntimeOptions options = rt::RuntimeOptions::debug();
  options.racecheck = true;
  const SocRun checked = run_on_soc(app, "lt", options);
  ASSERT_TRUE(checked.result.verified) << checked.result.summary;
  const SocRun plain = run_on_soc(app, "lt");
  EXPECT_EQ(checked.result.summary, plain.result.summary);
  if (!app.order_dependent_counts) {
    EXPECT_EQ(checked.stats.warp_instructions, plain.stats.warp_instructions);
  }
}

std::vector<std::string> app_names() {
  std::vector<std::string> names;
  for (const App& a : all_apps()) names.push_back(a.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Suite, AppOnSoc,
                         ::testing::Combine(::testing::ValuesIn(app_names()),
                                            ::testing::Values("lt", "cycle")),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

INSTANTIATE_TEST_SUITE_P(Suite, AppUnderMemcheck, ::testing::ValuesIn(app_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace gpusoc::apps
