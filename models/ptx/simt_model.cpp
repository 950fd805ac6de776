// Names of the SIMT models, as the configuration spells them (sm.simt_model).
#include "models/ptx/launch.h"

namespace gpusoc::ptx {

const char* simt_model_name(SimtModel m) {
  return m == SimtModel::Independent ? "independent" : "stack";
}

bool simt_model_from_name(const std::string& name, SimtModel& out) {
  for (SimtModel m : {SimtModel::Stack, SimtModel::Independent}) {
    if (name == simt_model_name(m)) {
      out = m;
      return true;
    }
  }
  return false;
}

}  // namespace gpusoc::ptx
