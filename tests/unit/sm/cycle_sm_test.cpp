// The cycle-level SM against analytic timing, each bound checked to the cycle: a chain of
// dependent FMAs takes its length times the configured latency; independent warps reach the
// FP32 pipe's issue rate; a k-way shared-memory bank conflict costs k passes; a stride-N access
// touches exactly the sectors its addresses span; a pointer chase through L1-resident data takes
// the L1 hit latency per step. Timing is taken as differences between two runs that differ only
// in the repeated part, so fixed costs (start-up, the final store) cancel and what is left must
// be exact.
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/checked_bindings.h"
#include "models/common/config.h"
#include "models/common/memory_target.h"
#include "models/common/stats_report.h"
#include "models/gigathread/cta_dispatcher.h"
#include "models/ptx/address_space.h"
#include "models/sm/cycle_sm.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/sm/dmi_mover.h"
#include "tests/unit/sm/sm_test_support.h"

namespace gpusoc {
namespace {

using gigathread::GridResult;
using sc_core::SC_NS;
using sc_core::sc_time;
using testing::grid_request;
using testing::load_ptx;
using testing::simulate;

constexpr uint64_t kCyclePs = 1000;  // a 1 GHz SM clock: durations in ps / 1000 are cycles
constexpr uint64_t kMemoryLatencyPs = 400'000;

/// An SM configuration from sm.* parameters (`sets` as on the command line), at 1 GHz.
sm::CycleSmConfig sm_config(const std::vector<std::string>& sets, uint32_t warp_slots = 32) {
  Config config;
  for (const std::string& s : sets) config.apply_set(s);
  sm::CycleSmConfig c = sm::CycleSmConfig::from_config(config);
  c.clock_mhz = 1e6 / kCyclePs;
  c.warp_slots = warp_slots;
  return c;
}

struct Bench : sc_core::sc_module {
  Bench(sc_core::sc_module_name name, const sm::CycleSmConfig& config, uint32_t sms = 1,
        uint32_t queue_depth = 0)
      : sc_module(name),
        vram("vram", vram_config(queue_depth), stats),
        dispatcher("gigathread", dispatcher_config(sms, config), stats),
        kernels(stats, config.warp_slots) {
    for (uint32_t i = 0; i < sms; ++i) {
      this->sms.push_back(
          std::make_unique<sm::CycleSm>(("sm" + std::to_string(i)).c_str(), i, config, stats));
      bindings.connect(this->sms.back()->mem_initiator, vram.target, "sm_mem");
      this->sms.back()->set_kernel_stats(kernels);
      dispatcher.add_sm(*this->sms.back());
    }
    dispatcher.set_printf_sink([](const std::string&) {});
  }
  static MemoryTargetConfig vram_config(uint32_t queue_depth) {
    MemoryTargetConfig c;
    c.queue_depth = queue_depth;
    c.base = ptx::kGlobalBase;
    c.size = 64 << 20;
    c.latency = sc_time(double(kMemoryLatencyPs), sc_core::SC_PS);
    return c;
  }
  static gigathread::DispatcherConfig dispatcher_config(uint32_t sms, const sm::CycleSmConfig& sm) {
    gigathread::DispatcherConfig c;
    c.places = testing::flat_sms(sms);
    c.limits.max_threads = sm.warp_slots * 32;
    c.limits.max_ctas = 8;
    c.limits.registers = 65536;
    c.limits.max_threads_per_cta = 1024;
    c.watchdog.launch_instructions = 10'000'000;
    return c;
  }
  uint8_t* at(uint64_t offset, uint64_t bytes = 8) {
    return vram.backdoor(ptx::kGlobalBase + offset, bytes);
  }
  GridResult run(const std::string& ptx, const char* kernel, ptx::Dim3 grid, ptx::Dim3 block) {
    auto program = load_ptx(ptx);
    GridResult result;
    simulate([&] { result = dispatcher.run_grid(grid_request(program, kernel, grid, block)); });
    return result;
  }

