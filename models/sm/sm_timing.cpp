#include "models/sm/sm_timing.h"

#include "models/common/param.h"

namespace gpusoc::sm {
namespace {

using U32 = uint32_t;
using ptx::InstClass;

// Defaults are the Tesla SM of the 8800 GTX: a warp of 32 issues over 4 shader cycles on the 8
// SPs, 2 SFUs take 16 cycles a warp, FP64 absent
// on compute capability 1.0 (charged as 32 cycles, the rate of GT200's single FP64 unit).
const Param<U32> kInt{"sm.lt.cycles_int", 4, "cycles", "issue cycles of an integer warp instruction",
                      Range{1, 1024}};
const Param<U32> kFp32{"sm.lt.cycles_fp32", 4, "cycles", "issue cycles of an FP32 warp instruction",
                       Range{1, 1024}};
const Param<U32> kFp64{"sm.lt.cycles_fp64", 32, "cycles",
                       "issue cycles of an FP64 warp instruction", Range{1, 1024}};
const Param<U32> kSfu{"sm.lt.cycles_sfu", 16, "cycles",
                      "issue cycles of a special-function warp instruction (rcp, sqrt, sin, ...)",
                      Range{1, 1024}};
const Param<U32> kConversion{"sm.lt.cycles_conversion", 4, "cycles",
                             "issue cycles of a conversion (cvt) warp instruction", Range{1, 1024}};
const Param<U32> kMove{"sm.lt.cycles_move", 4, "cycles", "issue cycles of a move warp instruction",
                       Range{1, 1024}};
const Param<U32> kMemory{"sm.lt.cycles_memory", 4, "cycles",
                         "issue cycles of a memory warp instruction (the memory path adds "
                         "load latency on top)",
                         Range{1, 1024}};
const Param<U32> kControl{"sm.lt.cycles_control", 4, "cycles",
                          "issue cycles of a branch, call or return", Range{1, 1024}};
const Param<U32> kSync{"sm.lt.cycles_sync", 4, "cycles", "issue cycles of a barrier instruction",
                       Range{1, 1024}};
const Param<U32> kWarpLevel{"sm.lt.cycles_warp_level", 4, "cycles",
                            "issue cycles of a warp-level instruction (shfl, vote, redux)",
                            Range{1, 1024}};
const Param<U32> kTexture{"sm.lt.cycles_texture", 4, "cycles",
                          "issue cycles of a texture or surface warp instruction (the texture "
                          "unit adds its latency on top)",
                          Range{1, 1024}};
const Param<U32> kSlice{"sm.lt.slice_instructions", 64, "instructions",
                        "warp instructions a warp runs before the SM picks the next warp: "
                        "shorter is finer-grained and slower to simulate",
                        Range{1, 65536}};
const Param<double> kQuantumNs{"sm.lt.quantum_ns", 0.0, "ns",
                               "how far an SM may run ahead of SystemC time (temporal "
                               "decoupling quantum); 0: the platform's tlm_global_quantum "
                               "(1 us where it is unset)",
                               Range{0, 1e9}};
const Param<double> kCtaLaunchNs{"sm.lt.cta_launch_ns", 0.0, "ns",
                                 "time to start a CTA on an SM", Range{0, 1e6}};

}  // namespace

LtSmTiming LtSmTiming::from_config(const Config& config) {
  LtSmTiming t;
  auto set = [&](InstClass c, const Param<U32>& p) { t.issue_cycles[size_t(c)] = p.get(config); };
  set(InstClass::Int, kInt);
  set(InstClass::IntMultiply, kInt);  // the loosely timed SM does not tell multiplies apart
  set(InstClass::Fp32, kFp32);
  set(InstClass::Fp64, kFp64);
  set(InstClass::Sfu, kSfu);
  set(InstClass::Conversion, kConversion);
  set(InstClass::Move, kMove);
  set(InstClass::Memory, kMemory);
  set(InstClass::Control, kControl);
  set(InstClass::Sync, kSync);
  set(InstClass::WarpLevel, kWarpLevel);
  set(InstClass::Texture, kTexture);
  t.slice_instructions = kSlice.get(config);
  t.quantum = sc_core::sc_time(kQuantumNs.get(config), sc_core::SC_NS);
  t.cta_launch = sc_core::sc_time(kCtaLaunchNs.get(config), sc_core::SC_NS);
  return t;
}

}  // namespace gpusoc::sm
