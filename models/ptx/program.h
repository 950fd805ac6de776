// A loaded module in decoded form: functions with their code, frame layouts and call sites,
// and where the module's variables were placed. Built by the decoder; read by warps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/ptx/inst.h"

namespace gpusoc::ptx {

/// Values of special registers that a frame's hidden registers are filled from at entry.
enum class SpecialReg : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  NWarpId,
  SmId,
  NSmId,
  GridId,
  LanemaskEq,
  LanemaskLt,
  LanemaskLe,
  LanemaskGt,
  LanemaskGe,
  DynamicSmemSize,
  TotalSmemSize,
  AggrSmemSize,             // total plus the reserved region
  ReservedSmemBegin,        // the CTA's reserved shared memory region (sm.reserved_shared_per_cta)
  ReservedSmemEnd,
  ReservedSmemCap,
  ReservedSmem0,            // %reserved_smem_offset_0 and _1: two 8-byte slots within it
  ReservedSmem1,
  // A launch without clusters is a grid of one-CTA clusters (PTX ISA, thread block clusters).
  ClusterIdX,
  ClusterIdY,
  ClusterIdZ,
  NClusterIdX,
  NClusterIdY,
  NClusterIdZ,
  ClusterCtaidX,
  ClusterCtaidY,
  ClusterCtaidZ,
  ClusterNctaidX,
  ClusterNctaidY,
  ClusterNctaidZ,
  ClusterCtaRank,
  ClusterNctaRank,
  IsExplicitCluster,
  CurrentGraphExec,  // 0: kernels are not launched from CUDA graphs
  PerfCounter,       // %pm0..%pm7: no counters are programmed, they read 0
  PerfCounter64,     // %pm0_64..%pm7_64
  EnvReg0,           // %envreg0..%envreg31 are EnvReg0 + n: set by the driver
};
constexpr uint32_t kEnvironmentRegisters = 32;
/// ReadClock's Inst::sub
enum class ClockReg : uint8_t {
  Clock,
  ClockHi,
  Clock64,
  GlobalTimer,
  GlobalTimerLo,
  GlobalTimerHi
};

/// Where a kernel's register count came from.
enum class RegisterSource : uint8_t {
  Estimate,      // the liveness estimate (register_pressure.h)
  LaunchBounds,  // the estimate, capped by .maxntid/.reqntid with .minnctapersm
  MaxNReg,       // the estimate, capped by .maxnreg
  PtxasReport,   // exact, from a ptxas report (ptxas_report.h)
};
const char* to_string(RegisterSource s);

struct HiddenRegister {
  uint32_t reg;
  SpecialReg source;
};

/// A direct call: which function, and where the caller's argument and return .param variables
/// sit in its frame. The callee's formal parameters sit at the start of its own frame.
struct CallSite {
  uint32_t callee = 0;                // function index; unused for indirect calls
  uint32_t callee_reg = kNoReg;       // indirect call: register holding the function address
  std::vector<uint32_t> arg_offsets;  // caller-frame offsets of the argument variables
  std::vector<uint32_t> arg_sizes;    // and their sizes, which must match the callee's
  std::vector<uint32_t> ret_offsets;  // caller-frame offsets of the return variables
  std::vector<uint32_t> ret_sizes;
  uint32_t line = 0;  // of the call, for diagnostics
};

class Function;
/// Why `site` cannot call `callee` (kernel, argument count or sizes); empty when it can.
std::string call_mismatch(const CallSite& site, const Function& callee);

struct ParamSlot {
  uint32_t offset = 0;  // kernel: in the parameter buffer; .func: in its own frame
  uint32_t size = 0;
  uint32_t align = 1;
};

class Function {
 public:
  std::string name;
  bool is_entry = false;
  bool has_body = false;
  std::vector<Inst> code;
  uint32_t num_regs = 1;               // register 0 is the carry flag
  std::vector<HiddenRegister> hidden;  // special registers this function reads
  std::vector<ParamSlot> params;       // kernel: parameter buffer; .func: frame
  std::vector<ParamSlot> returns;      // .func only: frame
  uint32_t param_buffer_bytes = 0;     // kernel only
  uint32_t frame_bytes = 0;            // local memory per activation: depots and .param slots
  uint32_t depot_bytes = 0;            // of which .local variables (what counts as stack)
  uint32_t static_shared_bytes = 0;    // kernel only: static shared memory of the kernel
  uint32_t dynamic_shared_base = 0;    // kernel only: where extern .shared starts (aligned)
  std::vector<CallSite> call_sites;    // indexed by Inst::target of Call/Vprintf
  uint32_t reqntid[3] = {0, 0, 0};
  uint32_t maxntid[3] = {0, 0, 0};
  uint32_t maxnreg = 0;       // .maxnreg; 0 when not given
  uint32_t minnctapersm = 0;  // .minnctapersm; 0 when not given
  /// Declared type of each register (indexed like Operand::reg; hidden registers have the
  /// special register's type). Registers past its end (hand-built code) count as 32-bit.
  std::vector<ScalarType> reg_types{ScalarType::Pred};
  /// Registers per thread of a kernel as ptxas reports them, filled at module load (0 when
  /// not computed): the estimate (register_pressure.h), or a ptxas report's exact count.
  uint32_t registers_per_thread = 0;
  RegisterSource register_source = RegisterSource::Estimate;
};

/// A module-scope .global or .const variable and where it was placed in device memory.
struct GlobalVariable {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
  bool constant = false;  // .const: kernels may only read it
};

/// Dynamic shared memory starts at least this aligned after a kernel's static shared memory.
constexpr uint32_t kDynamicSharedAlign = 16;
/// Sets the kernel's static shared memory and, after it at `dynamic_align` (a power of two, at
/// least kDynamicSharedAlign), where its dynamic shared memory starts.
inline void set_static_shared_bytes(Function& k, uint32_t bytes, uint32_t dynamic_align) {
  k.static_shared_bytes = bytes;
  k.dynamic_shared_base = (bytes + dynamic_align - 1) / dynamic_align * dynamic_align;
}
/// The shared memory a CTA of `k` uses with `dynamic` bytes of dynamic shared memory: its
/// static shared memory, and the dynamic after it at its alignment.
inline uint64_t cta_shared_bytes(const Function& k, uint32_t dynamic) {
  return dynamic ? uint64_t(k.dynamic_shared_base) + dynamic : k.static_shared_bytes;
}

class Program {
 public:
  std::string file;
  std::vector<Function> functions;
  std::vector<GlobalVariable> globals;
  uint32_t module_local_bytes = 0;  // module-scope .local variables, per thread, frame 0
  std::string resource_file;        // the ptxas report its kernels' registers came from, if any
  uint32_t dynamic_shared_align = kDynamicSharedAlign;  // the most any extern .shared asks
  bool declares_dynamic_shared = false;                  // it has an extern .shared variable
};

}  // namespace gpusoc::ptx
