// The gpusoc host runtime: a C++ API in the spirit of the CUDA driver API for host programs that
// run on the simulated host CPU (see docs/runtime.md). Include this one header.
#pragma once

#include "sw/runtime/buffers.h"
#include "sw/runtime/device.h"
#include "sw/runtime/event.h"
#include "sw/runtime/module.h"
#include "sw/runtime/status.h"
#include "sw/runtime/stream.h"
#include "sw/runtime/texture.h"
#include "sw/runtime/types.h"
