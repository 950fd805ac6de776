// How far a temporally decoupled component runs ahead of SystemC time: its own parameter where
// one is set, else the virtual platform's (tlm::tlm_global_quantum), else 1 us. Components ask
// when simulation starts, since a platform may set the global quantum after building them.
#pragma once

#include <systemc>
#include <tlm>

namespace gpusoc {

inline sc_core::sc_time decoupling_quantum(const sc_core::sc_time& own) {
  if (own > sc_core::SC_ZERO_TIME) return own;
  const sc_core::sc_time global = tlm::tlm_global_quantum::instance().get();
  return global > sc_core::SC_ZERO_TIME ? global : sc_core::sc_time(1, sc_core::SC_US);
}

}  // namespace gpusoc
