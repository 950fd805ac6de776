// The SMs' functional view of device memory: a direct (DMI) pointer to all of VRAM, asked for
// through the SM's memory socket. The SMs move data through it; their transactions only carry
// timing. Device memory may revoke the pointer (invalidate_direct_mem_ptr: the SM calls the
// view's revoke()): the view asks for it again at its next access, wherever it now points.
// Device memory that refuses read/write DMI from ptx::kGlobalBase is a ModelError.
#pragma once

#include <memory>

#include <tlm>

#include "models/common/sparse_memory.h"

namespace gpusoc::sm {

std::unique_ptr<SparseMemory> map_device_memory(tlm::tlm_fw_transport_if<>& memory,
                                                const char* who);

}  // namespace gpusoc::sm
