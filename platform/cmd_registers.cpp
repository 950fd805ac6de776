// `gpusoc registers`: the register map as Markdown (docs/registers.md is its output).
#include <fmt/format.h>

#include "platform/command.h"
#include "platform/register_doc.h"

namespace gpusoc::platform {
namespace {

int registers(const CommandContext& ctx) {
  fmt::print("{}", register_map_markdown(ctx.config));
  return 0;
}

const CommandRegistration kRegisters{
    Command("registers",
            "print the register map (docs/registers.md) as Markdown, with the reset values of "
            "the configuration",
            registers)};

}  // namespace
}  // namespace gpusoc::platform
