#include "models/common/config_file.h"

#include <algorithm>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc {
namespace {

namespace fs = std::filesystem;

// Configurations nest a few levels (sm.l1.size_bytes); far deeper is a broken or hostile file,
// whose recursion through the settings would overflow the stack.
constexpr int kMaxNesting = 32;

// Watches the parse for what JSON allows but a configuration must not have: nesting beyond
// kMaxNesting and a key given twice in one object (JSON keeps the last silently).
class ShapeCheck {
 public:
  explicit ShapeCheck(const std::string& shown) : shown_(shown) {}

  bool operator()(int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (depth > kMaxNesting)
      throw ConfigError(
          fmt::format("{}: nested deeper than {} levels at '{}'", shown_, kMaxNesting, path()));
    if (event == Event::object_start || event == Event::array_start) {
      frames_.push_back({event == Event::array_start, {}, ""});
    } else if (event == Event::object_end || event == Event::array_end) {
      frames_.pop_back();
    } else if (event == Event::key) {
      Frame& frame = frames_.back();
      frame.current = parsed.get<std::string>();
      if (!frame.keys.insert(frame.current).second)
        throw ConfigError(fmt::format("{}: key '{}' is given twice", shown_, path()));
    }
    return true;
  }

 private:
  struct Frame {
    bool array;
    std::set<std::string> keys;
    std::string current;
  };
  std::string path() const {
    std::string out;
    for (const Frame& frame : frames_) {
      if (frame.array)
        out += "[]";
      else if (!frame.current.empty())
        out += (out.empty() ? "" : ".") + frame.current;
    }
    return out;
  }
  const std::string& shown_;
  std::vector<Frame> frames_;
};

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
      root = nlohmann::json::parse(in, ShapeCheck(shown));
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range: 1e999
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
