// The trace text reader: every field form the format allows, and every malformed line rejected
// with a message naming the file and the line.
#include "models/memsys/mem_trace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "models/common/error.h"

namespace gpusoc::memsys {
namespace {

std::vector<TraceRequest> read_all(const std::string& text, const std::string& label = "t.trace") {
  std::istringstream in(text);
  auto source = trace_reader(in, label);
  std::vector<TraceRequest> out;
  TraceRequest r;
  while (source->next(r)) out.push_back(r);
  return out;
}

// The ConfigError message of reading `text`, or "" when it reads cleanly.
std::string error_of(const std::string& text) {
  try {
    read_all(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(TraceReader, ReadsTheDocumentedExample) {
  const auto r = read_all("0 R 0x10000000 128\n1.5 W 0x10000080 32\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].time_ps, 0u);
  EXPECT_FALSE(r[0].write);
  EXPECT_EQ(r[0].address, 0x10000000u);
  EXPECT_EQ(r[0].bytes, 128u);
  EXPECT_EQ(r[1].time_ps, 1500u);
  EXPECT_TRUE(r[1].write);
  EXPECT_EQ(r[1].address, 0x10000080u);
  EXPECT_EQ(r[1].bytes, 32u);
}

TEST(TraceReader, SkipsCommentsAndBlankLinesAcceptsTabsCrlfAndDecimalAddresses) {
  const auto r = read_all(
      "# header\n\n   \n.25 R 0 1\n2\tR\t4096\t64   # trailing comment\r\n2 W 0XfF 4096\n"
      "3. W 18446744073709551615 1\n");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].time_ps, 250u);
  EXPECT_EQ(r[0].address, 0u);
  EXPECT_EQ(r[0].bytes, 1u);
  EXPECT_EQ(r[1].time_ps, 2000u);
  EXPECT_FALSE(r[1].write);
  EXPECT_EQ(r[1].address, 4096u);
  EXPECT_EQ(r[1].bytes, 64u);
  EXPECT_EQ(r[2].time_ps, 2000u);  // equal times are allowed
  EXPECT_TRUE(r[2].write);
  EXPECT_EQ(r[2].address, 0xffu);
  EXPECT_EQ(r[2].bytes, 4096u);
  EXPECT_EQ(r[3].time_ps, 3000u);
  EXPECT_EQ(r[3].address, 18446744073709551615u);
}

TEST(TraceReader, FractionalNanosecondsAreExactPicoseconds) {
  const auto r = read_all("0.001 R 0 4\n0.5 R 0 4\n12.345 R 0 4\n12.3450000 R 0 4\n13. R 0 4\n");
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].time_ps, 1u);
  EXPECT_EQ(r[1].time_ps, 500u);
  EXPECT_EQ(r[2].time_ps, 12345u);
  EXPECT_EQ(r[3].time_ps, 12345u);
  EXPECT_EQ(r[4].time_ps, 13000u);
}

TEST(TraceReader, EmptyAndCommentOnlyTracesHaveNoRequests) {
  EXPECT_TRUE(read_all("").empty());
  EXPECT_TRUE(read_all("# nothing\n\n").empty());
}

TEST(TraceReader, EveryMalformedLineNamesFileLineAndProblem) {
  const std::string ok = "# first\n1 R 0x40 32\n";  // the bad line is line 3
  const struct {
    const char* line;
    const char* message;
  } cases[] = {
      {"2 X 0x40 32", "t.trace:3: expected R or W, got 'X'"},
      {"2 r 0x40 32", "t.trace:3: expected R or W, got 'r'"},
      {"2 R 0x4g 32",
       "t.trace:3: bad address '0x4g' (expected 0x-prefixed hex or decimal bytes, < 2^64)"},
      {"2 R -64 32",
       "t.trace:3: bad address '-64' (expected 0x-prefixed hex or decimal bytes, < 2^64)"},
      {"2 R 0x10000000000000000 32",
       "t.trace:3: bad address '0x10000000000000000' (expected 0x-prefixed hex or decimal bytes, "
       "< 2^64)"},
      {"2 R 0x40 0", "t.trace:3: size 0 bytes is outside 1 .. 4096"},
      {"2 R 0x40 4097", "t.trace:3: size 4097 bytes is outside 1 .. 4096"},
      {"2 R 0x40 3.5", "t.trace:3: bad size '3.5' (expected decimal bytes)"},
      {"0.5 R 0x40 32",
       "t.trace:3: time 0.5 ns is before the previous request's 1 ns (times "
       "never decrease)"},
      {"2", "t.trace:3: missing the R|W field (expected <time_ns> <R|W> <address> <size>)"},
      {"2 R", "t.trace:3: missing the address (expected <time_ns> <R|W> <address> <size>)"},
      {"2 W 0x40 # size forgotten",
       "t.trace:3: missing the size (expected <time_ns> <R|W> <address> <size>)"},
      {"2 R 0x40 32 extra", "t.trace:3: unexpected 'extra' after the size"},
      {"2 R 0x40 32 0", "t.trace:3: unexpected '0' after the size"},
      {"-1 R 0x40 32",
       "t.trace:3: bad time '-1' (expected ns as a non-negative decimal, e.g. 1.5)"},
      {"1e3 R 0x40 32",
       "t.trace:3: bad time '1e3' (expected ns as a non-negative decimal, e.g. 1.5)"},
      {"1.2.3 R 0x40 32",
       "t.trace:3: bad time '1.2.3' (expected ns as a non-negative decimal, e.g. 1.5)"},
      {". R 0x40 32", "t.trace:3: bad time '.' (expected ns as a non-negative decimal, e.g. 1.5)"},
      {"2.0005 R 0x40 32", "t.trace:3: time '2.0005' ns is finer than 1 ps"},
      {"18446744073709552 R 0x40 32", "t.trace:3: time '18446744073709552' ns is too large"},
      {"99999999999999999999 R 0x40 32", "t.trace:3: time '99999999999999999999' ns is too large"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(error_of(ok + c.line + "\n"), c.message) << c.line;
  }
}

TEST(TraceReader, LargestTimeThatFitsInPicoseconds) {
  // 2^64 - 1 ps = 18446744073709551.615 ns.
  const auto r = read_all("18446744073709551.615 R 0 1\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].time_ps, 18446744073709551615u);
  EXPECT_EQ(error_of("18446744073709551.616 R 0 1\n"),
            "t.trace:1: time '18446744073709551.616' ns is too large");
}

TEST(TraceReader, RequestsBeforeABadLineAreDelivered) {
  std::istringstream in("1 R 0 8\n2 R 8 8\n3 Q 16 8\n");
  auto source = trace_reader(in, "mid.trace");
  TraceRequest r;
  ASSERT_TRUE(source->next(r));
  ASSERT_TRUE(source->next(r));
  EXPECT_EQ(r.address, 8u);
  try {
    source->next(r);
    FAIL() << "no error on line 3";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "mid.trace:3: expected R or W, got 'Q'");
  }
}

TEST(TraceFile, ReadsAFileAndNamesItInErrors) {
  const std::string path = ::testing::TempDir() + "gpusoc_mem_trace_test.trace";
  {
    std::ofstream out(path);
    out << "0 R 0x100 32\n0 W 0x120 32\n1 R 0x140 0\n";
  }
  auto source = open_trace_file(path);
  TraceRequest r;
  ASSERT_TRUE(source->next(r));
  ASSERT_TRUE(source->next(r));
  EXPECT_TRUE(r.write);
  EXPECT_EQ(r.address, 0x120u);
  try {
    source->next(r);
    FAIL() << "no error on line 3";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":3: size 0 bytes is outside 1 .. 4096");
  }
}

TEST(TraceFile, AMissingFileIsAConfigErrorNamingIt) {
  try {
    open_trace_file("/nonexistent/dir/x.trace");
    FAIL() << "opened a missing file";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot open trace file '/nonexistent/dir/x.trace': No such file or directory");
  }
}

}  // namespace
}  // namespace gpusoc::memsys