  StatGroup stats;
  MemoryTarget vram;
  gigathread::CtaDispatcher dispatcher;
  sm::KernelCycleStats kernels;
  CheckedBindings bindings{true};  // every SM's requests through a base-protocol checker
  std::vector<std::unique_ptr<sm::CycleSm>> sms;
};

uint64_t cycles(const GridResult& r) {
  EXPECT_EQ(r.error, cmd::ErrorCode::None) << r.message;
  EXPECT_EQ((r.stats.end_ps - r.stats.start_ps) % kCyclePs, 0u);
  return (r.stats.end_ps - r.stats.start_ps) / kCyclePs;
}

/// Runs the kernel on a fresh SM and returns its duration in cycles.
uint64_t run_cycles(const sm::CycleSmConfig& config, const std::string& ptx, const char* kernel,
                    ptx::Dim3 grid, ptx::Dim3 block) {
  testing::fresh_systemc();
  Bench bench("bench", config);
  return cycles(bench.run(ptx, kernel, grid, block));
}

std::string repeat(const std::string& line, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += line;
  return s;
}

// n dependent FMAs on %f1, then the result is stored.
std::string fma_chain(int n) {
  return R"(
.visible .entry fma_chain(.param .u64 out)
{
.reg .f32 %f<4>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
mov.f32 %f1, 0f3F800000;
mov.f32 %f2, 0f3F000000;
mov.f32 %f3, 0f3E800000;
)" + repeat("fma.rn.f32 %f1, %f1, %f2, %f3;\n", n) +
         "st.global.f32 [%rd1], %f1;\nret;\n}\n";
}

TEST(CycleSm, DependentFmaChainTakesItsLengthTimesTheLatency) {
  for (uint32_t latency : {4u, 6u, 24u}) {
    const auto config = sm_config({"sm.unit.fp32.latency=" + std::to_string(latency)});
    const uint64_t short_chain = run_cycles(config, fma_chain(10), "fma_chain", 1, 32);
    const uint64_t long_chain = run_cycles(config, fma_chain(50), "fma_chain", 1, 32);
    EXPECT_EQ(long_chain - short_chain, 40u * latency) << "latency " << latency;
  }
}

TEST(CycleSm, FmaChainComputesWhatTheCpuComputes) {
  testing::fresh_systemc();
  Bench bench("bench", sm_config({}));
  ASSERT_EQ(bench.run(fma_chain(20), "fma_chain", 1, 32).error, cmd::ErrorCode::None);
  float expected = 1.0f;
  for (int i = 0; i < 20; ++i) expected = std::fma(expected, 0.5f, 0.25f);
  float got = 0;
  std::memcpy(&got, bench.at(0, 4), 4);
  EXPECT_EQ(got, expected);
}

// %globaltimer counts nanoseconds of simulated time, %clock64 the SM's cycles: at 500 MHz the
// timer advances two nanoseconds a cycle, over a chain of 30 six-cycle FMAs.
TEST(CycleSm, GlobalTimerCountsNanosecondsOfTheSmClock) {
  testing::fresh_systemc();
  auto config = sm_config({"sm.unit.fp32.latency=6"});
  config.clock_mhz = 500;
  Bench bench("bench", config);
  const std::string ptx = R"(
.visible .entry timers(.param .u64 out)
{
.reg .f32 %f<4>;
.reg .b32 %r<4>;
.reg .b64 %rd<6>;
ld.param.u64 %rd1, [out];
mov.f32 %f1, 0f3F800000;
mov.f32 %f2, 0f3F000000;
mov.f32 %f3, 0f3E800000;
mov.u64 %rd2, %clock64;
mov.u64 %rd3, %globaltimer;
)" + repeat("fma.rn.f32 %f1, %f1, %f2, %f3;\n", 30) +
                          R"(
mov.u64 %rd4, %clock64;
mov.u64 %rd5, %globaltimer;
mov.u32 %r1, %globaltimer_hi;
mov.u32 %r2, %clock_hi;
st.global.u64 [%rd1], %rd2;
st.global.u64 [%rd1+8], %rd3;
st.global.u64 [%rd1+16], %rd4;
st.global.u64 [%rd1+24], %rd5;
st.global.u32 [%rd1+32], %r1;
st.global.u32 [%rd1+36], %r2;
st.global.f32 [%rd1+40], %f1;
ret;
}
)";
  ASSERT_EQ(bench.run(ptx, "timers", 1, 32).error, cmd::ErrorCode::None);
  uint64_t v[5] = {};
  std::memcpy(v, bench.at(0, 40), 40);
  const uint64_t clock_before = v[0], timer_before = v[1], clock_after = v[2], timer_after = v[3];
  EXPECT_GE(clock_after - clock_before, 30u * 6);
  EXPECT_EQ(timer_after - timer_before, 2 * (clock_after - clock_before));
  // Each timer read issues a few cycles after its clock read.
  EXPECT_GT(timer_before, 2 * clock_before);
  EXPECT_LE(timer_before, 2 * (clock_before + 8));
  EXPECT_EQ(v[4], 0u);  // %globaltimer_hi and %clock_hi: far below 2^32
}

