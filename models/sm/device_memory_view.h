// The SMs' functional view of device memory: a direct (DMI) pointer to all of VRAM, asked for once
// through the SM's memory socket. The SMs move data through it; their transactions only carry
// timing. Device memory that refuses read/write DMI from ptx::kGlobalBase is a ModelError.
#pragma once

#include <memory>

#include <tlm>

#include "models/common/sparse_memory.h"

namespace gpusoc::sm {

std::unique_ptr<SparseMemory> map_device_memory(tlm::tlm_fw_transport_if<>& memory,
                                                const char* who);

}  // namespace gpusoc::sm
