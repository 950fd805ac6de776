// A MemoryPartition under test: partition 0 of one, the preset's default address mapping
// (mapping_from_config with an empty Config), and the independent DramTimingChecker on every
// channel. run() feeds packets as fast as the partition takes them and steps event by event.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "models/common/config.h"
#include "models/mempart/dram_timing_checker.h"
#include "models/mempart/mapping_params.h"
#include "models/mempart/memory_partition.h"

namespace gpusoc::mempart {

struct PartitionHarness {
  PartitionHarness(const DramTiming& t, uint32_t channels, const ControllerConfig& config)
      : timing(t),
        mapping(mapping_from_config(Config{}, t, 1, channels, 0)),
        partition(0, mapping, std::make_shared<const DramTiming>(t), config, stats),
        checkers(channels, DramTimingChecker(t)) {
    partition.set_command_observer([this](uint32_t channel, const DramCommand& c) {
      checkers[channel].check(c);
      if (keep_commands) commands.push_back(c);
    });
  }

  // The address of a location of partition 0.
  uint64_t address(uint32_t channel, uint32_t bg, uint32_t bank, uint32_t row,
                   uint32_t column) const {
    return mapping.address_of(DramLocation{0, channel, bg, bank, row, column});
  }

  // Sends packet(i) for i < n, each as soon as the partition takes it, until all are answered;
  // returns the cycle the last one was answered.
  uint64_t run(uint64_t n, const std::function<MemPacket(uint64_t)>& packet) {
    uint64_t sent = 0, answered = 0;
    while (answered < n) {
      for (; sent < n; ++sent) {
        MemPacket p = packet(sent);
        p.id = sent;
        if (!partition.can_accept(p)) break;
        partition.accept(p, now);
      }
      const uint64_t t = partition.next_event();
      if (t == MemoryPartition::kNever) {
        ADD_FAILURE() << "idle with " << n - answered << " packets unanswered";
        break;
      }
      partition.advance(t);
      now = t;
      for (; partition.reply_ready(now); partition.pop_reply()) ++answered;
    }
    return now;
  }

  void expect_no_violations() const {
    for (const DramTimingChecker& c : checkers) {
      EXPECT_TRUE(c.violations().empty())
          << c.violations().size() << " violations, first: " << c.violations().front();
    }
  }
  uint64_t sum(Counter ControllerStats::*field) const {
    uint64_t total = 0;
    for (uint32_t c = 0; c < partition.channels(); ++c)
      total += (partition.controller(c).stats().*field).value();
    return total;
  }

  DramTiming timing;
  AddressMapping mapping;
  StatGroup stats;  // before the partition: its statistics go here
  MemoryPartition partition;
  std::vector<DramTimingChecker> checkers;
  bool keep_commands = false;
  std::vector<DramCommand> commands;  // with keep_commands (single-channel tests)
  uint64_t now = 0;
};

}  // namespace gpusoc::mempart
