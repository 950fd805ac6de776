#include "models/mempart/dram_command.h"

namespace gpusoc::mempart {

const char* dram_command_name(DramCommandKind k) {
  switch (k) {
    case DramCommandKind::Activate:
      return "ACT";
    case DramCommandKind::Precharge:
      return "PRE";
    case DramCommandKind::PrechargeAll:
      return "PREA";
    case DramCommandKind::Read:
      return "RD";
    case DramCommandKind::Write:
      return "WR";
    case DramCommandKind::ReadPrecharge:
      return "RDA";
    case DramCommandKind::WritePrecharge:
      return "WRA";
    case DramCommandKind::Refresh:
      return "REF";
    case DramCommandKind::RefreshBank:
      return "REFpb";
  }
  return "?";
}

}  // namespace gpusoc::mempart
