// The gpusoc program; see platform/cli.h.
#include <cstdlib>
#include <string>
#include <vector>

#include "platform/cli.h"

// The program drives SystemC from its commands (SocPlatform::run); libsystemc still insists on
// an sc_main to link against.
extern "C" int sc_main(int, char**) {
  return 0;
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return gpusoc::platform::run_cli(args, gpusoc::platform::CommandRegistry::instance());
}
