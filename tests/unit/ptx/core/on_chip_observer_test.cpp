// The access observer as a timed SM sees it: global accesses always; shared, const, param and
// local ones only when the CTA asks (observe_on_chip), generic addresses split per lane by the
// space they land in. Expected calls are worked out by hand from the PTX below.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "models/common/sparse_memory.h"
#include "models/ptx/address_space.h"
#include "models/ptx/cta_runner.h"
#include "models/ptx/launch.h"
#include "models/ptx/program.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

// Four threads. buf is the only shared variable (offset 0); the parameters are out (offset 0,
// 8 bytes) and k (offset 8). Even lanes read buf through a generic pointer, odd lanes out.
const std::string kTouch = module(R"(
.const .align 4 .b32 table[4] = {1, 2, 3, 4};
.visible .entry touch(.param .u64 out, .param .u32 k)
{
  .shared .align 4 .b8 buf[64];
  .local .align 4 .b8 depot[16];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd0, [out];
  ld.param.u32 %r7, [k];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd1, %r0, 4;
  mov.u64 %rd2, buf;
  add.s64 %rd3, %rd2, %rd1;
  st.shared.u32 [%rd3+16], %r0;
  atom.shared.add.u32 %r1, [%rd3+16], 1;
  mov.u64 %rd4, table;
  add.s64 %rd5, %rd4, %rd1;
  ld.const.u32 %r2, [%rd5];
  mov.u64 %rd6, depot;
  st.local.u32 [%rd6+4], %r2;
  cvta.local.u64 %rd7, %rd6;
  cvta.shared.u64 %rd8, %rd3;
  and.b32 %r3, %r0, 1;
  setp.eq.u32 %p0, %r3, 0;
  add.s64 %rd9, %rd0, %rd1;
  selp.b64 %rd10, %rd8, %rd9, %p0;
  ld.u32 %r4, [%rd10];
  ld.u32 %r5, [%rd7+4];
  st.global.u32 [%rd9], %r4;
  ret;
}
)");

struct Access {
  bool global;
  StateSpace space;  // Global for global_access
  GlobalAccess kind;
  LaneMask lanes;
  unsigned bytes;
  std::vector<uint64_t> addresses;  // of the lanes in `lanes`, in lane order
  bool operator==(const Access& o) const {
    return global == o.global && space == o.space && kind == o.kind && lanes == o.lanes &&
           bytes == o.bytes && addresses == o.addresses;
  }
};

std::ostream& operator<<(std::ostream& os, const Access& a) {
  os << (a.global ? "global" : "on-chip") << " space " << int(a.space) << " kind " << int(a.kind)
     << " lanes 0x" << std::hex << a.lanes << " bytes " << std::dec << a.bytes << " [";
  for (uint64_t x : a.addresses) os << " 0x" << std::hex << x << std::dec;
  return os << " ]";
}

class Recorder : public GlobalAccessObserver {
 public:
  void global_access(GlobalAccess kind, const uint64_t* addresses, LaneMask lanes,
                     unsigned bytes) override {
    record(true, StateSpace::Global, kind, addresses, lanes, bytes);
  }
  void on_chip_access(StateSpace space, GlobalAccess kind, const uint64_t* addresses,
                      LaneMask lanes, unsigned bytes) override {
    record(false, space, kind, addresses, lanes, bytes);
  }
  std::vector<Access> seen;

 private:
  void record(bool global, StateSpace space, GlobalAccess kind, const uint64_t* addresses,
              LaneMask lanes, unsigned bytes) {
    Access a{global, space, kind, lanes, bytes, {}};
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if (lanes >> lane & 1) a.addresses.push_back(addresses[lane]);
    seen.push_back(a);
  }
};

constexpr uint64_t kOut = kGlobalBase + 0x1000;  // the out argument

class OnChipObserverTest : public ::testing::Test {
 protected:
  OnChipObserverTest() : memory_(/*strict=*/false) {
    for (const Function& f : loaded_.program().functions)
      if (f.name == "touch") launch_.kernel = &f;
    launch_.program = &loaded_.program();
    launch_.block = Dim3(4);
    launch_.params.assign(launch_.kernel->param_buffer_bytes, 0);
    std::memcpy(launch_.params.data(), &kOut, 8);
    launch_.global = &memory_;
    table_ = loaded_.global("table").first;
  }

  std::vector<Access> run(bool on_chip) {
    Recorder recorder;
    CtaRunner runner(launch_);
    runner.set_timing_hooks(on_chip, nullptr, 0);
    runner.start(Dim3(0), 0, nullptr, &recorder);
    while (!runner.finished()) runner.step(0, 1000);
    return recorder.seen;
  }
  static std::vector<uint64_t> lanes4(uint64_t base, uint64_t stride) {
    return {base, base + stride, base + 2 * stride, base + 3 * stride};
  }

  FunctionalDevice device_;
  Module loaded_ = device_.load_module(kTouch, "touch.ptx");
  SparseMemory memory_;
  LaunchContext launch_;
  uint64_t table_ = 0;
};

const Access kGenericGlobalLoad{true, StateSpace::Global,   GlobalAccess::Load, 0xa,
                                4,    {kOut + 4, kOut + 12}};

TEST_F(OnChipObserverTest, WithoutOnChipOnlyGlobalLanesAreReported) {
  const std::vector<Access> want = {
      kGenericGlobalLoad, {true, StateSpace::Global, GlobalAccess::Store, 0xf, 4, lanes4(kOut, 4)}};
  EXPECT_EQ(run(false), want);
}

TEST_F(OnChipObserverTest, OnChipAccessesAreReportedBySpaceWithOffsets) {
  const std::vector<Access> seen = run(true);
  ASSERT_EQ(seen.size(), 10u) << ::testing::PrintToString(seen);
  // The depot's place in the frame is the decoder's choice: read it from the st.local, then
  // check that the generic load through cvta.local finds the same offsets.
  const uint64_t local = seen[5].addresses[0];
  EXPECT_LT(local + 4, uint64_t(launch_.local_bytes_per_thread()) + 1);
  const std::vector<Access> want = {
      {false, StateSpace::Param, GlobalAccess::Load, 0xf, 8, lanes4(0, 0)},
      {false, StateSpace::Param, GlobalAccess::Load, 0xf, 4, lanes4(8, 0)},
      {false, StateSpace::Shared, GlobalAccess::Store, 0xf, 4, lanes4(16, 4)},
      {false, StateSpace::Shared, GlobalAccess::Atomic, 0xf, 4, lanes4(16, 4)},
      {false, StateSpace::Const, GlobalAccess::Load, 0xf, 4, lanes4(table_, 4)},
      {false, StateSpace::Local, GlobalAccess::Store, 0xf, 4, lanes4(local, 0)},
      kGenericGlobalLoad,
      {false, StateSpace::Shared, GlobalAccess::Load, 0x5, 4, {0, 8}},
      {false, StateSpace::Local, GlobalAccess::Load, 0xf, 4, lanes4(local, 0)},
      {true, StateSpace::Global, GlobalAccess::Store, 0xf, 4, lanes4(kOut, 4)}};
  EXPECT_EQ(seen, want);
}

}  // namespace
}  // namespace gpusoc::ptx
