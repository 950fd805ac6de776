// The end-of-run summary against figures worked out by hand from a statistics tree of known
// counts; what a run lacks (cycle-level SMs, DRAM traffic) leaves its lines out.
#include "platform/run_summary.h"

#include <gtest/gtest.h>

namespace gpusoc::platform {
namespace {

using Json = nlohmann::ordered_json;

Json known_run() {
  return Json::parse(R"({"gpu": {
    "kernels": {
      "a": {"warp_instructions": 300, "cycles": 1000, "issue_slots": 4000,
            "resident_warp_cycles": 16000, "achieved_occupancy": 0.5,
            "l1_hits": 30, "l1_misses": 60, "l1_merges": 10,
            "stall_memory": 2000, "stall_dependency": 1000, "stall_pipeline": 500,
            "stall_barrier": 200},
      "bb": {"warp_instructions": 100, "cycles": 1000, "issue_slots": 4000,
             "resident_warp_cycles": 8000, "achieved_occupancy": 0.25,
             "l1_hits": 0, "l1_misses": 0, "l1_merges": 0, "stall_memory": 3900}},
    "memory_system": {"l2_read_hit_rate": 0.25, "dram_bytes": 2000000,
                      "dram_row_hit_rate": 0.9},
    "tex0": {"cache_hits": 3, "cache_lookups": 4},
    "tex1": {"cache_hits": 1, "cache_lookups": 4},
    "pcie": {"downstream_bytes": 1000000, "downstream_busy_ns": 100000,
             "upstream_bytes": 500000, "upstream_busy_ns": 25000}}})");
}

TEST(RunSummary, FiguresFromKnownCounts) {
  // All: IPC 400 / 2000; occupancy 24000 / (32000 + 32000); issued 400 / 8000; L1 30 / 100;
  // stalls of 7600 idle slots: memory 5900, dependency 1000, pipeline 500 (barrier 200 is 4th).
  // DRAM 2 MB in 1 us: 2000 GB/s, half of a 4000 GB/s peak. PCIe 1 MB in 100 us, 0.5 MB in 25.
  EXPECT_EQ(run_summary(known_run(), {1000, 4000}),
            "  cycle    IPC 0.200 per SM, occupancy 37.5% of the busy SMs' warp slots, issue "
            "slots used 5.0%, L1 hits 30.0%\n"
            "           stalls (of the slots that issued nothing): memory 78%, dependency 13%, "
            "pipeline 7%\n"
            "           hit rates: L2 reads 25.0%, texture cache 50.0%\n"
            "           a   IPC 0.300, occupancy 50.0%, issued 7.5%, L1 hits 30.0%; stalls "
            "memory 54%, dependency 27%, pipeline 14%\n"
            "           bb  IPC 0.100, occupancy 25.0%, issued 2.5%; stalls memory 100%\n"
            "  dram     2.00 MB read and written in the kernels' 1 us: 2000.0 GB/s (50.0% of "
            "the peak), row hits 90.0%\n"
            "  pcie     1.00 MB to the GPU at 10.00 GB/s, 0.50 MB from it at 20.00 GB/s (TLP "
            "payload over the time each direction was busy)\n");
}

TEST(RunSummary, AFewLaunchesOneByOneAndManyCounted) {
  Json run = Json::parse(R"({"gpu": {"cta_dispatcher": {"launches": {"unrecorded": 0,
    "grid1": {"grid_id": 1, "kernel": "k", "channel": 2, "start_ns": 1500, "end_ns": 4000,
              "ctas": 8, "achieved_occupancy": 0.5, "status": "None"},
    "grid2": {"grid_id": 2, "kernel": "k", "channel": 0, "start_ns": 4000, "end_ns": 4000,
              "ctas": 1, "achieved_occupancy": 0, "status": "LaunchFailed"}}}}})");
  EXPECT_EQ(run_summary(run, {}),
            "  launch   grid 1 k on channel 2: 1.5 us to 4 us (2.5 us), 8 CTAs, occupancy 50.0%\n"
            "  launch   grid 2 k on channel 0: 4 us to 4 us (0 ns), 1 CTAs, occupancy 0.0%, "
            "LaunchFailed\n");
  Json& launches = run["gpu"]["cta_dispatcher"]["launches"];
  for (int id = 3; id <= 9; ++id) launches["grid" + std::to_string(id)] = launches["grid1"];
  EXPECT_EQ(run_summary(run, {}),
            "  launches 9 recorded one by one in the statistics file "
            "(gpu.cta_dispatcher.launches)\n");
}

TEST(RunSummary, WhatARunLacksIsLeftOut) {
  Json run = known_run();
  run["gpu"].erase("kernels");                    // loosely timed SMs
  run["gpu"]["memory_system"]["dram_bytes"] = 0;  // no DRAM traffic modelled
  EXPECT_EQ(run_summary(run, {1000, 4000}),
            "  pcie     1.00 MB to the GPU at 10.00 GB/s, 0.50 MB from it at 20.00 GB/s (TLP "
            "payload over the time each direction was busy)\n");
  EXPECT_EQ(run_summary(Json::object(), {}), "");
}

}  // namespace
}  // namespace gpusoc::platform
