// Helpers for tests that run small hand-written PTX modules.
#pragma once

#include <string>

namespace gpusoc::ptx::test {

/// Wraps kernel text in the module header nvcc would emit.
inline std::string module(const std::string& body) {
  return ".version 8.5\n.target sm_80\n.address_size 64\n\n" + body;
}

}  // namespace gpusoc::ptx::test
