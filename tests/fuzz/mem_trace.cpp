// Fuzz target: the bytes as a memory trace in the text format of models/memsys/mem_trace.h, read
// to the end with trace_reader over an istringstream, as `gpusoc memtrace --trace FILE` reads
// one. A first line "#!pattern PATTERN [REQUESTS [BYTES [BASE [FOOTPRINT [SEED [RATE]]]]]]" (a
// comment to the reader) also builds that generator (pattern_source, --pattern) and takes up to
// kMaxPatternRequests of its requests.
// Expected: gpusoc::Error (ConfigError naming the file and line, or --pattern / --rate).
// Findings beyond crashes: a request that breaks the format's documented limits (size 1 ..
// 4096, times never decreasing; a pattern's requests inside [base, base + footprint)).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/memsys/mem_trace.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace gpusoc;

constexpr uint64_t kMaxPatternRequests = 4096;  // keeps one input short; the limit is the spec's

std::string_view next_word(std::string_view& rest) {
  const size_t begin = rest.find_first_not_of(' ');
  if (begin == std::string_view::npos) return rest = {};
  rest.remove_prefix(begin);
  const size_t end = std::min(rest.find(' '), rest.size());
  const std::string_view word = rest.substr(0, end);
  rest.remove_prefix(end);
  return word;
}

template <typename T>
void parse_into(std::string_view word, T& value) {
  if (!word.empty()) std::from_chars(word.data(), word.data() + word.size(), value);
}

void read_trace(std::string_view text) {
  std::istringstream in{std::string(text)};
  const auto source = memsys::trace_reader(in, "fuzz.trace");
  memsys::TraceRequest r;
  uint64_t last_ps = 0;
  while (source->next(r)) {
    if (r.bytes == 0 || r.bytes > memsys::kMaxTraceRequestBytes)
      fuzz::finding("mem_trace",
                    fmt::format("{}: a request of {} bytes", source->position(), r.bytes));
    if (r.time_ps < last_ps)
      fuzz::finding("mem_trace", fmt::format("{}: time {} ps after {} ps", source->position(),
                                             r.time_ps, last_ps));
    last_ps = r.time_ps;
  }
}

void read_pattern(std::string_view line) {
  memsys::PatternSpec spec;
  spec.pattern = std::string(next_word(line));
  parse_into(next_word(line), spec.requests);
  parse_into(next_word(line), spec.bytes);
  parse_into(next_word(line), spec.base);
  parse_into(next_word(line), spec.footprint);
  parse_into(next_word(line), spec.seed);
  parse_into(next_word(line), spec.rate_gbps);
  const auto source = memsys::pattern_source(spec);
  memsys::TraceRequest r;
  uint64_t last_ps = 0;
  for (uint64_t i = 0; i < kMaxPatternRequests && source->next(r); ++i) {
    const bool inside = r.address >= spec.base && r.bytes <= spec.footprint &&
                        r.address - spec.base <= spec.footprint - r.bytes;
    if (r.bytes != spec.bytes || !inside || r.time_ps < last_ps) {
      fuzz::finding("mem_trace",
                    fmt::format("{}: request {} R/W {} at {:#x} of {} bytes, time {} ps (after {} "
                                "ps), for base {:#x} footprint {:#x} bytes {}",
                                source->position(), i, r.write ? "W" : "R", r.address, r.bytes,
                                r.time_ps, last_ps, spec.base, spec.footprint, spec.bytes));
    }
    last_ps = r.time_ps;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    read_trace(text);
  } catch (const Error& e) {
    fuzz::expected_error("mem_trace", e);
  } catch (...) {
    fuzz::unexpected_exception("mem_trace");
  }
  constexpr std::string_view kPattern = "#!pattern ";
  if (text.rfind(kPattern, 0) == 0) {
    const std::string_view line = text.substr(kPattern.size(), text.find('\n') - kPattern.size());
    try {
      read_pattern(line);
    } catch (const Error& e) {
      fuzz::expected_error("mem_trace", e);
    } catch (...) {
      fuzz::unexpected_exception("mem_trace");
    }
  }
  return 0;
}
