// Between an SM and device memory, a target that remaps its backing store mid-run: it forwards
// every transaction, and once `move_after` timing requests have passed it copies all of device
// memory into a buffer of its own, revokes DMI on the backward path (invalidate_direct_mem_ptr)
// and from then on grants that buffer instead. An SM that kept the old pointer would write its
// results where nobody looks any more.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/memory_target.h"
#include "models/gigathread/cta_dispatcher.h"
#include "models/ptx/address_space.h"
#include "tests/unit/sm/sm_test_support.h"

namespace gpusoc::testing {

struct DmiMover : sc_core::sc_module {
  tlm_utils::simple_target_socket<DmiMover> target{"target"};
  tlm_utils::simple_initiator_socket<DmiMover> initiator{"initiator"};

  DmiMover(sc_core::sc_module_name name, uint32_t move_after)
      : sc_module(name), move_after_(move_after) {
    target.register_b_transport(this, &DmiMover::b_transport);
    target.register_nb_transport_fw(this, &DmiMover::nb_transport_fw);
    target.register_get_direct_mem_ptr(this, &DmiMover::get_direct_mem_ptr);
    target.register_transport_dbg(this, &DmiMover::transport_dbg);
    initiator.register_nb_transport_bw(this, &DmiMover::nb_transport_bw);
  }

  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    initiator->b_transport(tx, delay);
    counted();
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    const bool request = phase == tlm::BEGIN_REQ;
    const tlm::tlm_sync_enum status = initiator->nb_transport_fw(tx, phase, delay);
    if (request) counted();
    return status;
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    return target->nb_transport_bw(tx, phase, delay);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
    ++grants;
    if (!has_moved) return initiator->get_direct_mem_ptr(tx, dmi);
    dmi.set_dmi_ptr(moved.data());
    dmi.set_start_address(ptx::kGlobalBase);
    dmi.set_end_address(ptx::kGlobalBase + moved.size() - 1);
    dmi.allow_read_write();
    return true;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& tx) { return initiator->transport_dbg(tx); }

  std::vector<uint8_t> moved;
  bool has_moved = false;
  uint32_t requests = 0, grants = 0;

 private:
  void counted() {
    if (++requests != move_after_) return;
    tlm::tlm_generic_payload probe;
    probe.set_address(ptx::kGlobalBase);
    tlm::tlm_dmi dmi;
    if (!initiator->get_direct_mem_ptr(probe, dmi)) SC_REPORT_FATAL("DmiMover", "no DMI to move");
    moved.assign(dmi.get_dmi_ptr(),
                 dmi.get_dmi_ptr() + (dmi.get_end_address() - dmi.get_start_address() + 1));
    has_moved = true;
    target->invalidate_direct_mem_ptr(0, ~sc_dt::uint64(0));
  }

  uint32_t move_after_;
};

// Runs out[i] = 2 * out[i + 4096] + 1 for 4096 threads (16 CTAs of 256, the input 16 KB above
// the output: one load and one store a thread) on the dispatcher's SM, which reaches `vram`
// through `mover`. Every result must be in the moved memory, and some missing from the old
// one: the SM wrote them after the move, through the pointer it asked for again.
inline void expect_results_in_moved_memory(gigathread::CtaDispatcher& dispatcher,
                                           MemoryTarget& vram, const DmiMover& mover) {
  uint8_t* const memory = vram.backdoor(ptx::kGlobalBase, 2 * 4096 * 4);
  for (uint32_t i = 0; i < 4096; ++i) {
    const uint32_t v = 3 * i;
    std::memcpy(memory + 16384 + 4 * i, &v, 4);
  }
  const auto program = load_ptx(R"(
.visible .entry twice(.param .u64 out)
{
.reg .b64 %rd<4>;
.reg .b32 %r<7>;
ld.param.u64 %rd1, [out];
mov.u32 %r1, %ctaid.x;
mov.u32 %r2, %ntid.x;
mov.u32 %r3, %tid.x;
mad.lo.s32 %r4, %r1, %r2, %r3;
mul.wide.u32 %rd2, %r4, 4;
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r5, [%rd3+16384];
mad.lo.s32 %r6, %r5, 2, 1;
st.global.u32 [%rd3], %r6;
ret;
}
)");
  gigathread::GridResult r;
  simulate([&] { r = dispatcher.run_grid(grid_request(program, "twice", 16, 256)); });
  ASSERT_EQ(r.error, cmd::ErrorCode::None) << r.message;
  ASSERT_TRUE(mover.has_moved) << mover.requests << " requests";
  EXPECT_EQ(mover.grants, 2u);  // the first view, then the moved one
  uint32_t missing_from_old = 0;
  for (uint32_t i = 0; i < 4096; ++i) {
    uint32_t got = 0, old = 0;
    std::memcpy(&got, mover.moved.data() + 4 * i, 4);
    std::memcpy(&old, memory + 4 * i, 4);
    ASSERT_EQ(got, 6 * i + 1) << "element " << i;
    missing_from_old += old != 6 * i + 1;
  }
  EXPECT_GT(missing_from_old, 0u);
}

}  // namespace gpusoc::testing
