// Random and mutated input never crashes or hangs the parser, and every diagnostic has a place.
// Run under -DGPUSOC_SANITIZE=ON to catch memory errors; GPUSOC_PARSER_FUZZ_SCALE=N runs N times
// as many cases (deterministic seeds either way).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "parse_helpers.h"

namespace gpusoc::ptx::test {
namespace {

constexpr size_t kMaxDiagnostics = 101;  // the parser's limit plus its "giving up" note

int scaled(int cases) {
  const char* scale = std::getenv("GPUSOC_PARSER_FUZZ_SCALE");
  return scale != nullptr ? cases * std::max(1, std::atoi(scale)) : cases;
}

void check(std::string_view text) {
  Diagnostics diags("fuzz.ptx");
  parse_module(text, diags);
  const auto lines = static_cast<uint32_t>(1 + std::count(text.begin(), text.end(), '\n'));
  ASSERT_LE(diags.list().size(), kMaxDiagnostics);
  for (const Diagnostic& d : diags.list()) {
    ASSERT_GE(d.loc.line, 1u) << d.to_string();
    ASSERT_GE(d.loc.column, 1u) << d.to_string();
    ASSERT_LE(d.loc.line, lines) << d.to_string();
    ASSERT_FALSE(d.message.empty());
  }
}

// PTX fragments, good and bad, separated by single spaces.
constexpr std::string_view kWords =
    ".version 8.5 .target sm_80 , .address_size 64 .visible .extern .entry .func ( ) { } [ ] ; : "
    "= < > + - ! | @ %r1 %p1 %tid .x %rd<4> .reg .param .global .shared .local .const .align 8 "
    ".b32 .u64 .pred .v4 .f32 .ptr .attribute .managed k _ $L__BB0_1 ld .nc mov.u32 call.uni bra "
    "ret exit 0x1F 0f3F800000 0d3FF0000000000000 1.5 -4 017 0b101 0x 99999999999999999999999 "
    "generic .callprototype .section .debug_info .loc .file .pragma \"nounroll\" \"open /* */ // "
    ".maxntid .reqnctapercluster .noreturn prototype_0 # \x01 \xff .branchtargets .texref";

const std::vector<std::string>& vocabulary() {
  static const std::vector<std::string> words = [] {
    std::vector<std::string> out;
    std::istringstream in{std::string(kWords)};
    for (std::string word; in >> word;) out.push_back(word);
    return out;
  }();
  return words;
}

TEST(ParserFuzz, RandomBytes) {
  std::mt19937_64 rng(1);
  const std::string alphabet = "%.$_:;,{}[]()<>+-!|@=\"/*\n\t 0123456789abcdefxXfFdDuU";
  for (int i = 0; i < scaled(3000); ++i) {
    std::string text(rng() % 300, '\0');
    for (char& c : text) {
      c = rng() % 3 == 0 ? static_cast<char>(rng()) : alphabet[rng() % alphabet.size()];
    }
    check(text);
    if (HasFatalFailure()) return ADD_FAILURE() << "input #" << i;
  }
}

TEST(ParserFuzz, TokenSoup) {
  std::mt19937_64 rng(2);
  const auto& words = vocabulary();
  const char* separators[] = {" ", "\n", "", "\t"};
  for (int i = 0; i < scaled(3000); ++i) {
    std::string text = rng() % 2 ? std::string(kHeader) : "";
    const size_t count = rng() % 80;
    for (size_t t = 0; t < count; ++t) {
      text += words[rng() % words.size()];
      text += separators[rng() % 4];
    }
    check(text);
    if (HasFatalFailure()) return ADD_FAILURE() << "input:\n" << text;
  }
}

std::string mutate(std::string text, std::mt19937_64& rng) {
  const auto& words = vocabulary();
  for (int n = 1 + static_cast<int>(rng() % 4); n > 0 && !text.empty(); --n) {
    const size_t at = rng() % text.size();
    const size_t len = std::min<size_t>(rng() % 40, text.size() - at);
    switch (rng() % 6) {
      case 0:
        text.erase(at, len);
        break;
      case 1:
        text.insert(at, text.substr(at, len));
        break;
      case 2:
        text.insert(at, words[rng() % words.size()]);
        break;
      case 3:
        text[at] = static_cast<char>(rng());
        break;
      case 4:
        text.resize(at);
        break;
      default:
        std::swap(text[at], text[rng() % text.size()]);
        break;
    }
  }
  return text;
}

TEST(ParserFuzz, MutatedFixtures) {
  std::mt19937_64 rng(3);
  const std::filesystem::path dir =
      std::filesystem::path(GPUSOC_SOURCE_DIR) / "tests/unit/ptx/parser/fixtures";
  int fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".ptx") continue;
    ++fixtures;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream original;
    original << in.rdbuf();
    for (int i = 0; i < scaled(150); ++i) {
      const std::string text = mutate(original.str(), rng);
      check(text);
      if (HasFatalFailure()) return ADD_FAILURE() << entry.path() << " mutation #" << i;
    }
  }
  EXPECT_GE(fixtures, 5);
}

TEST(ParserFuzz, PathologicalShapes) {
  check(std::string(100000, '{'));
  check(std::string(100000, '}'));
  check(std::string(kHeader) + ".entry k() {" + std::string(50000, '{'));
  check(std::string(kHeader) + ".global .u32 x[1] = " + std::string(50000, '{'));
  check(std::string(kHeader) + ".entry k() { mov.u32 %r1, " + std::string(50000, '[') + ";}");
  check(std::string(kHeader) + ".entry k() { call (" + std::string(50000, '(') + ";}");
  check(std::string(200000, ';'));
  check(std::string(100000, '\n'));
  check("/*" + std::string(100000, '*'));
  check(std::string(100000, '"'));
  check(std::string(100000, '0'));
  check(std::string(kHeader) + ".entry k() { .reg .b32 %r<" + std::string(5000, '9') + ">; }");
  check(std::string("\0\0\0.version\0 8.5", 16));
}

}  // namespace
}  // namespace gpusoc::ptx::test
