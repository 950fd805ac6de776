// ast::Module -> Program: resolves every name once (registers, labels, variables, functions),
// lays out frames, shared memory and parameter buffers, picks each instruction's handler and
// computes reconvergence points. Every problem becomes a diagnostic; nothing is executed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/ptx/ast.h"
#include "models/ptx/diagnostics.h"
#include "models/ptx/program.h"

namespace gpusoc::ptx {

/// Where module-scope .global and .const variables go: the device's memory.
class GlobalPlacement {
 public:
  virtual ~GlobalPlacement() = default;
  virtual uint64_t allocate(uint64_t bytes, uint64_t align) = 0;
  virtual void write(uint64_t addr, const std::vector<uint8_t>& bytes) = 0;
};

std::shared_ptr<Program> decode_module(const ast::Module& module, GlobalPlacement& placement,
                                       Diagnostics& diags);

}  // namespace gpusoc::ptx
