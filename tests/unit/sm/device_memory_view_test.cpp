// The SMs' DMI view of VRAM: granted once, asked for again after a revocation, and refused with
// a ModelError naming the SM when device memory grants less than it did, or nothing.
#include "models/sm/device_memory_view.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/common/error.h"
#include "models/ptx/address_space.h"

namespace gpusoc::sm {
namespace {

// Device memory that grants `sizes[i]` bytes of `store` at its i-th DMI request (0: refuses).
struct Grants : tlm::tlm_fw_transport_if<> {
  std::vector<uint64_t> sizes;
  std::vector<uint8_t> store = std::vector<uint8_t>(64 << 10, 7);
  size_t asked = 0;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) override {
    const uint64_t size = sizes.at(asked++);
    if (size == 0) return false;
    dmi.set_dmi_ptr(store.data());
    dmi.set_start_address(ptx::kGlobalBase);
    dmi.set_end_address(ptx::kGlobalBase + size - 1);
    dmi.allow_read_write();
    return true;
  }
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {}
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_core::sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};

void expect_model_error_naming_sm(SparseMemory& view, const std::string& says) {
  try {
    view.page_pointer(ptx::kGlobalBase);
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.module(), "sm3");
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(DeviceMemoryView, AGrantAfterARevocationMustCoverWhatTheFirstDid) {
  Grants memory;
  memory.sizes = {64 << 10, 64 << 10, 32 << 10};
  auto view = map_device_memory(memory, "sm3");
  EXPECT_EQ(*view->page_pointer(ptx::kGlobalBase + 5), 7);
  view->revoke(ptx::kGlobalBase, ptx::kGlobalBase);
  EXPECT_EQ(*view->page_pointer(ptx::kGlobalBase + 5), 7);  // the same size again: fine
  EXPECT_EQ(memory.asked, 2u);
  view->revoke(ptx::kGlobalBase, ptx::kGlobalBase);
  expect_model_error_naming_sm(*view, "granted DMI over 32768 bytes");
}

TEST(DeviceMemoryView, ARefusalAfterARevocationIsAModelErrorNamingTheSm) {
  Grants memory;
  memory.sizes = {64 << 10, 0};
  auto view = map_device_memory(memory, "sm3");
  view->revoke(0, ~uint64_t(0));
  expect_model_error_naming_sm(*view, "again after revoking it");
}

}  // namespace
}  // namespace gpusoc::sm
