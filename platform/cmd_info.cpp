// `gpusoc info`: what a configuration adds up to: peak FP32 and FP64 throughput, DRAM and PCIe
// bandwidth, and how many threads, warps, CTAs, registers and bytes of shared memory an SM holds.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/common/error.h"
#include "models/pcie/link_timing.h"
#include "models/pcie/pcie_config.h"
#include "platform/command.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"

namespace gpusoc::platform {
namespace {

// One line on the memory system: what the SMs' accesses go through.
std::string memory_summary(const Config& config, const GpuSpec& spec) {
  const std::string model = memsys::memory_model(config);
  if (model == "flat") return "flat: one latency and bandwidth (devmem.*)";
  const memsys::HierarchyConfig h =
      memsys::hierarchy_config_from(config, memory_description(spec, 0));
  const std::string l2 =
      h.l2.size_bytes == 0
          ? std::string("no L2")
          : fmt::format("L2 {} KiB ({} x {} KiB, {}-way, {})",
                        h.l2.size_bytes * h.mapping.partitions >> 10, h.mapping.partitions,
                        h.l2.size_bytes >> 10, h.l2.ways, h.l2.replacement.name);
  return fmt::format(
      "{}{} partitions x {} channels of {}, {}, crossbar {} B/cycle ({}), {} "
      "controllers",
      model == "tlm" ? "SystemC modules (tlm): " : "", h.mapping.partitions, h.mapping.channels,
      h.dram.name, l2, h.xbar.width_bytes, h.xbar.arbiter.name, h.controller.scheduler.name);
}

nlohmann::ordered_json derive(const GpuSpec& spec, const pcie::PcieConfig& pcie) {
  const pcie::LinkTiming link(pcie.link);
  const auto& sm = spec.sm;
  nlohmann::ordered_json j;
  j["sms"] = spec.total_sms();
  j["sp_cores"] = spec.total_sp_cores();
  j["peak_fp32_gflops"] = spec.peak_fp32_gflops();
  j["peak_fp64_gflops"] = spec.peak_fp64_gflops();
  j["dram_type"] = spec.memory.type;
  j["peak_dram_gbps"] = spec.peak_dram_gbytes_per_s();
  j["dram_bytes"] = spec.memory.capacity_bytes;
  j["pcie_generation"] = pcie.link.generation;
  j["pcie_lanes"] = pcie.link.lanes;
  j["pcie_raw_gbps"] = link.raw_bytes_per_ns();
  // Host-to-device data rides in completions (3-DW headers), device-to-host in posted writes
  // to 64-bit host addresses (4-DW headers), each at most max_payload_bytes.
  j["pcie_h2d_payload_gbps"] = link.payload_bytes_per_ns(pcie::LinkTiming::kHeader3dw);
  j["pcie_d2h_payload_gbps"] = link.payload_bytes_per_ns(pcie::LinkTiming::kHeader4dw);
  j["sm_max_threads"] = sm.max_threads;
  j["sm_max_warps"] = sm.max_threads / sm.warp_size;
  j["sm_max_ctas"] = sm.max_ctas;
  j["sm_registers"] = sm.registers;
  j["sm_shared_memory_bytes"] = sm.shared_memory_bytes;
  j["cta_max_threads"] = sm.max_threads_per_cta;
  j["cta_max_shared_bytes"] = sm.max_shared_per_cta;
  return j;
}

int info(const CommandContext& context) {
  const GpuSpec spec = GpuSpec::from_config(context.config);
  const pcie::PcieConfig pcie = pcie::PcieConfig::from_config(context.config);
  nlohmann::ordered_json j = derive(spec, pcie);
  j["sm_model"] = sm_model(context.config);
  j["sm_summary"] = sm_summary(context.config);
  j["memory_summary"] = memory_summary(context.config, spec);
  const std::string format = context.options.get("format").value_or("text");
  if (format == "json") {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  if (format != "text") throw UsageError("--format '" + format + "': expected text or json");
  const auto& s = spec.sm;
  std::cout << fmt::format(
      "structure   {} GPC x {} TPC x {} SM = {} SMs, {} SP cores\n"
      "clocks      shader {} MHz, core {} MHz, memory {} MHz\n"
      "FP32 peak   {:.1f} GFLOP/s (one FMA per SP core per shader clock)\n"
      "FP64 peak   {:.1f} GFLOP/s ({} FP64 lanes per SM)\n"
      "DRAM        {}, {} x {}-bit at {} MT/s: {:.1f} GB/s peak, {} MiB\n"
      "PCIe        gen {} x{}: {:.2f} GB/s per direction after encoding; payload "
      "{:.2f} GB/s host-to-device, {:.2f} GB/s device-to-host\n"
      "per SM      {} threads ({} warps), {} CTAs, {} registers, {} bytes shared memory\n"
      "per CTA     {} threads, {} bytes shared memory\n"
      "SMs         {}\n"
      "memory      {}\n",
      spec.gpu.gpcs, spec.gpu.tpcs_per_gpc, spec.gpu.sms_per_tpc, spec.total_sms(),
      spec.total_sp_cores(), spec.clock.shader_mhz, spec.clock.core_mhz, spec.clock.memory_mhz,
      spec.peak_fp32_gflops(), spec.peak_fp64_gflops(), s.fp64_units, spec.memory.type,
      spec.memory.partitions, spec.memory.bus_width_bits,
      spec.clock.memory_mhz * spec.memory.data_rate, spec.peak_dram_gbytes_per_s(),
      spec.memory.capacity_bytes >> 20, pcie.link.generation, pcie.link.lanes,
      j["pcie_raw_gbps"].get<double>(), j["pcie_h2d_payload_gbps"].get<double>(),
      j["pcie_d2h_payload_gbps"].get<double>(), s.max_threads, s.max_threads / s.warp_size,
      s.max_ctas, s.registers, s.shared_memory_bytes, s.max_threads_per_cta, s.max_shared_per_cta,
      j["sm_summary"].get<std::string>(), j["memory_summary"].get<std::string>());
  return 0;
}

const CommandRegistration kInfo{
    Command("info",
            "derived figures of a configuration: peak FLOP/s, DRAM and PCIe bandwidth, SM "
            "occupancy limits",
            info)
        .option({"format", "FORMAT", "text (default) or json"})};

}  // namespace
}  // namespace gpusoc::platform
