// Reading DRAM standard files (dram_standard.h): includes merged, every field checked, nanoseconds
// converted at the standard's clock.
#include "models/mempart/dram_standard.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/text_file.h"
#include "models/mempart/dram_standard_files.h"

namespace gpusoc::mempart {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int kMaxIncludes = 8;  // deeper is a cycle
constexpr int kMaxNesting = 8;   // a standard nests three levels; deeper is broken or hostile
constexpr uintmax_t kMaxFileBytes = 1 << 20;

struct FieldRef {
  const char* name;
  uint32_t DramTiming::*member;
};
constexpr FieldRef kOrganization[] = {{"ranks", &DramTiming::ranks},
                                      {"bank_groups", &DramTiming::bank_groups},
                                      {"banks_per_group", &DramTiming::banks_per_group},
                                      {"rows", &DramTiming::rows},
                                      {"columns", &DramTiming::columns},
                                      {"bus_bits", &DramTiming::bus_bits},
                                      {"burst_length", &DramTiming::burst_length},
                                      {"beats_per_clock", &DramTiming::beats_per_clock}};
constexpr FieldRef kTiming[] = {
    {"CL", &DramTiming::CL},         {"CWL", &DramTiming::CWL},
    {"tRCD", &DramTiming::tRCD},     {"tRP", &DramTiming::tRP},
    {"tRAS", &DramTiming::tRAS},     {"tRC", &DramTiming::tRC},
    {"tCCD_S", &DramTiming::tCCD_S}, {"tCCD_L", &DramTiming::tCCD_L},
    {"tRRD_S", &DramTiming::tRRD_S}, {"tRRD_L", &DramTiming::tRRD_L},
    {"tFAW", &DramTiming::tFAW},     {"tWTR_S", &DramTiming::tWTR_S},
    {"tWTR_L", &DramTiming::tWTR_L}, {"tRTW_extra", &DramTiming::tRTW_extra},
    {"tWR", &DramTiming::tWR},       {"tRTP", &DramTiming::tRTP},
    {"tRFC", &DramTiming::tRFC},     {"tRFCpb", &DramTiming::tRFCpb},
    {"tREFI", &DramTiming::tREFI}};

template <size_t N>
std::vector<std::string> names_of(const FieldRef (&fields)[N]) {
  std::vector<std::string> names;
  for (const FieldRef& f : fields) names.emplace_back(f.name);
  return names;
}

const char* const kTopLevel[] = {"description", "include",      "name",  "source",
                                 "clock_mhz",   "organization", "timing"};

[[noreturn]] void bad(const std::string& origin, const std::string& what) {
  throw ConfigError(fmt::format("DRAM standard {}: {}", origin, what));
}

const DramStandardFile* builtin_file(const std::string& file) {
  for (const DramStandardFile& f : dram_standard_files())
    if (file == f.file) return &f;
  return nullptr;
}

bool is_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// A regular file of sane size (not a device or a pipe, which could block or never end).
std::string file_text(const std::string& path) {
  std::error_code ec;
  if (!is_file(path)) bad(path, "not a regular file");
  if (fs::file_size(path, ec) > kMaxFileBytes || ec) bad(path, "larger than 1 MiB");
  std::optional<std::string> text = read_text_file(path);
  if (!text) bad(path, "cannot be read");
  return *text;
}

Json parse(const std::string& text, const std::string& origin) {
  const Json::parser_callback_t depth_check = [&](int depth, Json::parse_event_t, Json&) {
    if (depth > kMaxNesting) bad(origin, fmt::format("nested deeper than {} levels", kMaxNesting));
    return true;
  };
  try {
    return Json::parse(text, depth_check);
  } catch (const Json::exception& e) {
    bad(origin, std::string("not JSON: ") + e.what());
  }
}

// Each field of `over` in place of base's; "organization" and "timing" field by field.
void merge(Json& base, const Json& over) {
  for (const auto& [key, value] : over.items()) {
    const bool group = key == "organization" || key == "timing";
    if (group && base.contains(key) && base[key].is_object() && value.is_object()) {
      for (const auto& [field, entry] : value.items()) base[key][field] = entry;
    } else if (key != "include") {
      base[key] = value;
    }
  }
}

// `text` (from `origin`, whose includes are looked for in `dir` first, then among the
// built-in files) merged over what it includes.
Json document(const std::string& text, const std::string& origin, const fs::path& dir,
              bool origin_is_builtin, int depth) {
  Json doc = parse(text, origin);
  if (!doc.is_object()) bad(origin, "not a JSON object");
  for (const auto& [key, value] : doc.items()) {
    if (std::find(std::begin(kTopLevel), std::end(kTopLevel), key) == std::end(kTopLevel))
      bad(origin, fmt::format("unknown field '{}'", key));
  }
  if (!doc.contains("include")) return doc;
  if (depth >= kMaxIncludes) bad(origin, "includes nest too deep (a cycle?)");
  if (!doc["include"].is_string()) bad(origin, "include must be a file name");
  const std::string include = doc["include"];
  Json base;
  // Beside the including file (a built-in one has none), else among the built-in standards.
  const fs::path local =
      origin_is_builtin ? fs::path() : (dir.empty() ? fs::path(".") : dir) / include;
  std::error_code ec;
  const bool itself =
      !local.empty() && fs::equivalent(local, origin, ec);  // x.json includes x.json
  if (!local.empty() && !itself && is_file(local)) {
    base =
        document(file_text(local.string()), local.string(), local.parent_path(), false, depth + 1);
  } else if (const DramStandardFile* f = builtin_file(include)) {
    base = document(f->text, f->file, {}, true, depth + 1);
  } else {
    bad(origin,
        fmt::format("include '{}': no such file here or among the built-in standards", include));
  }
  merge(base, doc);
  return base;
}

const Json& field(const Json& group, const char* name, const std::string& origin,
                  const std::string& where) {
  if (!group.contains(name)) bad(origin, fmt::format("{}.{} is missing", where, name));
  const Json& f = group[name];
  if (!f.is_object()) bad(origin, fmt::format("{}.{} must be an object", where, name));
  return f;
}

uint32_t whole(const Json& v, const std::string& origin, const std::string& what) {
  if (!v.is_number_integer() || v.get<int64_t>() < 0 ||
      v.get<int64_t>() > std::numeric_limits<uint32_t>::max())
    bad(origin,
        fmt::format("{} must be a whole number of at most 32 bits, not {}", what, v.dump()));
  return v.get<uint32_t>();
}

double number(const Json& v, const std::string& origin, const std::string& what) {
  if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
    bad(origin, fmt::format("{} must be a number >= 0, not {}", what, v.dump()));
  return v.get<double>();
}

void only_keys(const Json& f, std::initializer_list<const char*> keys, const std::string& origin,
               const std::string& what) {
  for (const auto& [key, value] : f.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) bad(origin, fmt::format("{}: unknown key '{}'", what, key));
    if (key == "source" && !value.is_string())
      bad(origin, fmt::format("{}.source must be text", what));
  }
}

