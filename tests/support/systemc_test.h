// SystemC allows one elaboration per kernel instance; each test case starts a fresh kernel so
// that every case of an executable can build and run its own testbench.
#pragma once

#include <systemc>

namespace gpusoc::testing {

/// Call first in every test case that elaborates modules. The previous kernel is abandoned, not
/// destroyed (SystemC cannot tear one down safely).
inline void fresh_systemc() {
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

}  // namespace gpusoc::testing
