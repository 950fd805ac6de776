// Reading configuration files and the files they include.
//
// A file is a JSON object. Two top-level keys are reserved: "description" (a string,
// or a list of lines, saying what the configuration is and where its numbers come
// from) and "include" (a file name, or a list of them, relative to the including file). Included
// files apply first, in the order listed, then the including file's own settings override them.
// Includes nest; a file including itself, directly or not, is an error.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusoc {

// One file's own settings, with "include" and "description" removed.
struct ConfigDocument {
  std::string path;         // as shown in messages, e.g. "configs/base.json"
  nlohmann::json settings;  // a JSON object with nested and/or dotted keys
};

// `file` and everything it includes, in the order the settings apply. Throws
// ConfigError for an unreadable file, bad JSON, a malformed "include" or
// "description", and include cycles, naming the file.
std::vector<ConfigDocument> read_config_file(const std::filesystem::path& file);

}  // namespace gpusoc
