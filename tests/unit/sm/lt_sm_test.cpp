// The loosely timed SMs and the CTA distributor together, against analytic timing: a warp's
// instructions cost their class's issue cycles, warps share an SM's issue, loads stall for the
// memory's latency, and CTAs occupy SMs within the limits.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/common/memory_target.h"
#include "models/gigathread/cta_dispatcher.h"
#include "models/ptx/address_space.h"
#include "models/sm/loosely_timed_sm.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/sm/dmi_mover.h"
#include "tests/unit/sm/sm_test_support.h"

namespace gpusoc {
namespace {

using gigathread::CtaDispatcher;
using gigathread::GridRequest;
using gigathread::GridResult;
using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kCyclePs = 1000;  // a 1 GHz SM clock keeps the arithmetic readable
constexpr uint64_t kLatencyPs = 400'000;

using testing::flat_sms;
using testing::grid_request;
using testing::load_ptx;
using testing::simulate;

/// `mov`, `adds` dependent FP32 adds, `ret`: (adds + 2) warp instructions of 4 cycles each.
std::string chain_kernel(int adds) {
  std::string s =
      ".visible .entry chain(.param .u64 out)\n{\n.reg .f32 %f<2>;\n"
      "mov.f32 %f1, 0f3F800000;\n";
  for (int i = 0; i < adds; ++i) s += "add.f32 %f1, %f1, %f1;\n";
  return s + "ret;\n}\n";
}

const char* kLoadKernel = R"(
.visible .entry twice(.param .u64 out)
{
.reg .f32 %f<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
ld.global.f32 %f1, [%rd1];
add.f32 %f1, %f1, %f1;
st.global.f32 [%rd1], %f1;
ret;
}
)";

const char* kSmidKernel = R"(
.visible .entry smid(.param .u64 out)
{
.reg .b32 %r<3>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [out];
mov.u32 %r1, %ctaid.x;
mov.u32 %r2, %smid;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r2;
ret;
}
)";

const char* kFaultKernel = R"(
.visible .entry faulty(.param .u64 out)
{
.reg .b64 %rd<2>;
.reg .b32 %r<2>;
mov.u64 %rd1, 16;
ld.global.u32 %r1, [%rd1];
ret;
}
)";

const char* kSpinKernel = R"(
.visible .entry spin(.param .u64 out)
{
LOOP:
bra.uni LOOP;
}
)";

struct Bench : sc_core::sc_module {
  Bench(sc_core::sc_module_name name, std::vector<gigathread::SmPlace> places,
        gigathread::SmLimits limits, std::string policy = "round_robin", uint64_t watchdog = 0)
      : sc_module(name),
        vram("vram", vram_config(), stats),
        dispatcher("gigathread", config(places, limits, policy, watchdog), stats) {
    sm::LtSmTiming timing;
    timing.issue_cycles.fill(4);
    timing.issue_cycles[size_t(ptx::InstClass::Sfu)] = 16;
    timing.clock_mhz = 1e6 / kCyclePs;
    timing.quantum = sc_time(1000, SC_NS);
    for (uint32_t i = 0; i < places.size(); ++i) {
      sms.push_back(std::make_unique<sm::LooselyTimedSm>(("sm" + std::to_string(i)).c_str(), i,
                                                         timing, stats));
      sms.back()->mem_initiator.bind(vram.target);
      dispatcher.add_sm(*sms.back());
    }
    dispatcher.set_printf_sink([](const std::string&) {});
  }
  static MemoryTargetConfig vram_config() {
    MemoryTargetConfig c;
    c.base = ptx::kGlobalBase;
    c.size = 64 << 20;
    c.latency = sc_time(double(kLatencyPs), sc_core::SC_PS);
    return c;
  }
  static gigathread::DispatcherConfig config(std::vector<gigathread::SmPlace> places,
                                             gigathread::SmLimits limits, std::string policy,
                                             uint64_t watchdog) {
    gigathread::DispatcherConfig c;
    c.places = std::move(places);
    c.limits = limits;
    c.policy = std::move(policy);
    c.watchdog.launch_instructions = watchdog;
    return c;
  }
  uint8_t* at(uint64_t offset) { return vram.backdoor(ptx::kGlobalBase + offset, 4); }

  StatGroup stats;
  MemoryTarget vram;
  CtaDispatcher dispatcher;
  std::vector<std::unique_ptr<sm::LooselyTimedSm>> sms;
};

