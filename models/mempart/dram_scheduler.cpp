// The DRAM schedulers and page policies a memory controller chooses by name, and their catalogs
// (models/common/registry.h). A scheduler's urgency classes decide, per bank, the request to
// serve (memory_controller.h states how the controller uses them).
//   fcfs:   oldest first; the oldest request to a bank holds it (it gets its PRE and ACT).
//   frfcfs: row hits (the bank holds the request's row open) first, then oldest (Rixner et al.,
//           "Memory Access Scheduling", ISCA 2000). A request that younger row hits to its bank
//           were served before `starvation_cap` times goes ahead of everything, so a stream of
//           hits cannot keep an old row miss waiting for ever.
#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {
namespace {

class FcfsScheduler : public DramScheduler {
 public:
  const char* name() const override { return "fcfs"; }
  uint8_t urgency(bool, uint32_t) const override { return 0; }
};

class FrFcfsScheduler : public DramScheduler {
 public:
  explicit FrFcfsScheduler(uint32_t starvation_cap) : cap_(starvation_cap) {}
  const char* name() const override { return "frfcfs"; }
  // Starved first, then row hits, then the rest.
  uint8_t urgency(bool row_hit, uint32_t bypassed) const override {
    return bypassed >= cap_ ? 0 : row_hit ? 1 : 2;
  }

 private:
  uint32_t cap_;
};

const DramSchedulerRegistry::Entry kFcfs{
    "fcfs", "oldest first", [](uint32_t) -> std::unique_ptr<DramScheduler> {
      return std::make_unique<FcfsScheduler>();
    }};
const DramSchedulerRegistry::Entry kFrFcfs{
    "frfcfs", "row hits first, then oldest, with a starvation cap",
    [](uint32_t cap) -> std::unique_ptr<DramScheduler> {
      return std::make_unique<FrFcfsScheduler>(cap);
    }};

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
const PagePolicyRegistry::Entry kOpenPage{
    "open", "rows stay open",
    []() -> std::unique_ptr<PagePolicy> { return std::make_unique<OpenPage>(); }};
const PagePolicyRegistry::Entry kClosedPage{
    "closed", "auto-precharge after the last queued request to the row",
    []() -> std::unique_ptr<PagePolicy> { return std::make_unique<ClosedPage>(); }};

}  // namespace

const DramSchedulerRegistry& dram_schedulers() {
  static const DramSchedulerRegistry registry("memory.controller.scheduler", "DRAM scheduler",
                                              {kFcfs, kFrFcfs});
  return registry;
}

const PagePolicyRegistry& page_policies() {
  static const PagePolicyRegistry registry("memory.controller.page_policy", "page policy",
                                           {kOpenPage, kClosedPage});
  return registry;
}

}  // namespace gpusoc::mempart
