// What the rule table (dram_timing_rules.h) needs at run time: command classes, delays.
#include "models/mempart/dram_timing_rules.h"

namespace gpusoc::mempart {

DramClass dram_class(DramCommandKind kind) {
  switch (kind) {
    case DramCommandKind::Activate:
      return DramClass::Act;
    case DramCommandKind::Precharge:
    case DramCommandKind::PrechargeAll:
      return DramClass::Pre;
    case DramCommandKind::Read:
    case DramCommandKind::ReadPrecharge:
      return DramClass::Rd;
    case DramCommandKind::Write:
    case DramCommandKind::WritePrecharge:
      return DramClass::Wr;
    case DramCommandKind::Refresh:
      return DramClass::Ref;
    case DramCommandKind::RefreshBank:
      return DramClass::RefBank;
  }
  return DramClass::Act;
}

std::array<int64_t, kNumDramTimingRules> dram_timing_delays(const DramTiming& timing) {
  std::array<int64_t, kNumDramTimingRules> delays{};
  for (size_t i = 0; i < kNumDramTimingRules; ++i) delays[i] = kDramTimingRules[i].delay(timing);
  return delays;
}

bool dram_rule_covered(size_t rule, DramRuleScope scope,
                       const std::array<int64_t, kNumDramTimingRules>& delays) {
  const DramTimingRule& r = kDramTimingRules[rule];
  for (size_t j = 0; j < kNumDramTimingRules; ++j) {
    const DramTimingRule& g = kDramTimingRules[j];
    if (g.scope == scope && g.earlier == r.earlier && g.later == r.later && g.nth == 1 &&
        !g.open_bank_only && delays[j] >= delays[rule])
      return true;
  }
  return false;
}

}  // namespace gpusoc::mempart
