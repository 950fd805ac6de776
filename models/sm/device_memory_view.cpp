#include "models/sm/device_memory_view.h"

#include <string>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/ptx/address_space.h"

namespace gpusoc::sm {
namespace {

SparseMemory::Region request_vram(tlm::tlm_fw_transport_if<>& memory, const std::string& who,
                                  bool again) {
  tlm::tlm_generic_payload probe;
  probe.set_command(tlm::TLM_READ_COMMAND);
  probe.set_address(ptx::kGlobalBase);
  tlm::tlm_dmi dmi;
  if (!memory.get_direct_mem_ptr(probe, dmi) || !dmi.is_read_write_allowed() ||
      dmi.get_start_address() != ptx::kGlobalBase) {
    throw ModelError(who, fmt::format("device memory must grant read/write DMI from 0x{:x}{}: "
                                      "the SM moves data through it",
                                      ptx::kGlobalBase, again ? " again after revoking it" : ""));
  }
  return {dmi.get_start_address(), dmi.get_dmi_ptr(),
          dmi.get_end_address() - dmi.get_start_address() + 1};
}

}  // namespace

std::unique_ptr<SparseMemory> map_device_memory(tlm::tlm_fw_transport_if<>& memory,
                                                const char* who) {
  const SparseMemory::Region region = request_vram(memory, who, false);
  return std::make_unique<SparseMemory>(
      region.base, region.host, region.size,
      [&memory, name = std::string(who)] { return request_vram(memory, name, true); });
}

}  // namespace gpusoc::sm