TEST(CycleSm, RegisterBankConflictsDelayEachInstruction) {
  // One bank: the FMA's three distinct sources are read one per cycle, two cycles late.
  const auto banked = sm_config({"sm.unit.fp32.latency=6", "sm.register_banks=1"});
  const uint64_t short_chain = run_cycles(banked, fma_chain(10), "fma_chain", 1, 32);
  const uint64_t long_chain = run_cycles(banked, fma_chain(50), "fma_chain", 1, 32);
  EXPECT_EQ(long_chain - short_chain, 40u * (6 + 2));
}

// m independent FP32 adds per thread (32 destinations in turn, all reading %f1).
std::string independent_adds(int m) {
  std::string s = R"(
.visible .entry adds(.param .u64 out)
{
.reg .f32 %f<34>;
mov.f32 %f1, 0f3F800000;
)";
  for (int i = 0; i < m; ++i) s += "add.f32 %f" + std::to_string(2 + i % 32) + ", %f1, %f1;\n";
  return s + "ret;\n}\n";
}

TEST(CycleSm, IndependentWarpsReachTheIssueRateLimit) {
  // Tesla: one block, 8 FP32 lanes: a warp instruction every 4 cycles.
  const auto tesla = sm_config({"sm.unit.fp32.lanes=8", "sm.unit.fp32.latency=24"});
  const uint64_t tesla_a = run_cycles(tesla, independent_adds(64), "adds", 1, 8 * 32);
  const uint64_t tesla_b = run_cycles(tesla, independent_adds(128), "adds", 1, 8 * 32);
  EXPECT_EQ(tesla_b - tesla_a, 8u * 64 * 4);
  // Volta-like: four blocks of 16 FP32 lanes: four warp instructions every 2 cycles.
  const auto volta =
      sm_config({"sm.processing_blocks=4", "sm.unit.fp32.lanes=16", "sm.unit.fp32.latency=4"});
  const uint64_t volta_a = run_cycles(volta, independent_adds(64), "adds", 1, 16 * 32);
  const uint64_t volta_b = run_cycles(volta, independent_adds(128), "adds", 1, 16 * 32);
  EXPECT_EQ(volta_b - volta_a, 16u * 64 * 2 / 4);
}

// m independent shared loads per thread at a stride of `stride` words.
std::string shared_loads(int m, int stride) {
  std::string s = R"(
.visible .entry shared_loads(.param .u64 out)
{
.shared .align 4 .b8 buf[4096];
.reg .b32 %r<80>;
mov.u32 %r1, %tid.x;
mul.lo.u32 %r2, %r1, )" +
                  std::to_string(4 * stride) + R"(;
mov.u32 %r3, buf;
add.u32 %r4, %r3, %r2;
)";
  for (int i = 0; i < m; ++i) s += "ld.shared.u32 %r" + std::to_string(10 + i) + ", [%r4];\n";
  return s + "ret;\n}\n";
}

TEST(CycleSm, KWayBankConflictCostsKPasses) {
  // 32 banks; the LSU takes a warp instruction per cycle, so the banks set the pace.
  const auto config = sm_config({"sm.shared_banks=32", "sm.unit.lsu.lanes=32"});
  for (int k : {1, 2, 4, 8, 16, 32}) {
    const uint64_t few = run_cycles(config, shared_loads(16, k), "shared_loads", 1, 32);
    const uint64_t many = run_cycles(config, shared_loads(64, k), "shared_loads", 1, 32);
    EXPECT_EQ(many - few, 48u * k) << k << "-way";
  }
  // Volta replays each further pass in two cycles (sm.shared_replay_cycles): 1 + 2 (k - 1).
  const auto volta =
      sm_config({"sm.shared_banks=32", "sm.unit.lsu.lanes=32", "sm.shared_replay_cycles=2"});
  for (int k : {1, 2, 4, 8, 16, 32}) {
    const uint64_t few = run_cycles(volta, shared_loads(16, k), "shared_loads", 1, 32);
    const uint64_t many = run_cycles(volta, shared_loads(64, k), "shared_loads", 1, 32);
    EXPECT_EQ(many - few, 48u * (2 * k - 1)) << k << "-way";
  }
}

