#include "platform/gpu_spec.h"

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/mempart/dram_params.h"

namespace gpusoc::platform {
namespace {

// Defaults are the GeForce 8800 GTX (configs/tesla-8800gtx.json gives the sources).
using U32 = std::uint32_t;
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

const Param<U32> kGpcs{"gpu.gpcs", 1, "GPCs",
                       "graphics processing clusters (Tesla GPUs have none: model them as 1)",
                       Range{1, 64}};
const Param<U32> kTpcsPerGpc{"gpu.tpcs_per_gpc", 8, "TPCs",
                             "texture/processor clusters per GPC; the SMs of a TPC share a "
                             "texture unit",
                             Range{1, 64}};
const Param<U32> kSmsPerTpc{"gpu.sms_per_tpc", 2, "SMs", "streaming multiprocessors per TPC",
                            Range{1, 16}};

const Param<U32> kSpCores{"sm.sp_cores", 8, "lanes", "FP32 lanes (SP cores) per SM",
                          Range{1, 1024}};
const Param<U32> kSfus{"sm.sfus", 2, "units",
                       "special function units per SM (transcendentals, interpolation)",
                       Range{1, 256}};
const Param<U32> kFp64Units{"sm.fp64_units", 0, "lanes",
                            "FP64 lanes per SM (0: no double-precision hardware, as on "
                            "compute capability 1.0)",
                            Range{0, 1024}};
const Param<U32> kWarpSize{"sm.warp_size", 32, "threads", "threads per warp",
                           Range{1, 64}.power_of_two()};
const Param<U32> kMaxThreads{"sm.max_threads", 768, "threads", "resident threads per SM",
                             Range{1, 4096}};
const Param<U32> kMaxCtas{"sm.max_ctas", 8, "CTAs", "resident CTAs (thread blocks) per SM",
                          Range{1, 64}};
const Param<U32> kRegisters{"sm.registers", 8192, "registers",
                            "32-bit registers per SM, shared by its resident threads",
                            Range{1, 1 << 20}};
const Param<U32> kRegisterUnit{
    "sm.register_allocation_unit", 256, "registers",
    "a warp's registers are allocated in multiples of this (256 on Fermi through Hopper: 8 per "
    "thread; a CTA's with sm.register_allocation_granularity cta: 256 on compute capability "
    "1.0 and 1.1), so a kernel's registers are rounded up to it when CTAs are placed",
    Range{1, 1 << 16}};
const Param<U32> kSharedMemory{"sm.shared_memory_bytes", 16384, "bytes", "shared memory per SM",
                               Range{0, 1 << 24}};
const Param<U32> kMaxThreadsPerCta{"sm.max_threads_per_cta", 512, "threads",
                                   "threads one CTA may have", Range{1, 4096}};
const Param<U32> kMaxSharedPerCta{"sm.max_shared_per_cta", 16384, "bytes",
                                  "shared memory one CTA may allocate", Range{0, 1 << 24}};
const Param<U32> kReservedSharedPerCta{
    "sm.reserved_shared_per_cta", 0, "bytes",
    "shared memory the system reserves in every CTA beyond what the kernel asks (1024 on sm_80 "
    "and later; 0 before): it counts against the SM's shared memory, and PTX's "
    "%reserved_smem_offset_* registers point into it",
    Range{0, 1 << 20}};
const Param<U32> kStackPerThread{"sm.stack_bytes_per_thread", 16384, "bytes",
                                 "local memory (stack, spills, .local) reserved per thread",
                                 Range{0, 1 << 24}};

const Param<U32> kAddressBits{
    "sm.address_bits", 64, "bits",
    "width of the SM's memory addresses, for the register estimate: 64 counts the PTX's 64-bit "
    "integer registers (pointers and their arithmetic in nvcc's 64-bit PTX) as two registers, "
    "32 as one, as ptxas did for compute capability 1.x's 32-bit address space",
    Range{32, 64}.power_of_two()};

const Param<std::string> kRegisterGranularity{
    "sm.register_allocation_granularity", "warp", "",
    "what sm.register_allocation_unit rounds: each warp's registers (Fermi through Hopper) or a "
    "whole CTA's (compute capability 1.x: registers per thread times the CTA's threads in whole "
    "warps, rounded up once)",
    OneOf{"warp", "cta"}};

const Param<double> kShaderMhz{"clock.shader_mhz", 1350.0, "MHz",
                               "shader clock: SM pipelines, SP cores and SFUs", Range{1, 10000}};
const Param<double> kCoreMhz{"clock.core_mhz", 575.0, "MHz",
                             "core clock: crossbar, L2, ROPs and texture units", Range{1, 10000}};
const Param<U32> kPartitions{"memory.partitions", 6, "partitions",
                             "memory partitions, each a DRAM channel with its ROP and L2 slice",
                             Range{1, 64}};
const Param<U32> kBusWidth{"memory.bus_width_bits", 64, "bits",
                           "DRAM data bus width of one partition", Range{8, 4096}.power_of_two()};
const Param<std::uint64_t> kCapacity{"memory.capacity_bytes", 768 * kMiB, "bytes",
                                     "device memory capacity, all partitions together",
                                     Range{kMiB, kMiB << 20}};

// "configs/x.json: sm.max_threads_per_cta = 1024 exceeds sm.max_threads = 768".
[[noreturn]] void inconsistent(const Config& config, const std::string& key, std::uint64_t value,
                               const std::string& relation, const std::string& other_key,
                               std::uint64_t other) {
  throw ConfigError(fmt::format("{}: {} = {} {} {} = {} (from {})", config.origin(key), key, value,
                                relation, other_key, other, config.origin(other_key)));
}

}  // namespace

GpuSpec GpuSpec::from_config(const Config& config) {
  GpuSpec spec{};
  spec.gpu = {kGpcs.get(config), kTpcsPerGpc.get(config), kSmsPerTpc.get(config)};
  spec.sm = {kSpCores.get(config),
             kSfus.get(config),
             kFp64Units.get(config),
             kWarpSize.get(config),
             kMaxThreads.get(config),
             kMaxCtas.get(config),
             kRegisters.get(config),
             kRegisterUnit.get(config),
             kSharedMemory.get(config),
             kMaxThreadsPerCta.get(config),
             kMaxSharedPerCta.get(config),
             kReservedSharedPerCta.get(config),
             kStackPerThread.get(config),
             kAddressBits.get(config),
             kRegisterGranularity.get(config) == "cta"};
  // The DRAM's clock and data rate are its standard's (memory.type, memory.dram.*).
  const mempart::DramTiming dram = mempart::dram_timing_from(config);
  spec.clock = {kShaderMhz.get(config), kCoreMhz.get(config), 1000.0 / dram.tck_ns};
  spec.memory = {kPartitions.get(config), kBusWidth.get(config), dram.beats_per_clock,
                 config.value("memory.type").get<std::string>(), kCapacity.get(config)};

  const Sm& sm = spec.sm;
  if (sm.max_threads % sm.warp_size != 0) {
    inconsistent(config, kMaxThreads.name(), sm.max_threads, "is not a multiple of",
                 kWarpSize.name(), sm.warp_size);
  }
  if (sm.max_threads_per_cta > sm.max_threads) {
    inconsistent(config, kMaxThreadsPerCta.name(), sm.max_threads_per_cta, "exceeds",
                 kMaxThreads.name(), sm.max_threads);
  }
  if (sm.max_shared_per_cta > sm.shared_memory_bytes) {
    inconsistent(config, kMaxSharedPerCta.name(), sm.max_shared_per_cta, "exceeds",
                 kSharedMemory.name(), sm.shared_memory_bytes);
  }
  if (uint64_t(sm.max_shared_per_cta) + sm.reserved_shared_per_cta > sm.shared_memory_bytes) {
    inconsistent(config, kReservedSharedPerCta.name(), sm.reserved_shared_per_cta,
                 "with " + std::string(kMaxSharedPerCta.name()) + " = " +
                     std::to_string(sm.max_shared_per_cta) + " exceeds",
                 kSharedMemory.name(), sm.shared_memory_bytes);
  }
  return spec;
}

}  // namespace gpusoc::platform
