// A MemoryController under test with the independent DramTimingChecker as its command observer:
// every command it issues is checked and kept, and the test drives it event by event.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "models/mempart/dram_timing_checker.h"
#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {

struct ControllerHarness {
  ControllerHarness(const DramTiming& t, const ControllerConfig& config)
      : timing(t), mc(t, config, stats, "controller"), checker(t) {
    mc.set_command_observer([this](const DramCommand& c) {
      checker.check(c);
      commands.push_back(c);
    });
  }

  MemRequest request(bool write, uint32_t bg, uint32_t bank, uint32_t row, uint32_t column = 0) {
    MemRequest r;
    r.id = next_id++;
    r.write = write, r.bank_group = bg, r.bank = bank, r.row = row, r.column = column;
    r.arrival = now;
    return r;
  }
  void enqueue(const MemRequest& r) {
    ASSERT_TRUE(mc.can_accept(r.write));
    mc.enqueue(r);
  }
  // Advances to the controller's next event; false when it has none.
  bool step() {
    const uint64_t t = mc.next_event();
    if (t == MemoryController::kNever) return false;
    mc.advance(t, done);
    now = t;
    stepped = true;
    return true;
  }
  // Steps until `n` requests have completed in all.
  void run_until_done(size_t n) {
    while (done.size() < n && step()) {
    }
  }
  // The column commands issued, in order.
  std::vector<DramCommandKind> column_kinds() const {
    std::vector<DramCommandKind> kinds;
    for (const DramCommand& c : commands) {
      if (c.kind == DramCommandKind::Read || c.kind == DramCommandKind::ReadPrecharge ||
          c.kind == DramCommandKind::Write || c.kind == DramCommandKind::WritePrecharge) {
        kinds.push_back(c.kind);
      }
    }
    return kinds;
  }
  void expect_no_violations() const {
    EXPECT_TRUE(checker.violations().empty())
        << checker.violations().size() << " violations, first: " << checker.violations().front();
  }

  DramTiming timing;
  StatGroup stats;  // before the controller: its statistics go here
  MemoryController mc;
  DramTimingChecker checker;
  std::vector<DramCommand> commands;
  std::vector<MemCompletion> done;
  uint64_t now = 0;
  bool stepped = false;  // the controller has advanced to `now` (its commands go after it)
  uint64_t next_id = 0;
};

}  // namespace gpusoc::mempart
