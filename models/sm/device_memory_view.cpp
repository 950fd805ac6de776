#include "models/sm/device_memory_view.h"

#include <string>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/ptx/address_space.h"

namespace gpusoc::sm {
namespace {

// VRAM as device memory grants it. Granted again after a revocation, it must still cover what
// the first grant did: a smaller region would turn the SM's accesses into kernel faults.
SparseMemory::Region request_vram(tlm::tlm_fw_transport_if<>& memory, const std::string& who,
                                  uint64_t at_least) {
  tlm::tlm_generic_payload probe;
  probe.set_command(tlm::TLM_READ_COMMAND);
  probe.set_address(ptx::kGlobalBase);
  tlm::tlm_dmi dmi;
  const char* again = at_least ? " again after revoking it" : "";
  if (!memory.get_direct_mem_ptr(probe, dmi) || !dmi.is_read_write_allowed() ||
      dmi.get_dmi_ptr() == nullptr || dmi.get_start_address() != ptx::kGlobalBase) {
    throw ModelError(who, fmt::format("device memory must grant read/write DMI from 0x{:x}{}: "
                                      "the SM moves data through it",
                                      ptx::kGlobalBase, again));
  }
  const uint64_t size = dmi.get_end_address() - dmi.get_start_address() + 1;
  if (size < at_least) {
    throw ModelError(who, fmt::format("device memory granted DMI over {} bytes from 0x{:x}{}, "
                                      "less than the {} it granted first",
                                      size, ptx::kGlobalBase, again, at_least));
  }
  return {dmi.get_start_address(), dmi.get_dmi_ptr(), size};
}

}  // namespace

std::unique_ptr<SparseMemory> map_device_memory(tlm::tlm_fw_transport_if<>& memory,
                                                const char* who) {
  const SparseMemory::Region region = request_vram(memory, who, 0);
  return std::make_unique<SparseMemory>(
      region.base, region.host, region.size,
      [memory = &memory, name = std::string(who), size = region.size] {
        return request_vram(*memory, name, size);
      });
}

}  // namespace gpusoc::sm
