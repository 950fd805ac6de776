// What the SM testbenches share: loading hand-written PTX, building a grid request, and running a
// host body in a SystemC thread until the simulation ends.
#pragma once

#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "models/gigathread/cta_dispatcher.h"
#include "models/ptx/address_space.h"
#include "models/ptx/decoder.h"
#include "models/ptx/parser.h"

namespace gpusoc::testing {

struct NoGlobals : ptx::GlobalPlacement {
  uint64_t allocate(uint64_t, uint64_t) override { throw std::logic_error("no globals here"); }
  void write(uint64_t, const std::vector<uint8_t>&) override {}
};

inline std::shared_ptr<const ptx::Program> load_ptx(const std::string& body_of_kernels) {
  const std::string text = ".version 7.0\n.target sm_80\n.address_size 64\n" + body_of_kernels;
  ptx::Diagnostics diags("test.ptx");
  ptx::ast::Module m = ptx::parse_module(text, diags);
  NoGlobals placement;
  auto program = ptx::decode_module(m, placement, diags);
  if (!diags.empty()) throw std::runtime_error(diags.list().front().message);
  return program;
}

inline std::vector<gigathread::SmPlace> flat_sms(uint32_t n) {
  std::vector<gigathread::SmPlace> places;
  for (uint32_t i = 0; i < n; ++i) places.push_back({0, i, 0});
  return places;
}

/// How both SM fidelities pick their quantum: their own (ns; 0: none), else the platform's
/// tlm_global_quantum (set in the tests after the SM was built), else 1 us.
struct QuantumCase {
  double own_ns;
  sc_core::sc_time global, expected;
};
inline std::vector<QuantumCase> quantum_cases() {
  using sc_core::sc_time;
  return {{0, sc_time(250, sc_core::SC_NS), sc_time(250, sc_core::SC_NS)},
          {100, sc_time(250, sc_core::SC_NS), sc_time(100, sc_core::SC_NS)},
          {0, sc_core::SC_ZERO_TIME, sc_time(1, sc_core::SC_US)}};
}

/// A launch of `kernel` whose only parameter is the u64 `out`.
inline gigathread::GridRequest grid_request(std::shared_ptr<const ptx::Program> program,
                                            const char* kernel, ptx::Dim3 grid, ptx::Dim3 block,
                                            uint64_t out = ptx::kGlobalBase) {
  gigathread::GridRequest r;
  r.program = program;
  for (const ptx::Function& f : program->functions) {
    if (f.name == kernel) r.kernel = &f;
  }
  r.grid = grid;
  r.block = block;
  r.params.resize(8);
  std::memcpy(r.params.data(), &out, 8);
  return r;
}

/// Runs `body` in a thread of its own (run_grid blocks) and simulates until everything is done.
inline void simulate(std::function<void()> body) {
  struct Runner : sc_core::sc_module {
    Runner(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b)) {
      SC_HAS_PROCESS(Runner);
      SC_THREAD(run);
    }
    void run() { body(); }
    std::function<void()> body;
  } runner("runner", std::move(body));
  sc_core::sc_start();
}

}  // namespace gpusoc::testing
