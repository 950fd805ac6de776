// Memory controller speed: one MemoryController (default configuration: FR-FCFS, open page,
// all-bank refresh) fed 1M single-burst reads, its read queue kept full, advanced event by event
// as a partition drives it. `stream`: consecutive columns, then banks, then rows; `random`:
// uniformly random bank group, bank, row and column. Figures: requests_per_s, wall_s, and
// requests_per_cpu_s (by the thread's CPU time: steadier on a shared host).
#include <time.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "models/mempart/memory_controller.h"
#include "tests/bench/bench.h"

namespace gpusoc::bench {
namespace {

constexpr uint64_t kRequests = 1000000;

double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

Figures run_controller(const std::string& preset, bool random) {
  const mempart::DramTiming& t = mempart::dram_preset(preset);
  StatGroup stats;
  mempart::MemoryController mc(t, mempart::ControllerConfig{}, stats, "controller");
  std::mt19937_64 rng(1);
  const uint32_t bursts_per_row = t.columns / t.burst_length;
  std::vector<mempart::MemCompletion> done;
  done.reserve(64);
  uint64_t issued = 0, completed = 0, now = 0;
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_s();
  while (completed < kRequests) {
    for (; issued < kRequests && mc.can_accept(false); ++issued) {
      mempart::MemRequest r;
      r.id = issued, r.arrival = now;
      uint64_t v = random ? rng() : issued;
      r.column = uint32_t(v % bursts_per_row), v /= bursts_per_row;  // in bursts, as mapped
      r.bank = uint32_t(v % t.banks_per_group), v /= t.banks_per_group;
      r.bank_group = uint32_t(v % t.bank_groups), v /= t.bank_groups;
      r.row = uint32_t(v % t.rows);
      mc.enqueue(r);
    }
    now = mc.next_event();
    mc.advance(now, done);
    completed += done.size();
    done.clear();
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = thread_cpu_s() - cpu_start;
  return {{"requests_per_s", double(kRequests) / wall},
          {"wall_s", wall},
          {"requests_per_cpu_s", double(kRequests) / cpu}};
}

Registration reg_stream({"mc_stream_gddr5",
                         "one GDDR5 memory controller, 1M sequential single-burst reads",
                         [] { return run_controller("GDDR5", false); }});
Registration reg_random({"mc_random_gddr5",
                         "one GDDR5 memory controller, 1M random single-burst reads",
                         [] { return run_controller("GDDR5", true); }});
Registration reg_stream_ddr4({"mc_stream_ddr4",
                              "one DDR4 memory controller, 1M sequential single-burst reads",
                              [] { return run_controller("DDR4", false); }});
Registration reg_random_ddr4({"mc_random_ddr4",
                              "one DDR4 memory controller, 1M random single-burst reads",
                              [] { return run_controller("DDR4", true); }});

}  // namespace
}  // namespace gpusoc::bench
