#include "models/ptx/semantics/families.h"
namespace gpusoc::ptx::sem {}
