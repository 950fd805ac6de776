// The gpusoc program; see platform/cli.h.
#include <string>
#include <vector>

#include "platform/cli.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return gpusoc::platform::run_cli(args, gpusoc::platform::CommandRegistry::instance());
}
