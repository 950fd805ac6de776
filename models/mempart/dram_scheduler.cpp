// The DRAM schedulers and page policies a memory controller chooses by name, and their catalogs
// (models/common/registry.h). A scheduler's urgency classes decide, per bank, the request to
// serve (memory_controller.h states how the controller uses them).
//   fcfs:   oldest first; the oldest request to a bank holds it (it gets its PRE and ACT).
//   frfcfs: row hits (the bank holds the request's row open) first, then oldest (Rixner et al.,
//           "Memory Access Scheduling", ISCA 2000). A request that younger row hits to its bank
//           were served before `starvation_cap` times goes ahead of everything, so a stream of
//           hits cannot keep an old row miss waiting for ever.
//   bliss:  the blacklisting scheduler (Subramanian et al., "The Blacklisting Memory Scheduler",
//           ICCD 2014): a requester served more than `threshold` requests in a row is
//           blacklisted until the blacklist is cleared, every `clearing_interval` cycles; then
//           requests of requesters not blacklisted first, row hits first, oldest first. It keeps
//           one requester's stream of row hits from holding the channel. Reads are counted
//           (writes are drained when the controller chooses); the list is cleared at the first
//           column command at or after each interval's end, the controller having no event for it.
#include <algorithm>
#include <vector>

#include "models/common/mem_packet.h"
#include "models/common/param.h"
#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {
namespace {

class FcfsScheduler : public DramScheduler {
 public:
  const char* name() const override { return "fcfs"; }
  uint8_t urgency(const MemRequest&, bool, uint32_t) const override { return 0; }
};

const Param<uint32_t> kStarvationCap{
    "memory.controller.starvation_cap", 16, "requests",
    "frfcfs: younger row hits to its bank served before a request goes ahead of everything",
    Range{1, 1u << 20}};

class FrFcfsScheduler : public DramScheduler {
 public:
  explicit FrFcfsScheduler(uint32_t starvation_cap) : cap_(starvation_cap) {}
  const char* name() const override { return "frfcfs"; }
  // Starved first, then row hits, then the rest.
  uint8_t urgency(const MemRequest&, bool row_hit, uint32_t bypassed) const override {
    return bypassed >= cap_ ? 0 : row_hit ? 1 : 2;
  }

 private:
  uint32_t cap_;
};

const Param<uint32_t> kBlissThreshold{
    "memory.controller.bliss.threshold", 4, "requests",
    "bliss: a requester served more than this many requests in a row is blacklisted",
    Range{1, 1u << 20}};
const Param<uint64_t> kBlissClearing{"memory.controller.bliss.clearing_interval", 10000, "cycles",
                                     "bliss: DRAM cycles between clearings of the blacklist",
                                     Range{1, uint64_t(1) << 40}};

class BlissScheduler : public DramScheduler {
 public:
  BlissScheduler(uint32_t threshold, uint64_t clearing_interval)
      : threshold_(threshold), interval_(clearing_interval), next_clearing_(clearing_interval) {}
  const char* name() const override { return "bliss"; }
  uint8_t urgency(const MemRequest& r, bool row_hit, uint32_t) const override {
    return uint8_t(2 * blacklisted(r.source) + !row_hit);
  }
  bool served(const MemRequest& r, uint64_t cycle) override {
    bool changed = false;
    if (cycle >= next_clearing_) {
      changed = std::find(listed_.begin(), listed_.end(), 1) != listed_.end();
      std::fill(listed_.begin(), listed_.end(), 0);
      next_clearing_ = (cycle / interval_ + 1) * interval_;
    }
    // Reads only: writes reach the device in drains the controller chooses (and L2 write-backs
    // belong to no requester), so they say nothing of a requester's share.
    if (r.write || r.source == kNoRequester) return changed;
    streak_ = r.source == last_ ? streak_ + 1 : 1;
    last_ = r.source;
    if (streak_ > threshold_ && !blacklisted(r.source)) {
      if (r.source >= listed_.size()) listed_.resize(r.source + 1, 0);
      listed_[r.source] = 1;
      changed = true;
    }
    return changed;
  }

 private:
  bool blacklisted(uint32_t source) const { return source < listed_.size() && listed_[source]; }

  uint32_t threshold_;
  uint64_t interval_, next_clearing_;
  uint32_t last_ = ~0u, streak_ = 0;  // the requester served last, and how many in a row
  std::vector<uint8_t> listed_;       // per requester: blacklisted
};

constexpr DramSchedulerRegistry::Entry kFcfs{
    "fcfs", "oldest first", [](const PolicySettings&) -> std::unique_ptr<DramScheduler> {
      return std::make_unique<FcfsScheduler>();
    }};
constexpr DramSchedulerRegistry::Entry kFrFcfs{
    "frfcfs",
    "row hits first, then oldest, with a starvation cap",
    [](const PolicySettings& settings) -> std::unique_ptr<DramScheduler> {
      return std::make_unique<FrFcfsScheduler>(settings.get(kStarvationCap));
    },
    {&kStarvationCap}};
constexpr DramSchedulerRegistry::Entry kBliss{
    "bliss",
    "blacklisting: requesters served many in a row wait, then row hits, then oldest",
    [](const PolicySettings& settings) -> std::unique_ptr<DramScheduler> {
      return std::make_unique<BlissScheduler>(settings.get(kBlissThreshold),
                                              settings.get(kBlissClearing));
    },
    {&kBlissThreshold, &kBlissClearing}};

// Open page: rows stay open; closed page: a row closes (auto-precharge) after the last queued
// request to it.
class OpenPage : public PagePolicy {
 public:
  const char* name() const override { return "open"; }
  bool closes_idle_rows() const override { return false; }
};
class ClosedPage : public PagePolicy {
 public:
  const char* name() const override { return "closed"; }
  bool closes_idle_rows() const override { return true; }
};
constexpr PagePolicyRegistry::Entry kOpenPage{
    "open", "rows stay open", [](const PolicySettings&) -> std::unique_ptr<PagePolicy> {
      return std::make_unique<OpenPage>();
    }};
constexpr PagePolicyRegistry::Entry kClosedPage{
    "closed", "auto-precharge after the last queued request to the row",
    [](const PolicySettings&) -> std::unique_ptr<PagePolicy> {
      return std::make_unique<ClosedPage>();
    }};

}  // namespace

DramSchedulerRegistry& dram_schedulers() {
  static DramSchedulerRegistry registry("memory.controller.scheduler", "DRAM scheduler",
                                        {kFcfs, kFrFcfs, kBliss});
  return registry;
}

PagePolicyRegistry& page_policies() {
  static PagePolicyRegistry registry("memory.controller.page_policy", "page policy",
                                     {kOpenPage, kClosedPage});
  return registry;
}

}  // namespace gpusoc::mempart