TEST(CycleSm, MioQueuesMakeTheBlocksLsuLanesOnePipe) {
  // Four processing blocks of 8 load/store lanes. Each with an LSU of its own, one warp's shared
  // loads issue one per 4 cycles; with MIO queues the 32 lanes are one SM-wide pipe, a warp
  // instruction a cycle, which one warp alone fills. Four warps (one a block) are held to the
  // banks' warp access a cycle either way.
  for (int depth : {0, 1, 2, 8}) {
    const auto config =
        sm_config({"sm.processing_blocks=4", "sm.shared_banks=32", "sm.unit.lsu.lanes=8",
                   "sm.lsu.mio_queue=" + std::to_string(depth)});
    const uint64_t one_few = run_cycles(config, shared_loads(16, 1), "shared_loads", 1, 32);
    const uint64_t one_many = run_cycles(config, shared_loads(64, 1), "shared_loads", 1, 32);
    EXPECT_EQ(one_many - one_few, 48u * (depth == 0 ? 4 : 1)) << "depth " << depth;
    const uint64_t four_few = run_cycles(config, shared_loads(16, 1), "shared_loads", 1, 128);
    const uint64_t four_many = run_cycles(config, shared_loads(64, 1), "shared_loads", 1, 128);
    EXPECT_EQ(four_many - four_few, 4u * 48) << "depth " << depth;
  }
}

// One load per thread at a stride of `stride` 32-bit words.
std::string strided_load(int stride) {
  return R"(
.visible .entry strided(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [out];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd2, %r1, )" +
         std::to_string(4 * stride) + R"(;
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r2, [%rd3];
ret;
}
)";
}

TEST(CycleSm, StridedAccessTouchesExactlyTheSectorsItSpans) {
  for (int stride : {1, 2, 3, 4, 8, 16, 32, 33}) {
    testing::fresh_systemc();
    Bench bench("bench", sm_config({}));  // Tesla: no L1, every line goes out
    ASSERT_EQ(bench.run(strided_load(stride), "strided", 1, 32).error, cmd::ErrorCode::None);
    std::set<uint64_t> sectors, lines;
    for (uint64_t lane = 0; lane < 32; ++lane) {
      const uint64_t address = ptx::kGlobalBase + lane * 4 * uint64_t(stride);
      sectors.insert(address / 32);
      lines.insert(address / 128);
    }
    // A request per line spans its first to its last sector.
    uint64_t span_bytes = 0;
    for (uint64_t line : lines) {
      auto first = sectors.lower_bound(line * 4), last = sectors.lower_bound(line * 4 + 4);
      span_bytes += 32 * (*std::prev(last) - *first + 1);
    }
    const sm::CycleStats& s = bench.sms[0]->stats();
    EXPECT_EQ(s.global_accesses.value(), 1u);
    EXPECT_EQ(s.global_sectors.value(), sectors.size()) << "stride " << stride;
    EXPECT_EQ(s.memory_requests.value(), lines.size()) << "stride " << stride;
    EXPECT_EQ(s.memory_bytes.value(), span_bytes) << "stride " << stride;
    EXPECT_EQ(bench.vram.stats().bytes_read.value(), span_bytes) << "stride " << stride;
  }
}

// k steps of a pointer chase, then the final pointer is stored at out + 64.
std::string pointer_chase(int k) {
  return R"(
.visible .entry chase(.param .u64 out)
{
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [out];
mov.u64 %rd2, %rd1;
)" + repeat("ld.global.u64 %rd2, [%rd2];\n", k) +
         "st.global.u64 [%rd1+64], %rd2;\nret;\n}\n";
}

