#include "models/sm/device_memory_view.h"

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/ptx/address_space.h"

namespace gpusoc::sm {

std::unique_ptr<SparseMemory> map_device_memory(tlm::tlm_fw_transport_if<>& memory,
                                                const char* who) {
  tlm::tlm_generic_payload probe;
  probe.set_command(tlm::TLM_READ_COMMAND);
  probe.set_address(ptx::kGlobalBase);
  tlm::tlm_dmi dmi;
  if (!memory.get_direct_mem_ptr(probe, dmi) || !dmi.is_read_write_allowed() ||
      dmi.get_start_address() != ptx::kGlobalBase) {
    throw ModelError(who, fmt::format("device memory must grant read/write DMI from 0x{:x}: "
                                      "the SM moves data through it",
                                      ptx::kGlobalBase));
  }
  return std::make_unique<SparseMemory>(dmi.get_start_address(), dmi.get_dmi_ptr(),
                                        dmi.get_end_address() - dmi.get_start_address() + 1);
}

}  // namespace gpusoc::sm