uint64_t duration(const GridResult& r) {
  return r.stats.end_ps - r.stats.start_ps;
}

TEST(LooselyTimedSm, DeviceMemoryMayRevokeDmiAndGrantItElsewhereWhileKernelsRun) {
  testing::fresh_systemc();
  StatGroup stats;
  MemoryTarget vram("vram", Bench::vram_config(), stats);
  testing::DmiMover mover("mover", 100);
  sm::LtSmTiming timing;
  timing.issue_cycles.fill(4);
  timing.clock_mhz = 1e6 / kCyclePs;
  sm::LooselyTimedSm sm("sm0", 0, timing, stats);
  sm.mem_initiator.bind(mover.target);
  mover.initiator.bind(vram.target);
  CtaDispatcher dispatcher("gigathread", Bench::config(flat_sms(1), {}, "round_robin", 0), stats);
  dispatcher.add_sm(sm);
  testing::expect_results_in_moved_memory(dispatcher, vram, mover);
}

// The quantum is the SM's own, else the platform's tlm_global_quantum, else 1 us, resolved when
// simulation starts.
TEST(LooselyTimedSm, TheQuantumIsItsOwnElseThePlatformsGlobalOneElseAMicrosecond) {
  for (const testing::QuantumCase& c : testing::quantum_cases()) {
    testing::fresh_systemc();
    StatGroup stats;
    MemoryTarget vram("vram", Bench::vram_config(), stats);
    sm::LtSmTiming timing;
    timing.issue_cycles.fill(4);
    timing.clock_mhz = 1e6 / kCyclePs;
    timing.quantum = sc_time(c.own_ns, SC_NS);
    sm::LooselyTimedSm sm("sm0", 0, timing, stats);
    sm.mem_initiator.bind(vram.target);
    tlm::tlm_global_quantum::instance().set(c.global);  // after the SM was built
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(sm.quantum(), c.expected) << "own " << c.own_ns << " ns, global " << c.global;
  }
  tlm::tlm_global_quantum::instance().set(sc_core::SC_ZERO_TIME);
}

TEST(LooselyTimedSm, OneWarpTakesItsIssueCycles) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(1), {});
  auto program = load_ptx(chain_kernel(100));
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(grid_request(program, "chain", 1, 32)); });
  ASSERT_EQ(result.error, cmd::ErrorCode::None) << result.message;
  EXPECT_EQ(result.stats.warp_instructions, 102u);
  EXPECT_EQ(duration(result), 102 * 4 * kCyclePs);
}

TEST(LooselyTimedSm, WarpsShareTheIssueRate) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(1), {});
  auto program = load_ptx(chain_kernel(100));
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(grid_request(program, "chain", 1, 128)); });
  ASSERT_EQ(result.error, cmd::ErrorCode::None) << result.message;
  EXPECT_EQ(duration(result), 4 * 102 * 4 * kCyclePs);  // 4 warps, one issue
}

TEST(LooselyTimedSm, LoadStallsForTheMemoryLatencyAndDataArrives) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(1), {});
  const float x = 1.5f;
  std::memcpy(bench.at(0), &x, 4);
  auto program = load_ptx(kLoadKernel);
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(grid_request(program, "twice", 1, 1)); });
  ASSERT_EQ(result.error, cmd::ErrorCode::None) << result.message;
  EXPECT_EQ(duration(result), 5 * 4 * kCyclePs + kLatencyPs);
  float y = 0;
  std::memcpy(&y, bench.at(0), 4);
  EXPECT_EQ(y, 3.0f);
}

TEST(CtaDispatcher, ThreadLimitHoldsThreeCtasAndKeepsTheIssueBusy) {
  testing::fresh_systemc();
  gigathread::SmLimits tesla;  // 768 threads, 8 CTAs, 8192 registers
  Bench bench("bench", flat_sms(1), tesla);
  auto program = load_ptx(chain_kernel(100));
  GridRequest r = grid_request(program, "chain", 6, 256);
  EXPECT_EQ(bench.dispatcher.ctas_per_sm(r), 3u);
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(r); });
  ASSERT_EQ(result.error, cmd::ErrorCode::None) << result.message;
  EXPECT_EQ(result.stats.max_resident_warps, 24u);
  EXPECT_EQ(result.stats.ctas, 6u);
  // A freed slot is refilled at once, so the one issue port never idles: 48 warps' issue.
  EXPECT_EQ(duration(result), 48 * 102 * 4 * kCyclePs);
  EXPECT_LE(result.stats.occupancy_warp_ps, 24 * duration(result));
}