TEST(CycleSm, PointerChaseThroughL1TakesTheHitLatencyPerStep) {
  const auto config = sm_config({"sm.l1.size_bytes=16384", "sm.l1.hit_latency=28"});
  uint64_t duration[2];
  const int steps[2] = {9, 41};  // both end on the same entry
  for (int i = 0; i < 2; ++i) {
    testing::fresh_systemc();
    Bench bench("bench", config);
    // Four pointers in one 32-byte sector, each to the next, the last back to the first.
    for (uint64_t e = 0; e < 4; ++e) {
      const uint64_t next = ptx::kGlobalBase + 8 * ((e + 1) % 4);
      std::memcpy(bench.at(8 * e), &next, 8);
    }
    duration[i] = cycles(bench.run(pointer_chase(steps[i]), "chase", 1, 1));
    uint64_t last = 0;
    std::memcpy(&last, bench.at(64), 8);
    EXPECT_EQ(last, ptx::kGlobalBase + 8 * (steps[i] % 4));
    const sm::CycleStats& s = bench.sms[0]->stats();
    EXPECT_EQ(s.l1_misses.value(), 1u);  // only the first step goes to memory
    EXPECT_EQ(s.l1_hits.value(), uint64_t(steps[i] - 1));
  }
  EXPECT_EQ(duration[1] - duration[0], 32u * 28);
}

const char* kBarrierKernel = R"(
.visible .entry sum(.param .u64 out)
{
.shared .align 4 .b8 tile[1024];
.reg .pred %p<2>;
.reg .b32 %r<10>;
.reg .b64 %rd<6>;
ld.param.u64 %rd1, [out];
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mad.lo.u32 %r4, %r2, %r3, %r1;
mul.wide.u32 %rd2, %r4, 4;
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r5, [%rd3];
shl.b32 %r6, %r1, 2;
mov.u32 %r7, tile;
add.u32 %r8, %r7, %r6;
st.shared.u32 [%r8], %r5;
bar.sync 0;
setp.ne.u32 %p1, %r1, 0;
@%p1 bra DONE;
mov.u32 %r9, 0;
LOOP:
sub.u32 %r3, %r3, 1;
shl.b32 %r6, %r3, 2;
add.u32 %r8, %r7, %r6;
ld.shared.u32 %r5, [%r8];
add.u32 %r9, %r9, %r5;
setp.ne.u32 %p1, %r3, 0;
@%p1 bra LOOP;
mul.wide.u32 %rd4, %r2, 4;
add.s64 %rd5, %rd1, %rd4;
st.global.u32 [%rd5+65536], %r9;
DONE:
ret;
}
)";

/// Runs the block-sum kernel over 8 CTAs of 128 threads and returns the statistics as JSON.
std::string run_block_sums(const std::string& scheduler) {
  testing::fresh_systemc();
  Bench bench("bench", sm_config({"sm.scheduler=" + scheduler, "sm.l1.size_bytes=16384"}), 2);
  for (uint32_t i = 0; i < 1024; ++i) std::memcpy(bench.at(4 * i, 4), &i, 4);
  const GridResult r = bench.run(kBarrierKernel, "sum", 8, 128);
  EXPECT_EQ(r.error, cmd::ErrorCode::None) << r.message;
  for (uint32_t b = 0; b < 8; ++b) {
    uint32_t expected = 0, got = 0;
    for (uint32_t i = 0; i < 128; ++i) expected += b * 128 + i;
    std::memcpy(&got, bench.at(65536 + 4 * b, 4), 4);
    EXPECT_EQ(got, expected) << scheduler << " block " << b;
  }
  return stats_to_json(bench.stats).dump() + std::to_string(r.stats.end_ps);
}

TEST(CycleSm, EverySchedulerComputesTheSameSumsAndRunsAreIdentical) {
  for (const char* scheduler : {"lrr", "gto", "two_level"}) {
    const std::string first = run_block_sums(scheduler);
    EXPECT_EQ(run_block_sums(scheduler), first) << scheduler;
  }
}

