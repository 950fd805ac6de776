// The rule table of a DRAM timing (dram_timing_rules.h), written as the datasheets state it.
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

}  // namespace gpusoc::mempart