TEST(CtaDispatcher, RegisterLimitAdmitsOneCtaAtATime) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(2), {});
  auto program = load_ptx(chain_kernel(100));
  GridRequest r = grid_request(program, "chain", 4, 256);
  r.registers_per_thread = 20;  // a warp's 640 rounded to 768: 6144 of 8192 registers per CTA
  std::string why;
  EXPECT_EQ(bench.dispatcher.ctas_per_sm(r, &why), 1u);
  EXPECT_EQ(why, "registers (20 per thread, 768 per warp): a CTA needs 6144, an SM has 8192");
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(r); });
  ASSERT_EQ(result.error, cmd::ErrorCode::None) << result.message;
  EXPECT_EQ(duration(result), 2 * 8 * 102 * 4 * kCyclePs);  // two rounds of one CTA per SM
}

// Compute capability 1.x allocates a CTA's registers at once: 10 a thread for 128 threads is
// 1280, a whole number of 256-register units, so six CTAs fit 8192 (threads then limit them);
// rounded per warp (320 to 512) the same kernel fits four.
TEST(CtaDispatcher, PerCtaRegisterAllocationRoundsOnceForTheCta) {
  for (const bool per_cta : {true, false}) {
    SCOPED_TRACE(per_cta ? "per CTA" : "per warp");
    testing::fresh_systemc();
    gigathread::SmLimits limits;
    limits.register_allocation_per_cta = per_cta;
    Bench bench("bench", flat_sms(1), limits);
    auto program = load_ptx(chain_kernel(1));
    GridRequest r = grid_request(program, "chain", 8, 128);
    r.registers_per_thread = 10;
    std::string why;
    EXPECT_EQ(bench.dispatcher.ctas_per_sm(r, &why), per_cta ? 6u : 4u);
    EXPECT_EQ(why, per_cta ? "threads: a CTA needs 128, an SM has 768"
                           : "registers (10 per thread, 512 per warp): a CTA needs 2048, an SM "
                             "has 8192");
    r.registers_per_thread = 11;  // 1408, rounded to 1536 once: five CTAs (5 x 1536 = 7680)
    EXPECT_EQ(bench.dispatcher.ctas_per_sm(r, &why), per_cta ? 5u : 4u);
  }
}

// A CTA that does not fit at all is refused, naming the resource and both figures.
TEST(CtaDispatcher, ACtaThatFitsNoSmIsRefusedNamingTheResource) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(1), {});
  auto program = load_ptx(chain_kernel(1));
  GridRequest r = grid_request(program, "chain", 1, 256);
  r.registers_per_thread = 40;  // 8 warps of 1280 registers
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(r); });
  EXPECT_EQ(result.error, cmd::ErrorCode::LaunchOutOfResources);
  EXPECT_EQ(result.message,
            "launch of 'chain': a CTA of 256 threads does not fit an SM, for its registers (40 "
            "per thread, 1280 per warp): a CTA needs 10240, an SM has 8192");
}

// sm.reserved_shared_per_cta: the system's shared memory in every CTA counts against the SM's.
TEST(CtaDispatcher, ReservedSharedMemoryCountsAgainstTheSm) {
  testing::fresh_systemc();
  gigathread::SmLimits limits;  // 16384 bytes of shared memory, 8 CTAs
  limits.reserved_shared_per_cta = 1024;
  Bench bench("bench", flat_sms(1), limits);
  auto program = load_ptx(chain_kernel(100));
  GridRequest r = grid_request(program, "chain", 8, 32);
  r.dynamic_shared_bytes = 3000;  // 3008 with the region's alignment, then 1024 reserved
  std::string why;
  EXPECT_EQ(bench.dispatcher.ctas_per_sm(r, &why), 4u);  // 16384 / 4032, where 3000 alone fit 5
  EXPECT_EQ(why, "bytes of shared memory: a CTA needs 4032, an SM has 16384");
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(r); });
  ASSERT_EQ(result.error, cmd::ErrorCode::None) << result.message;
  EXPECT_EQ(result.stats.max_resident_warps, 4u);
}