TEST(CycleSm, FaultFailsTheLaunchAndTheSmGoesOn) {
  testing::fresh_systemc();
  Bench bench("bench", sm_config({}));
  auto program = load_ptx(std::string(R"(
.visible .entry faulty(.param .u64 out)
{
.reg .b64 %rd<2>;
.reg .b32 %r<2>;
mov.u64 %rd1, 16;
ld.global.u32 %r1, [%rd1];
ret;
}
)") + fma_chain(3));
  GridResult fault, after;
  simulate([&] {
    fault = bench.dispatcher.run_grid(grid_request(program, "faulty", 4, 64));
    after = bench.dispatcher.run_grid(grid_request(program, "fma_chain", 1, 32));
  });
  EXPECT_EQ(fault.error, cmd::ErrorCode::LaunchFailed);
  EXPECT_NE(fault.message.find("0x10"), std::string::npos) << fault.message;
  EXPECT_EQ(after.error, cmd::ErrorCode::None) << after.message;
}

// Between an SM and device memory: data moves through DMI as usual, but every timing request is
// accepted (END_REQ) and never answered: a memory target that loses its replies.
struct ReplyDropper : sc_core::sc_module {
  tlm_utils::simple_target_socket<ReplyDropper> target{"target"};
  tlm_utils::simple_initiator_socket<ReplyDropper> initiator{"initiator"};
  explicit ReplyDropper(sc_core::sc_module_name name) : sc_module(name) {
    target.register_nb_transport_fw(this, &ReplyDropper::nb_transport_fw);
    target.register_b_transport(this, &ReplyDropper::b_transport);
    target.register_get_direct_mem_ptr(this, &ReplyDropper::get_direct_mem_ptr);
    target.register_transport_dbg(this, &ReplyDropper::transport_dbg);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_time&) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
    tx.acquire();  // held forever
    ++dropped;
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
    initiator->b_transport(tx, delay);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
    return initiator->get_direct_mem_ptr(tx, dmi);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& tx) { return initiator->transport_dbg(tx); }
  uint32_t dropped = 0;
};

