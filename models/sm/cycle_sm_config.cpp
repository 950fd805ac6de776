#include "models/sm/cycle_sm_config.h"

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/sm/cache_params.h"
#include "models/sm/warp_scheduler.h"

namespace gpusoc::sm {
namespace {

using U32 = uint32_t;
using ptx::InstClass;

// Defaults: the Tesla SM of the 8800 GTX (one scheduler, 8 SPs, 2 SFUs, a warp instruction issued
// over 4 shader cycles, SFU at quarter rate, about 24 cycles of register-to-register latency as
// Volkov and Demmel measured on G80, no L1 data cache, 16 shared-memory banks).
const Param<U32> kBlocks{"sm.processing_blocks", 1, "blocks",
                         "processing blocks (sub-cores) per SM, each with its own warp "
                         "scheduler, dispatch and pipelines; warp slot s belongs to block s % n",
                         Range{1, 8}};
const Param<std::string> kScheduler{
    "sm.scheduler", "gto", "",
    "warp scheduling policy of each processing block: " + warp_schedulers().describe(),
    warp_schedulers().choices()};

const char* const kUnitDoc[kNumUnits] = {"integer",    "FP32",    "FP64",  "special-function",
                                         "load/store", "texture", "branch"};
struct UnitDefaults {
  U32 lanes, latency;
};
constexpr UnitDefaults kUnitDefaults[kNumUnits] = {{8, 24}, {8, 24}, {1, 32}, {2, 28},
                                                   {8, 4},  {8, 4},  {8, 4}};

// One lanes and one latency parameter per unit, declared at namespace scope like every Param.
struct UnitParams {
  explicit UnitParams(Unit u)
      : lanes(fmt::format("sm.unit.{}.lanes", unit_name(u)), kUnitDefaults[size_t(u)].lanes,
              "lanes",
              fmt::format("{} lanes per processing block: a warp instruction occupies the unit "
                          "for 32 / lanes cycles",
                          kUnitDoc[size_t(u)]),
              Range{1, 32}.power_of_two()),
        latency(fmt::format("sm.unit.{}.latency", unit_name(u)), kUnitDefaults[size_t(u)].latency,
                "cycles",
                u == Unit::Lsu
                    ? std::string("load/store unit issue latency (memory timing comes from "
                                  "shared memory, the caches and the memory path)")
                    : fmt::format("cycles from issuing a {} instruction to its result (for "
                                  "branches: to the warp's next issue)",
                                  kUnitDoc[size_t(u)]),
                Range{1, 1024}) {}
  Param<U32> lanes;
  Param<U32> latency;
};
const UnitParams kUnits[kNumUnits] = {
    UnitParams(Unit::Int), UnitParams(Unit::Fp32), UnitParams(Unit::Fp64),  UnitParams(Unit::Sfu),
    UnitParams(Unit::Lsu), UnitParams(Unit::Tex),  UnitParams(Unit::Branch)};

const Param<std::string> kConversionUnit{
    "sm.class_unit.conversion", "fp32", "",
    "unit that runs conversions (cvt): fp32 on Tesla's SPs, sfu where conversions are "
    "quarter rate",
    OneOf{"int", "fp32", "fp64", "sfu"}};
const Param<std::string> kMoveUnit{"sm.class_unit.move", "int", "", "unit that runs moves",
                                   OneOf{"int", "fp32"}};
const Param<std::string> kIntMultiplyUnit{
    "sm.class_unit.int_multiply", "int", "",
    "unit that runs integer multiplies (mul, mad, mul24, mad24: IMAD)", OneOf{"int", "fp32"}};
const Param<U32> kIntMultiplyLatency{
    "sm.int_multiply_latency", 0, "cycles",
    "cycles from issuing an integer multiply to its result where it differs from its unit's "
    "(Volta's IMAD: 5 on a 4-cycle pipe, Jia et al. 2018 Table 4.1); 0: the unit's latency",
    Range{0, 1024}};
const Param<std::string> kWarpLevelUnit{"sm.class_unit.warp_level", "int", "",
                                        "unit that runs shfl, vote, redux and match",
                                        OneOf{"int", "fp32", "lsu"}};

const Param<U32> kRegisterBanks{"sm.register_banks", 0, "banks",
                                "register-file banks per processing block for operand-collector "
                                "conflicts (sources in one bank are read one per cycle); 0 "
                                "switches the model off",
                                Range{0, 32}};
const Param<bool> kOperandReuse{"sm.operand_reuse", false, "",
                                "operand reuse cache (Volta and later, steered by ptxas's reuse "
                                "flags): a source the warp's previous instruction read in the same "
                                "operand slot, and did not write, reads no register bank"};
const Param<U32> kSharedBanks{"sm.shared_banks", 16, "banks", "shared-memory banks",
                              Range{1, 64}.power_of_two()};
const Param<U32> kSharedBankBytes{"sm.shared_bank_bytes", 4, "bytes",
                                  "width of a shared-memory bank", Range{4, 8}.power_of_two()};
const Param<U32> kSharedLatency{"sm.shared_latency", 36, "cycles",
                                "cycles from a conflict-free shared-memory access to its data",
                                Range{1, 1024}};
const Param<U32> kSharedReplay{"sm.shared_replay_cycles", 1, "cycles",
                               "cycles each further pass of a bank-conflicted shared-memory access "
                               "takes (the banks serve one word each a pass; 2 on Volta: Jia et "
                               "al. 2018, Fig. 3.9)",
                               Range{1, 64}};

const CacheParams kL1{"sm.l1", "L1 data cache", 0, 4, 128, 32, 28, 32};
const Param<bool> kL1WriteAllocate{"sm.l1.write_allocate", false, "",
                                   "global stores allocate L1 lines with the sectors they write "
                                   "(the L1 is write-through either way; false: no-allocate)"};
const CacheParams kConstant{"sm.const_cache", "constant cache", 8192, 4, 64, 64, 4, 8};

const Param<U32> kParamLatency{"sm.param_latency", 4, "cycles",
                               "cycles to read a kernel parameter (constant bank 0)",
                               Range{1, 1024}};
const Param<U32> kLsuQueue{"sm.lsu.queue_lines", 128, "lines",
                           "cache lines accesses may queue for the L1 or the memory port; a "
                           "memory instruction issues only with room for the 64 lines a warp "
                           "can touch",
                           Range{64, 4096}};
const Param<U32> kMioQueue{
    "sm.lsu.mio_queue", 0, "instructions",
    "memory instructions (and whatever else runs on the LSU) each processing block may queue for "
    "the SM's one load/store pipe, which takes one a cycle from the blocks' queues (Volta and "
    "later: the MIO queue); the pipe's rate is sm.unit.lsu.lanes times sm.processing_blocks "
    "lanes. 0: each processing block has an LSU of its own (Tesla)",
    Range{0, 64}};
const Param<U32> kInFlight{"sm.lsu.max_in_flight", 64, "requests",
                           "memory requests an SM may have outstanding", Range{1, 4096}};
const Param<U32> kBarrier{"sm.barrier_cycles", 2, "cycles",
                          "from a barrier's last arrival to the release of its warps",
                          Range{0, 1024}};
const Param<U32> kCtaLaunch{"sm.cta_launch_cycles", 0, "cycles",
                            "cycles to start a CTA's warps once the SM receives it",
                            Range{0, 1 << 20}};
const Param<U32> kCtaRetire{"sm.cta_retire_cycles", 0, "cycles",
                            "cycles from a CTA's last warp finishing to its slot being free",
                            Range{0, 1 << 20}};
const Param<double> kQuantumNs{"sm.cycle.quantum_ns", 0.0, "ns",
                               "how far a cycle-level SM may run ahead of SystemC time "
                               "(temporal decoupling quantum); 0: the platform's "
                               "tlm_global_quantum (1 us where it is unset)",
                               Range{0, 1e9}};
const Param<uint64_t> kWatchdogReply{
    "sm.cycle.watchdog_reply_cycles", CycleSmConfig{}.watchdog_reply_cycles, "cycles",
    "a cycle-level SM whose memory requests get no reply for this many cycles (a memory target "
    "that never answers) fails the CTAs waiting on them, with a report of their warps; 0: no "
    "check",
    Range{0, 1e15}};

Unit unit_named(const std::string& name) {
  for (size_t u = 0; u < kNumUnits; ++u)
    if (name == unit_name(Unit(u))) return Unit(u);
  return Unit::Int;  // unreachable: OneOf validated the name
}

}  // namespace

CycleSmConfig CycleSmConfig::from_config(const Config& config) {
  CycleSmConfig c;
  c.processing_blocks = kBlocks.get(config);
  c.scheduler = warp_schedulers().choose(config);
  for (size_t u = 0; u < kNumUnits; ++u) {
    c.units.units[u].lanes = kUnits[u].lanes.get(config);
    c.units.units[u].latency = kUnits[u].latency.get(config);
  }
  auto& of = c.units.unit_of;
  of[size_t(InstClass::Int)] = Unit::Int;
  of[size_t(InstClass::IntMultiply)] = unit_named(kIntMultiplyUnit.get(config));
  c.units.class_latency[size_t(InstClass::IntMultiply)] = kIntMultiplyLatency.get(config);
  of[size_t(InstClass::Fp32)] = Unit::Fp32;
  of[size_t(InstClass::Fp64)] = Unit::Fp64;
  of[size_t(InstClass::Sfu)] = Unit::Sfu;
  of[size_t(InstClass::Conversion)] = unit_named(kConversionUnit.get(config));
  of[size_t(InstClass::Move)] = unit_named(kMoveUnit.get(config));
  of[size_t(InstClass::Memory)] = Unit::Lsu;
  of[size_t(InstClass::Control)] = Unit::Branch;
  of[size_t(InstClass::Sync)] = Unit::Branch;
  of[size_t(InstClass::WarpLevel)] = unit_named(kWarpLevelUnit.get(config));
  of[size_t(InstClass::Texture)] = Unit::Tex;
  c.register_banks = kRegisterBanks.get(config);
  c.operand_reuse = kOperandReuse.get(config);
  c.shared.banks = kSharedBanks.get(config);
  c.shared.bank_bytes = kSharedBankBytes.get(config);
  c.shared_latency = kSharedLatency.get(config);
  c.shared_replay_cycles = kSharedReplay.get(config);
  c.l1 = kL1.get(config, "sm.l1");
  c.l1.write_allocate = kL1WriteAllocate.get(config);
  c.constant = kConstant.get(config, "sm.const_cache");
  if (!c.constant.enabled())
    throw ConfigError("sm.const_cache.size_bytes: the constant cache cannot be switched off");
  c.param_latency = kParamLatency.get(config);
  c.lsu_queue = kLsuQueue.get(config);
  c.mio_queue = kMioQueue.get(config);
  c.max_in_flight = kInFlight.get(config);
  c.barrier_cycles = kBarrier.get(config);
  c.cta_launch_cycles = kCtaLaunch.get(config);
  c.cta_retire_cycles = kCtaRetire.get(config);
  c.quantum = sc_core::sc_time(kQuantumNs.get(config), sc_core::SC_NS);
  c.watchdog_reply_cycles = kWatchdogReply.get(config);
  return c;
}

}  // namespace gpusoc::sm
