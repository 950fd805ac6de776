// `gpusoc config dump` and `gpusoc config doc`: the configuration as the model sees
// it, and the reference of every parameter.
#include <iostream>

#include "models/common/error.h"
#include "models/common/param_doc.h"
#include "platform/command.h"

namespace gpusoc::platform {
namespace {

int dump(const CommandContext& context) {
  std::cout << context.config.to_json().dump(2) << "\n";
  return 0;
}

int doc(const CommandContext& context) {
  const std::string format = context.options.get("format").value_or("text");
  if (format == "text") {
    std::cout << parameter_table(context.config.registry());
  } else if (format == "markdown") {
    std::cout << parameter_markdown(context.config.registry());
  } else {
    throw UsageError("--format '" + format + "': expected text or markdown");
  }
  return 0;
}

const CommandRegistration kDump{Command(
    "config dump",
    "print the effective configuration (every parameter, after includes and --set) as JSON", dump)};

const CommandRegistration kDoc{
    Command("config doc",
            "print every parameter: type, default, unit, accepted values, description", doc)
        .option({"format", "FORMAT", "text (default) or markdown"})};

}  // namespace
}  // namespace gpusoc::platform
