#include "models/ptx/ptxas_report.h"

#include <cctype>

#include "models/ptx/program.h"

namespace gpusoc::ptx {
namespace {

// The text between the first pair of single quotes after `key`, or "" when absent.
std::string quoted_after(std::string_view line, std::string_view key) {
  const size_t k = line.find(key);
  if (k == std::string_view::npos) return "";
  const size_t open = line.find('\'', k + key.size());
  const size_t close = open == std::string_view::npos ? open : line.find('\'', open + 1);
  if (close == std::string_view::npos) return "";
  return std::string(line.substr(open + 1, close - open - 1));
}

// Reports a problem by throwing Problem; parse_ptxas_report turns it into a diagnostic.
struct Problem {
  uint32_t line;
  std::string message;
};

class Reader {
 public:
  explicit Reader(const std::string& file) { report_.file = file; }

  void line(std::string_view text, uint32_t number) {
    number_ = number;
    if (auto entry = quoted_after(text, "Compiling entry function"); !entry.empty()) {
      entry_ = entry;
      report_.kernels[entry_].target = quoted_after(text, "' for");
      return;
    }
    if (auto props = quoted_after(text, "Function properties for"); !props.empty()) {
      properties_ = props;
      return;
    }
    if (text.find("Function properties for ") != std::string_view::npos) {
      properties_ = std::string(trim(text.substr(text.find("for ") + 4)));
      return;
    }
    if (text.find("bytes stack frame") != std::string_view::npos) {
      if (auto it = report_.kernels.find(properties_); it != report_.kernels.end()) {
        it->second.stack_frame_bytes = count_before(text, "bytes stack frame");
        it->second.spill_store_bytes = count_before(text, "bytes spill stores");
      }
      return;
    }
    if (text.find(" registers") != std::string_view::npos &&
        text.find("Used ") != std::string_view::npos) {
      KernelResources& k = current("a register count");
      k.registers = count_after(text, "Used ");
      k.shared_bytes =
          text.find("bytes smem") == std::string_view::npos ? 0 : count_before(text, "bytes smem");
      k.line = number_;
      return;
    }
    // cuobjdump --dump-resource-usage
    const std::string_view t = trim(text);
    if (t.rfind("Function ", 0) == 0 && !t.empty() && t.back() == ':') {
      entry_ = std::string(t.substr(9, t.size() - 10));
      report_.kernels[entry_];
      return;
    }
    if (t.rfind("REG:", 0) == 0) {
      KernelResources& k = current("REG:");
      k.registers = count_after(t, "REG:");
      k.stack_frame_bytes = count_after(t, "STACK:");
      k.shared_bytes = count_after(t, "SHARED:");
      k.line = number_;
    }
  }

  PtxasReport finish() {
    for (auto it = report_.kernels.begin(); it != report_.kernels.end();) {
      it = it->second.line == 0 ? report_.kernels.erase(it) : std::next(it);
    }
    if (report_.kernels.empty())
      throw Problem{0,
                    "no kernel resources found: expected the output of 'ptxas -v' or "
                    "'cuobjdump --dump-resource-usage'"};
    return std::move(report_);
  }

 private:
  static std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  }
  [[noreturn]] void fail(const std::string& what) const { throw Problem{number_, what}; }
  KernelResources& current(const char* what) {
    if (entry_.empty()) fail(std::string(what) + " before any kernel was named");
    return report_.kernels[entry_];
  }
  // The decimal number right after `key` (0 when the key is absent).
  uint32_t count_after(std::string_view text, std::string_view key) const {
    const size_t k = text.find(key);
    if (k == std::string_view::npos) return 0;
    return number(text.substr(k + key.size()));
  }
  // The decimal number right before `key`.
  uint32_t count_before(std::string_view text, std::string_view key) const {
    size_t end = text.find(key);
    if (end == std::string_view::npos) return 0;  // as count_after: a field the line lacks
    while (end > 0 && text[end - 1] == ' ') --end;
    size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(text[begin - 1]))) --begin;
    return number(text.substr(begin, end - begin));
  }
  uint32_t number(std::string_view s) const {
    uint64_t v = 0;
    size_t digits = 0;
    while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) {
      v = v * 10 + uint64_t(s[digits] - '0');
      if (v > 0xffffffffu) fail("a count beyond 32 bits");
      ++digits;
    }
    if (digits == 0) fail("expected a number at '" + std::string(s.substr(0, 20)) + "'");
    return uint32_t(v);
  }

  PtxasReport report_;
  std::string entry_, properties_;
  uint32_t number_ = 0;
};

}  // namespace

PtxasReport parse_ptxas_report(std::string_view text, Diagnostics& diags) {
  Reader reader(diags.file());
  uint32_t number = 0;
  try {
    while (!text.empty()) {
      const size_t end = text.find('\n');
      reader.line(text.substr(0, end), ++number);
      text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return reader.finish();
  } catch (const Problem& p) {
    diags.error(SourceLoc{p.line, 0}, p.message);
    return PtxasReport{diags.file(), {}};
  }
}

void apply_ptxas_report(Program& program, const PtxasReport& report, Diagnostics& diags) {
  for (const auto& [name, r] : report.kernels) {
    Function* kernel = nullptr;
    for (Function& f : program.functions)
      if (f.is_entry && f.has_body && f.name == name) kernel = &f;
    if (!kernel) {
      diags.add(Diagnostic{report.file, SourceLoc{r.line, 0},
                           "kernel '" + name + "' is not in module '" + program.file + "'"});
      continue;
    }
    kernel->registers_per_thread = r.registers;
    kernel->register_source = RegisterSource::PtxasReport;
    if (r.shared_bytes > kernel->static_shared_bytes)
      set_static_shared_bytes(*kernel, r.shared_bytes, program.dynamic_shared_align);
  }
  program.resource_file = report.file;
}

}  // namespace gpusoc::ptx
