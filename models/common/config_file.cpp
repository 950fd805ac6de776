#include "models/common/config_file.h"

#include <algorithm>
#include <fstream>

#include "models/common/error.h"

namespace gpusoc {
namespace {

namespace fs = std::filesystem;

class IncludeReader {
 public:
  std::vector<ConfigDocument> take() { return std::move(documents_); }

  void read(const fs::path& file, const std::string& included_from) {
    const std::string shown = file.lexically_normal().generic_string();
    const fs::path identity = fs::weakly_canonical(file);
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      if (stack_[i].identity == identity) throw ConfigError(cycle_message(i, shown));
    }
    nlohmann::json root = parse(file, shown, included_from);
    stack_.push_back({identity, shown});
    for (const std::string& include : includes(root, shown)) {
      read(file.parent_path() / include, shown);
    }
    stack_.pop_back();
    if (root.contains("description") && !is_text(root["description"])) {
      throw ConfigError(shown + ": \"description\" must be a string or a list of strings");
    }
    root.erase("description");
    root.erase("include");
    documents_.push_back({shown, std::move(root)});
  }

 private:
  struct OpenFile {
    fs::path identity;  // canonical, to recognise a file reached by different paths
    std::string shown;
  };

  static nlohmann::json parse(const fs::path& file, const std::string& shown,
                              const std::string& included_from) {
    std::ifstream in(file);
    if (!in) {
      if (included_from.empty()) throw ConfigError("cannot open config file '" + shown + "'");
      throw ConfigError(included_from + ": cannot open included file '" + shown + "'");
    }
    nlohmann::json root;
    try {
      root = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
      // Drop nlohmann's "[json.exception.parse_error.101] " prefix: it means nothing to users.
      const std::string what = e.what();
      const std::size_t tag_end = what.find("] ");
      throw ConfigError(shown + ": invalid JSON: " +
                        (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
    }
    if (!root.is_object()) throw ConfigError(shown + ": the top level must be a JSON object");
    return root;
  }

  // A string, or a list of strings (long descriptions read better as lines).
  static bool is_text(const nlohmann::json& value) {
    return value.is_string() ||
           (value.is_array() &&
            std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); }));
  }

  static std::vector<std::string> includes(const nlohmann::json& root, const std::string& shown) {
    const auto it = root.find("include");
    if (it == root.end()) return {};
    if (it->is_string()) return {it->get<std::string>()};
    if (!is_text(*it)) {
      throw ConfigError(shown + ": \"include\" must be a file name or a list of file names");
    }
    return it->get<std::vector<std::string>>();
  }

  std::string cycle_message(std::size_t first, const std::string& shown) const {
    std::string chain;
    for (std::size_t i = first; i < stack_.size(); ++i) chain += stack_[i].shown + " -> ";
    return stack_.back().shown + ": include cycle: " + chain + shown;
  }

  std::vector<OpenFile> stack_;
  std::vector<ConfigDocument> documents_;
};

}  // namespace

std::vector<ConfigDocument> read_config_file(const std::filesystem::path& file) {
  IncludeReader reader;
  reader.read(file, "");
  return reader.take();
}

}  // namespace gpusoc