TEST(CtaDispatcher, RoundRobinSpreadsAcrossGpcsFirstAndFillPacks) {
  const std::vector<gigathread::SmPlace> places = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}};
  for (const char* policy : {"round_robin", "fill"}) {
    testing::fresh_systemc();
    Bench bench("bench", places, {}, policy);
    auto program = load_ptx(kSmidKernel);
    GridResult result;
    simulate([&] { result = bench.dispatcher.run_grid(grid_request(program, "smid", 4, 32)); });
    ASSERT_EQ(result.error, cmd::ErrorCode::None) << result.message;
    std::vector<uint32_t> smid(4);
    for (uint32_t i = 0; i < 4; ++i) std::memcpy(&smid[i], bench.at(4 * i), 4);
    const std::vector<uint32_t> expected = std::string(policy) == "fill"
                                               ? std::vector<uint32_t>{0, 0, 0, 0}
                                               : std::vector<uint32_t>{0, 2, 1, 3};
    EXPECT_EQ(smid, expected) << policy;
  }
}

TEST(CtaDispatcher, GridsFromTwoCallersRunConcurrently) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(2), {});
  auto program = load_ptx(chain_kernel(100));
  GridResult a, b;
  struct Second : sc_core::sc_module {
    Second(sc_core::sc_module_name n, std::function<void()> f) : sc_module(n), body(std::move(f)) {
      SC_HAS_PROCESS(Second);
      SC_THREAD(run);
    }
    void run() { body(); }
    std::function<void()> body;
  } second("second", [&] { b = bench.dispatcher.run_grid(grid_request(program, "chain", 1, 32)); });
  simulate([&] { a = bench.dispatcher.run_grid(grid_request(program, "chain", 1, 32)); });
  ASSERT_EQ(a.error, cmd::ErrorCode::None);
  ASSERT_EQ(b.error, cmd::ErrorCode::None);
  EXPECT_EQ(a.stats.start_ps, 0u);
  EXPECT_EQ(b.stats.start_ps, 0u);
  EXPECT_EQ(a.stats.end_ps, 102 * 4 * kCyclePs);
  EXPECT_EQ(b.stats.end_ps, 102 * 4 * kCyclePs);
}

TEST(CtaDispatcher, RefusesBadLaunchesAndSurvivesAFault) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(2), {});
  auto program = load_ptx(std::string(kFaultKernel) + kLoadKernel);
  const float x = 2.0f;
  std::memcpy(bench.at(0), &x, 4);
  GridResult zero, big_shared, fault, after;
  simulate([&] {
    zero = bench.dispatcher.run_grid(grid_request(program, "twice", 1, ptx::Dim3(0)));
    GridRequest s = grid_request(program, "twice", 1, 32);
    s.dynamic_shared_bytes = 20000;
    big_shared = bench.dispatcher.run_grid(s);
    fault = bench.dispatcher.run_grid(grid_request(program, "faulty", 8, 64));
    after = bench.dispatcher.run_grid(grid_request(program, "twice", 1, 1));
  });
  EXPECT_EQ(zero.error, cmd::ErrorCode::InvalidLaunchConfig);
  EXPECT_NE(zero.message.find("zero dimension"), std::string::npos) << zero.message;
  EXPECT_EQ(big_shared.error, cmd::ErrorCode::LaunchOutOfResources);
  EXPECT_NE(big_shared.message.find("20000"), std::string::npos) << big_shared.message;
  EXPECT_EQ(fault.error, cmd::ErrorCode::LaunchFailed);
  EXPECT_NE(fault.message.find("faulty"), std::string::npos) << fault.message;
  EXPECT_NE(fault.message.find("0x10"), std::string::npos) << fault.message;
  EXPECT_EQ(after.error, cmd::ErrorCode::None) << after.message;
  float y = 0;
  std::memcpy(&y, bench.at(0), 4);
  EXPECT_EQ(y, 4.0f);
}

TEST(CtaDispatcher, WatchdogStopsAnEndlessKernel) {
  testing::fresh_systemc();
  Bench bench("bench", flat_sms(1), {}, "round_robin", 100000);
  auto program = load_ptx(kSpinKernel);
  GridResult result;
  simulate([&] { result = bench.dispatcher.run_grid(grid_request(program, "spin", 2, 32)); });
  EXPECT_EQ(result.error, cmd::ErrorCode::LaunchFailed);
  EXPECT_NE(result.message.find("watchdog"), std::string::npos) << result.message;
}

}  // namespace
}  // namespace gpusoc