std::string text(const Json& doc, const char* key, const std::string& origin) {
  if (!doc.contains(key) || !doc[key].is_string() || doc[key].get<std::string>().empty())
    bad(origin, fmt::format("{} is missing (text)", key));
  return doc[key];
}

// A timing given in tCK, or in ns at the clock of period `tck_ns` (with an optional least tCK).
uint32_t cycles_of(const Json& f, bool round_down, double tck_ns, const std::string& origin,
                   const std::string& what) {
  if (f.contains("tck")) return whole(f["tck"], origin, what + ".tck");
  const double ns = number(f["ns"], origin, what + ".ns");
  // An interval the device needs rounds up; tREFI, the most the controller may wait on average,
  // rounds down.
  const double exact = ns / tck_ns;
  const double rounded = round_down ? std::floor(exact + 1e-9) : std::ceil(exact - 1e-9);
  if (rounded > std::numeric_limits<uint32_t>::max())
    bad(origin, what + fmt::format(": {} ns is too many cycles", ns));
  uint32_t cycles = uint32_t(rounded);
  if (f.contains("min_tck"))
    cycles = std::max(cycles, whole(f["min_tck"], origin, what + ".min_tck"));
  return cycles;
}

// A timing given as the sum of others in cycles ("tRC": {"sum": ["tRAS", "tRP"]}), each of them
// given in tck or ns.
uint32_t sum_of(const Json& timing, const Json& terms, const DramTiming& t,
                const std::string& origin, const std::string& what) {
  if (!terms.is_array() || terms.empty()) bad(origin, what + ".sum must list timing fields");
  uint64_t total = 0;
  for (const Json& term : terms) {
    const FieldRef* ref = nullptr;
    for (const FieldRef& r : kTiming)
      if (term.is_string() && term.get<std::string>() == r.name) ref = &r;
    if (!ref) bad(origin, fmt::format("{}.sum: {} is not a timing field", what, term.dump()));
    if (timing.contains(ref->name) && timing[ref->name].contains("sum"))
      bad(origin, fmt::format("{}.sum: {} is itself a sum", what, ref->name));
    total += t.*ref->member;
  }
  if (total > std::numeric_limits<uint32_t>::max()) bad(origin, what + ": the sum is too large");
  return uint32_t(total);
}

}  // namespace

