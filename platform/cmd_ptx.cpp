// `gpusoc ptx check FILE...`: parse and load PTX modules the way a launch would, reporting every
// problem (syntax, unsupported instruction, undefined label or symbol) with file, line and column.
// `gpusoc ptx info FILE`: what each kernel of a module needs (registers and where the count came
// from, shared and local memory, parameters) and how many of its CTAs an SM of the configured GPU
// holds.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/common/error.h"
#include "models/common/kernel_names.h"
#include "models/gigathread/sm_occupancy.h"
#include "models/ptx/device.h"
#include "models/ptx/diagnostics.h"
#include "models/ptx/launch.h"
#include "models/ptx/program.h"
#include "platform/command.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"
#include "platform/launch_options.h"

namespace gpusoc::platform {
namespace {

int check(const CommandContext& ctx) {
  int failed = 0;
  for (const std::string& file : ctx.args) {
    ptx::FunctionalDevice device;  // a fresh device each time: modules place their variables
    try {
      const ptx::Module m = device.load_module_file(file);
      const auto kernels = m.kernel_names();
      std::cout << file << ": ok (" << kernels.size() << " kernel"
                << (kernels.size() == 1 ? "" : "s");
      for (size_t i = 0; i < kernels.size(); ++i) std::cout << (i ? ", " : ": ") << kernels[i];
      std::cout << ")\n";
    } catch (const ptx::ModuleLoadError& e) {
      ++failed;
      for (const ptx::Diagnostic& d : e.diagnostics()) std::cerr << d.to_string() << "\n";
      std::cerr << file << ": " << e.diagnostics().size() << " problem"
                << (e.diagnostics().size() == 1 ? "" : "s") << "\n";
    }
  }
  return failed ? 1 : 0;
}

// What one kernel needs, and how it fits an SM, as JSON (the table is printed from it).
nlohmann::ordered_json describe(const ptx::Program& program, const ptx::Function& k,
                                const gigathread::SmLimits& limits, const CommandContext& ctx) {
  const auto* dims = k.reqntid[0] ? k.reqntid : k.maxntid;
  Dim3 block = dims[0] ? Dim3(dims[0], std::max(1u, dims[1]), std::max(1u, dims[2])) : Dim3(256);
  if (auto b = ctx.options.get("block")) block = parse_dim3("block", *b, kMaxBlock);
  const uint32_t dynamic =
      uint32_t(parse_bytes("shared", ctx.options.get("shared").value_or("0"), 1u << 30));
  const gigathread::CtaNeeds needs = gigathread::cta_needs(
      limits, k.registers_per_thread, block.count(),
      ptx::reserved_shared_begin(k, dynamic, limits.reserved_shared_per_cta));
  const gigathread::CtaFit fit = gigathread::ctas_per_sm(limits, needs);
  const uint32_t warps = uint32_t((block.count() + ptx::kWarpSize - 1) / ptx::kWarpSize);
  nlohmann::ordered_json j;
  j["name"] = k.name;
  j["signature"] = demangle(k.name);
  j["registers"] = k.registers_per_thread;
  j["register_source"] = ptx::to_string(k.register_source);
  j["static_shared_bytes"] = k.static_shared_bytes;
  j["dynamic_shared"] = program.declares_dynamic_shared;
  j["local_bytes_per_thread"] = k.depot_bytes + program.module_local_bytes;
  j["param_bytes"] = k.param_buffer_bytes;
  std::vector<uint32_t> params;
  for (const ptx::ParamSlot& p : k.params) params.push_back(p.size);
  j["param_sizes"] = params;
  j["block"] = {block.x, block.y, block.z};
  j["dynamic_shared_bytes"] = dynamic;
  j["ctas_per_sm"] = fit.ctas;
  j["warps_per_sm"] = fit.ctas * warps;
  j["max_warps_per_sm"] = limits.max_threads / ptx::kWarpSize;
  j["limited_by"] = fit.limiting;
  if (block.count() > limits.max_threads_per_cta)
    j["refused"] = fmt::format("a block of {} threads exceeds the configuration's {} per CTA",
                               block.count(), limits.max_threads_per_cta);
  return j;
}

void print_table(const nlohmann::ordered_json& j) {
  std::cout << j["file"].get<std::string>() << ": " << j["kernels"].size() << " kernel"
            << (j["kernels"].size() == 1 ? "" : "s") << "; an SM has " << j["sm"].get<std::string>()
            << "\n";
  for (const auto& k : j["kernels"]) {
    const std::string name = k["name"], signature = k["signature"];
    std::cout << name << (signature != name ? "  (" + signature + ")" : "") << "\n";
    std::cout << fmt::format("  registers      {} per thread ({})\n", k["registers"].get<int>(),
                             k["register_source"].get<std::string>());
    std::cout << fmt::format("  shared memory  {} bytes static; {}\n",
                             k["static_shared_bytes"].get<int>(),
                             k["dynamic_shared"].get<bool>()
                                 ? "dynamic (extern .shared) sized at launch"
                                 : "no dynamic");
    std::cout << fmt::format("  local memory   {} bytes per thread\n",
                             k["local_bytes_per_thread"].get<int>());
    std::cout << fmt::format("  parameters     {} bytes ({})\n", k["param_bytes"].get<int>(),
                             fmt::join(k["param_sizes"].get<std::vector<int>>(), ", "));
    const auto& b = k["block"];
    std::cout << fmt::format(
        "  per SM         {} CTA{} of {}x{}x{} threads with {} bytes of dynamic shared memory: {} "
        "of {} warps; limited by {}\n",
        k["ctas_per_sm"].get<int>(), k["ctas_per_sm"].get<int>() == 1 ? "" : "s", b[0].get<int>(),
        b[1].get<int>(), b[2].get<int>(),
        k["dynamic_shared_bytes"].get<int>(), k["warps_per_sm"].get<int>(),
        k["max_warps_per_sm"].get<int>(), k["limited_by"].get<std::string>());
    if (k.contains("refused"))
      std::cout << "  refused        " << k["refused"].get<std::string>() << "\n";
  }
}

int info(const CommandContext& ctx) {
  const std::string& file = ctx.args[0];
  ptx::FunctionalDevice device(functional_device_options(ctx.config));
  ptx::Module m = [&] {
    try {
      return device.load_module_file(file, ctx.options.get("resources").value_or(""));
    } catch (const ptx::ModuleLoadError& e) {
      throw Error(e.what());
    }
  }();
  const GpuSpec spec = GpuSpec::from_config(ctx.config);
  const gigathread::SmLimits limits = sm_limits(spec);
  nlohmann::ordered_json j;
  j["file"] = file;
  j["resource_file"] = m.program().resource_file;
  j["sm"] = fmt::format("{} registers, {} threads, {} CTAs, {} bytes of shared memory",
                        limits.registers, limits.max_threads, limits.max_ctas,
                        limits.shared_memory_bytes);
  j["kernels"] = nlohmann::ordered_json::array();
  for (const std::string& name : m.kernel_names())
    j["kernels"].push_back(describe(m.program(), m.kernel(name).function(), limits, ctx));
  if (ctx.options.has("json")) {
    std::cout << j.dump(2) << "\n";
  } else {
    print_table(j);
  }
  return 0;
}

const CommandRegistration kCheck{
    Command("ptx check", "parse and load PTX files, reporting every unsupported or invalid line",
            check)
        .args("FILE...", 1)};

const CommandRegistration kInfo{
    Command("ptx info",
            "what each kernel of a PTX module needs (registers and their source, shared, local "
            "and parameter memory) and how many of its CTAs an SM of the configuration holds",
            info)
        .args("FILE", 1, 1)
        .option({"block", "X[,Y,Z]", "block size for the occupancy (default: the kernel's "
                                     "launch bounds, else 256)"})
        .option({"shared", "BYTES", "dynamic shared memory per CTA for the occupancy"})
        .option({"resources", "FILE", "ptxas -v output for the module (default: NAME.ptxas "
                                      "beside it, when there is one)"})
        .option({"json", "", "JSON instead of a table"})};

}  // namespace
}  // namespace gpusoc::platform