TEST(CycleSm, LostMemoryRepliesFailTheLaunchWithAReportOfItsWarps) {
  testing::fresh_systemc();
  StatGroup stats;
  MemoryTarget vram("vram", Bench::vram_config(0), stats);
  ReplyDropper dropper("dropper");
  sm::CycleSm sm("sm0", 0, sm_config({"sm.cycle.watchdog_reply_cycles=10000"}), stats);
  sm.mem_initiator.bind(dropper.target);
  dropper.initiator.bind(vram.target);
  gigathread::CtaDispatcher dispatcher("gigathread", Bench::dispatcher_config(1, sm_config({})),
                                       stats);
  dispatcher.add_sm(sm);
  auto program = load_ptx(R"(
.visible .entry copy_one(.param .u64 out)
{
.reg .b64 %rd<2>;
.reg .b32 %r<2>;
ld.param.u64 %rd1, [out];
ld.global.u32 %r1, [%rd1];
st.global.u32 [%rd1+4], %r1;
ret;
}
)");
  GridResult r;
  sc_time failed_at;
  simulate([&] {
    r = dispatcher.run_grid(grid_request(program, "copy_one", 1, 64));
    failed_at = sc_core::sc_time_stamp();
  });
  EXPECT_EQ(r.error, cmd::ErrorCode::LaunchFailed);
  EXPECT_NE(r.message.find("kernel 'copy_one' block (0,0,0): watchdog: SM 0 got no memory reply "
                           "for 10000 cycles (sm.cycle.watchdog_reply_cycles) with 2 requests "
                           "outstanding: lost replies; its warps:"),
            std::string::npos)
      << r.message;
  // Both warps wait at the store (test.ptx line 11), which needs the loaded value.
  EXPECT_NE(r.message.find("\n  warp 0 at test.ptx:11"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("\n  warp 1 at test.ptx:11"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("; waits for 1 memory replies"), std::string::npos) << r.message;
  EXPECT_EQ(dropper.dropped, 2u);
  // Reported once the limit has passed since the requests went out, not before.
  EXPECT_GE(failed_at, sc_time(10000.0 * kCyclePs, sc_core::SC_PS));
  EXPECT_LT(failed_at, sc_time(11000.0 * kCyclePs, sc_core::SC_PS));
}

TEST(CycleSm, DeviceMemoryMayRevokeDmiAndGrantItElsewhereWhileKernelsRun) {
  testing::fresh_systemc();
  StatGroup stats;
  MemoryTarget vram("vram", Bench::vram_config(0), stats);
  testing::DmiMover mover("mover", 100);
  sm::CycleSm sm("sm0", 0, sm_config({}), stats);
  sm.mem_initiator.bind(mover.target);
  mover.initiator.bind(vram.target);
  gigathread::CtaDispatcher dispatcher("gigathread", Bench::dispatcher_config(1, sm_config({})),
                                       stats);
  dispatcher.add_sm(sm);
  testing::expect_results_in_moved_memory(dispatcher, vram, mover);
}

// The quantum is the SM's own parameter, else the platform's tlm_global_quantum, else 1 us,
// resolved when simulation starts (the platform may set the global one after building the SMs).
TEST(CycleSm, TheQuantumIsItsOwnElseThePlatformsGlobalOneElseAMicrosecond) {
  for (const testing::QuantumCase& c : testing::quantum_cases()) {
    testing::fresh_systemc();
    StatGroup stats;
    MemoryTarget vram("vram", Bench::vram_config(0), stats);
    const std::string own = "sm.cycle.quantum_ns=" + std::to_string(c.own_ns);
    sm::CycleSm sm("sm0", 0, sm_config({own}), stats);
    sm.mem_initiator.bind(vram.target);
    tlm::tlm_global_quantum::instance().set(c.global);  // after the SM was built
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(sm.quantum(), c.expected) << own << ", global " << c.global;
  }
  tlm::tlm_global_quantum::instance().set(sc_core::SC_ZERO_TIME);
}

TEST(CycleSm, StallReasonsAccountForEverySchedulerCycle) {
  testing::fresh_systemc();
  Bench bench("bench", sm_config({"sm.l1.size_bytes=16384"}), 2);
  for (uint32_t i = 0; i < 1024; ++i) std::memcpy(bench.at(4 * i, 4), &i, 4);
  ASSERT_EQ(bench.run(kBarrierKernel, "sum", 8, 128).error, cmd::ErrorCode::None);
  auto accounted = [](const sm::CycleStats& s) {
    return s.warp_instructions.value() + s.stall_memory.value() + s.stall_dependency.value() +
           s.stall_barrier.value() + s.stall_pipeline.value() + s.stall_no_warp.value();
  };
  // The one kernel is charged exactly what the SMs count.
  const sm::CycleStats& kernel = bench.kernels.of("sum");
  uint64_t instructions = 0, slots = 0, accounted_slots = 0, sectors = 0;
  for (const auto& sm : bench.sms) {
    const sm::CycleStats& s = sm->stats();
    EXPECT_GT(s.cycles.value(), 0u);
    EXPECT_EQ(s.issue_slots.value(), s.cycles.value());  // one block
    EXPECT_EQ(accounted(s), s.issue_slots.value());
    instructions += s.warp_instructions.value();
    slots += s.issue_slots.value();
    accounted_slots += accounted(s);
    sectors += s.global_sectors.value();
  }
  EXPECT_EQ(kernel.warp_instructions.value(), instructions);
  EXPECT_EQ(kernel.issue_slots.value(), slots);
  EXPECT_EQ(accounted(kernel), accounted_slots);
  EXPECT_EQ(kernel.global_sectors.value(), sectors);
  EXPECT_EQ(kernel.ctas.value(), 8u);
}

// n barriers in a row, each holding the warp from its arrival to its release.
std::string barriers(int n) {
  return ".visible .entry barriers(.param .u64 out)\n{\n" + repeat("bar.sync 0;\n", n) +
         "ret;\n}\n";
}

TEST(CycleSm, BarrierLaunchAndRetireCostsAreCharged) {
  // A barrier instruction occupies the branch unit and holds its warp for max(branch latency,
  // barrier cycles): a one-cycle, full-width branch unit leaves the barrier's own cost.
  const std::string fast_branch = "sm.unit.branch.latency=1";
  const std::string wide_branch = "sm.unit.branch.lanes=32";
  const auto base = sm_config({fast_branch, wide_branch, "sm.barrier_cycles=2"});
  const uint64_t plain = run_cycles(base, barriers(10), "barriers", 1, 32);
  const auto slow_barriers = sm_config({fast_branch, wide_branch, "sm.barrier_cycles=12"});
  EXPECT_EQ(run_cycles(slow_barriers, barriers(10), "barriers", 1, 32) - plain, 10u * 10);
  const auto slow_start = sm_config({fast_branch, wide_branch, "sm.barrier_cycles=2",
                                     "sm.cta_launch_cycles=50", "sm.cta_retire_cycles=30"});
  EXPECT_EQ(run_cycles(slow_start, barriers(10), "barriers", 1, 32) - plain, 50u + 30);
}

TEST(CycleSm, BackpressureHoldsRequestsUntilEndReqWithoutLosingAny) {
  // Device memory takes two requests at a time: the rest wait for END_REQ on the backward path.
  testing::fresh_systemc();
  Bench bench("bench", sm_config({}), 1, 2);
  const GridResult r = bench.run(strided_load(32), "strided", 1, 32);
  ASSERT_EQ(r.error, cmd::ErrorCode::None) << r.message;
  EXPECT_EQ(bench.sms[0]->stats().memory_requests.value(), 32u);
  EXPECT_EQ(bench.vram.stats().reads.value(), 32u);
  EXPECT_GT(bench.sms[0]->stats().port_stalls.value(), 0u);
  EXPECT_EQ(bench.bindings.violations(), 0u);
  // Unlimited, the 32 requests leave a cycle apart and the last lands at 31 + 400. Two at a time,
  // each refused one is accepted (END_REQ) when the older of the two in service completes and
  // takes the whole latency from then: pairs land every 400 cycles, the last at 15 x 400 + 401.
  testing::fresh_systemc();
  Bench free_bench("bench", sm_config({}), 1, 0);
  const uint64_t unlimited = cycles(free_bench.run(strided_load(32), "strided", 1, 32));
  EXPECT_EQ(cycles(r) - unlimited, (15u * 400 + 401) - (31 + 400));
}

TEST(CycleSm, StoresAllocateInTheL1OnlyWhenConfiguredTo) {
  const std::string store_then_load = R"(
.visible .entry store_load(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [out];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r1;
ld.global.u32 %r2, [%rd3];
st.global.u32 [%rd3+128], %r2;
ret;
}
)";
  for (const bool allocate : {false, true}) {
    testing::fresh_systemc();
    Bench bench("bench", sm_config({"sm.l1.size_bytes=16384", std::string("sm.l1.write_allocate=") +
                                                                  (allocate ? "true" : "false")}));
    ASSERT_EQ(bench.run(store_then_load, "store_load", 1, 32).error, cmd::ErrorCode::None);
    const sm::CycleStats& s = bench.sms[0]->stats();
    EXPECT_EQ(s.l1_hits.value(), allocate ? 1u : 0u) << allocate;
    EXPECT_EQ(s.l1_misses.value(), allocate ? 0u : 1u) << allocate;
    uint32_t value = 0;
    std::memcpy(&value, bench.at(128 + 4 * 7, 4), 4);
    EXPECT_EQ(value, 7u);
  }
}

TEST(CycleSm, InFlightCapSerializesMisses) {
  // A stride of 32 words puts each lane's load in a line of its own: 32 requests. With one in
  // flight each waits for the last to land (400 cycles each); with 64, they leave a cycle apart.
  const auto one = sm_config({"sm.lsu.max_in_flight=1"});
  const auto many = sm_config({"sm.lsu.max_in_flight=64"});
  const uint64_t serial = run_cycles(one, strided_load(32), "strided", 1, 32);
  const uint64_t pipelined = run_cycles(many, strided_load(32), "strided", 1, 32);
  EXPECT_EQ(serial - pipelined, 31u * (kMemoryLatencyPs / kCyclePs - 1));
}

TEST(CycleSm, AWarpEndingWithoutRetDeadlocksABarrierAndTheLaunchFails) {
  // Warp 1 falls off the end of the kernel; warp 0 waits for 64 threads at barrier 1 forever.
  testing::fresh_systemc();
  Bench bench("bench", sm_config({}));
  const GridResult r = bench.run(R"(
.visible .entry fall_off(.param .u64 out)
{
.reg .pred %p<2>;
.reg .b32 %r<2>;
mov.u32 %r1, %tid.x;
setp.ge.u32 %p1, %r1, 32;
@%p1 bra SKIP;
bar.sync 1, 64;
SKIP:
mov.u32 %r1, 0;
}
)",
                                 "fall_off", 1, 64);
  EXPECT_EQ(r.error, cmd::ErrorCode::LaunchFailed);
  EXPECT_NE(r.message.find("deadlock at barrier 1"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace gpusoc
