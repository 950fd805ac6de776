// Channels and the host racing each other: two channels loading modules at the same time, and
// a channel disabled and enabled again while a ring fetch is under way.
#include <gtest/gtest.h>

#include <cstring>

#include "tests/unit/gigathread/testbench.h"
#include "tests/unit/gigathread/tiny_module.h"

namespace gpusoc::gigathread::testing {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

const char* kNoGlobals = R"(
.version 7.0
.target sm_80
.address_size 64
.visible .entry other()
{
	ret;
}
)";

// The first module writes initializers to VRAM (a wait); the second, with no variables, does
// not, and finishes during that wait. Each must still get its own module id and handles.
TEST(Concurrency, ModulesLoadedAtOnceOnTwoChannelsGetDistinctIds) {
  Testbench tb;
  Testbench::LoadResult a, b;
  tb.run([&] {
    tb.enable(0);
    tb.enable(1);
    auto put_text = [&](uint64_t at, const char* t) {
      std::memcpy(tb.vram.backdoor(at, strlen(t) + 1), t, strlen(t) + 1);
    };
    const uint64_t ta = Testbench::kVramBase + 0x100000, tb2 = Testbench::kVramBase + 0x200000;
    put_text(ta, kTinyModule);
    put_text(tb2, kNoGlobals);
    const uint64_t ra = tb.alloc(65536), rb = tb.alloc(65536);
    const uint64_t da = tb.alloc(8), db = tb.alloc(8);
    tb.push(0, packet(cmd::Opcode::ModuleLoad, {ta, strlen(kTinyModule) + 1, ra, 65536}));
    tb.push(0, fence(da, 1));
    tb.push(1, packet(cmd::Opcode::ModuleLoad, {tb2, strlen(kNoGlobals) + 1, rb, 65536}));
    tb.push(1, fence(db, 1));
    tb.submit(0);
    tb.submit(1);
    tb.wait_value(da, 1);
    tb.wait_value(db, 1);
    a = tb.read_result(ra);
    b = tb.read_result(rb);
  });
  ASSERT_EQ(a.header.status, 0u);
  ASSERT_EQ(b.header.status, 0u);
  EXPECT_NE(a.header.module_id, b.header.module_id);
  EXPECT_NE(a.kernels.at(0).handle, b.kernels.at(0).handle);
  EXPECT_EQ(a.kernels.at(0).handle >> 32, a.header.module_id);
  EXPECT_EQ(b.kernels.at(0).handle >> 32, b.header.module_id);
}

// A batch fetched from the old ring must not move GET on the new one, or packets never
// submitted there (left over in ring memory) would run.
TEST(Concurrency, ReenablingDuringAFetchStartsTheNewRingAtZero) {
  Testbench tb;
  uint64_t new_fence = 0, stale_fence = 0;
  uint32_t get_after = 0;
  tb.run([&] {
    const uint64_t dn = tb.alloc(8), ds = tb.alloc(8);
    tb.enable(0);
    for (int i = 0; i < 5; ++i) tb.push(0, packet(cmd::Opcode::Nop, {}));
    tb.submit(0);  // the fetch of 5 packets takes the host latency
    sc_core::wait(sc_time(10, SC_NS));
    tb.driver.write_reg(0, bar0::CH_CONTROL, 0);
    tb.enable(0);
    const cmd::Packet stale = fence(ds, 42);  // in ring memory, never submitted on the new ring
    std::memcpy(tb.host.backdoor(tb.ring_base(0) + 5 * 64, 64), &stale, 64);
    tb.push(0, fence(dn, 1));
    tb.submit(0);
    sc_core::wait(sc_time(50, SC_US));
    get_after = tb.reg(0, bar0::CH_GET);
    new_fence = tb.peek<uint64_t>(dn);
    stale_fence = tb.peek<uint64_t>(ds);
  });
  EXPECT_EQ(new_fence, 1u);
  EXPECT_EQ(stale_fence, 0u);
  EXPECT_EQ(get_after, 64u);
}

}  // namespace
}  // namespace gpusoc::gigathread::testing
