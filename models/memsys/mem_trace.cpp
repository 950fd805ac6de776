// The trace text reader (format in mem_trace.h): one line at a time into a reused buffer, fields
// parsed with std::from_chars, so a trace of any length streams through in constant memory.
#include "models/memsys/mem_trace.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <string_view>

#include "models/common/error.h"

namespace gpusoc::memsys {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// The next whitespace-separated field of `rest` (empty at the end of the line).
std::string_view next_field(std::string_view& rest) {
  size_t begin = 0;
  while (begin < rest.size() && is_space(rest[begin])) ++begin;
  size_t end = begin;
  while (end < rest.size() && !is_space(rest[end])) ++end;
  const std::string_view field = rest.substr(begin, end - begin);
  rest.remove_prefix(end);
  return field;
}

// Whole-field unsigned parse; false on any stray character or overflow.
bool parse_u64(std::string_view text, int base, uint64_t& value) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return ec == std::errc() && end == text.data() + text.size();
}

// "1.5" ns -> 1500 ps; exact (no floating point). Empty string when fine, else the reason.
std::string parse_time_ps(std::string_view text, uint64_t& ps) {
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  const auto all_digits = [](std::string_view s) {
    return s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if ((whole.empty() && fraction.empty()) || !all_digits(whole) || !all_digits(fraction))
    return fmt::format("bad time '{}' (expected ns as a non-negative decimal, e.g. 1.5)", text);
  uint64_t ns = 0, frac_ps = 0;
  if (!whole.empty() && !parse_u64(whole, 10, ns))
    return fmt::format("time '{}' ns is too large", text);
  if (fraction.size() > 3 && fraction.find_first_not_of('0', 3) != std::string_view::npos)
    return fmt::format("time '{}' ns is finer than 1 ps", text);
  for (size_t i = 0; i < 3; ++i)
    frac_ps = frac_ps * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
  if (ns > (kMax - frac_ps) / 1000) return fmt::format("time '{}' ns is too large", text);
  ps = ns * 1000 + frac_ps;
  return {};
}

// "1500" ps -> "1.5" (ns, as the file writes it).
std::string ns_text(uint64_t ps) {
  std::string text = fmt::format("{}.{:03}", ps / 1000, ps % 1000);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

class TextTraceReader : public TraceSource {
 public:
  TextTraceReader(std::istream& in, std::string label, std::unique_ptr<std::istream> owned)
      : owned_(std::move(owned)), in_(in), label_(std::move(label)) {}

  bool next(TraceRequest& request) override {
    while (std::getline(in_, line_)) {
      ++line_number_;
      std::string_view rest(line_);
      if (const size_t hash = rest.find('#'); hash != std::string_view::npos)
        rest = rest.substr(0, hash);
      const std::string_view time = next_field(rest);
      if (time.empty()) continue;  // blank or comment-only line
      parse_line(time, rest, request);
      return true;
    }
    if (in_.bad()) fail(fmt::format("read error after line {}", line_number_));
    return false;
  }

  std::string position() const override { return fmt::format("{}:{}", label_, line_number_); }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ConfigError(fmt::format("{}:{}: {}", label_, line_number_, what));
  }

  std::string_view field(std::string_view& rest, const char* name) const {
    const std::string_view f = next_field(rest);
    if (f.empty())
      fail(fmt::format("missing the {} (expected <time_ns> <R|W> <address> <size>)", name));
    return f;
  }

  void parse_line(std::string_view time, std::string_view rest, TraceRequest& request) {
    uint64_t ps = 0;
    if (std::string why = parse_time_ps(time, ps); !why.empty()) fail(why);
    if (ps < last_ps_)
      fail(fmt::format("time {} ns is before the previous request's {} ns (times never decrease)",
                       ns_text(ps), ns_text(last_ps_)));

    const std::string_view kind = field(rest, "R|W field");
    if (kind != "R" && kind != "W") fail(fmt::format("expected R or W, got '{}'", kind));

    const std::string_view address = field(rest, "address");
    const bool hex = address.size() > 2 && address[0] == '0' && (address[1] | 0x20) == 'x';
    uint64_t addr = 0;
    if (!parse_u64(hex ? address.substr(2) : address, hex ? 16 : 10, addr))
      fail(fmt::format("bad address '{}' (expected 0x-prefixed hex or decimal bytes, < 2^64)",
                       address));

    const std::string_view size = field(rest, "size");
    uint64_t bytes = 0;
    if (!parse_u64(size, 10, bytes))
      fail(fmt::format("bad size '{}' (expected decimal bytes)", size));
    if (bytes == 0 || bytes > kMaxTraceRequestBytes)
      fail(fmt::format("size {} bytes is outside 1 .. {}", size, kMaxTraceRequestBytes));

    if (const std::string_view extra = next_field(rest); !extra.empty())
      fail(fmt::format("unexpected '{}' after the size", extra));

    last_ps_ = ps;
    request.time_ps = ps;
    request.write = kind == "W";
    request.address = addr;
    request.bytes = uint32_t(bytes);
  }

  std::unique_ptr<std::istream> owned_;  // the file, when we opened it
  std::istream& in_;
  std::string label_;
  std::string line_;  // reused: no allocation per line once it has grown
  uint64_t line_number_ = 0;
  uint64_t last_ps_ = 0;
};

}  // namespace

std::unique_ptr<TraceSource> trace_reader(std::istream& in, const std::string& label) {
  return std::make_unique<TextTraceReader>(in, label, nullptr);
}

std::unique_ptr<TraceSource> open_trace_file(const std::string& path) {
  auto file = std::make_unique<std::ifstream>(path);
  if (!*file)
    throw ConfigError(fmt::format("cannot open trace file '{}': {}", path, std::strerror(errno)));
  std::istream& in = *file;
  return std::make_unique<TextTraceReader>(in, path, std::move(file));
}

}  // namespace gpusoc::memsys