const std::vector<std::string>& dram_organization_fields() {
  static const std::vector<std::string> names = names_of(kOrganization);
  return names;
}

const std::vector<std::string>& dram_timing_fields() {
  static const std::vector<std::string> names = names_of(kTiming);
  return names;
}

Json dram_standard_document(const std::string& type) {
  for (const std::string& name : dram_preset_names()) {
    if (name != type) continue;
    std::string file = name + ".json";
    for (char& c : file) c = char(std::tolower(static_cast<unsigned char>(c)));
    const DramStandardFile* f = builtin_file(file);
    if (!f) throw ModelError("DRAM standards", "built-in " + name + " has no file " + file);
    return document(f->text, f->file, {}, true, 0);
  }
  if (!is_file(type)) {
    std::string known;
    for (const std::string& name : dram_preset_names()) known += (known.empty() ? "" : ", ") + name;
    throw ConfigError(
        fmt::format("memory.type = '{}': neither a built-in DRAM standard ({}) nor "
                    "a standard file",
                    type, known));
  }
  return document(file_text(type), type, fs::path(type).parent_path(), false, 0);
}

DramTiming dram_timing_of(const Json& doc, const std::string& origin) {
  DramTiming t;
  t.name = text(doc, "name", origin);
  t.source = text(doc, "source", origin);
  if (!doc.contains("clock_mhz") || !doc["clock_mhz"].is_object())
    bad(origin, "clock_mhz is missing (an object with its value)");
  only_keys(doc["clock_mhz"], {"value", "source"}, origin, "clock_mhz");
  const double mhz = doc["clock_mhz"].contains("value")
                         ? number(doc["clock_mhz"]["value"], origin, "clock_mhz.value")
                         : 0;
  if (!(mhz > 0)) bad(origin, "clock_mhz.value must be a positive clock frequency");
  t.tck_ns = 1000.0 / mhz;
  for (const char* group : {"organization", "timing"}) {
    if (!doc.contains(group) || !doc[group].is_object())
      bad(origin, fmt::format("{} is missing (an object)", group));
    const auto& refs =
        std::string(group) == "timing" ? dram_timing_fields() : dram_organization_fields();
    for (const auto& [key, value] : doc[group].items()) {
      if (std::find(refs.begin(), refs.end(), key) == refs.end())
        bad(origin, fmt::format("{}: unknown field '{}'", group, key));
    }
  }
  for (const FieldRef& r : kOrganization) {
    const std::string what = std::string("organization.") + r.name;
    const Json& f = field(doc["organization"], r.name, origin, "organization");
    only_keys(f, {"value", "source"}, origin, what);
    if (!f.contains("value")) bad(origin, what + " has no value");
    t.*r.member = whole(f["value"], origin, what + ".value");
  }
  // Cycles and nanoseconds first, then sums of them (tRC = tRAS + tRP).
  for (const bool sums : {false, true}) {
    for (const FieldRef& r : kTiming) {
      const std::string what = std::string("timing.") + r.name;
      const Json& f = field(doc["timing"], r.name, origin, "timing");
      only_keys(f, {"tck", "ns", "min_tck", "sum", "source"}, origin, what);
      if (f.contains("sum") != sums) continue;
      if (int(f.contains("tck")) + int(f.contains("ns")) + int(f.contains("sum")) != 1)
        bad(origin, what + " must give one of tck, ns or sum");
      if (f.contains("min_tck") && !f.contains("ns")) bad(origin, what + ": min_tck goes with ns");
      t.*r.member = sums ? sum_of(doc["timing"], f["sum"], t, origin, what)
                         : cycles_of(f, r.member == &DramTiming::tREFI, t.tck_ns, origin, what);
    }
  }
  if (const std::string why = t.problem(); !why.empty()) bad(origin, why);
  return t;
}

}  // namespace gpusoc::mempart
