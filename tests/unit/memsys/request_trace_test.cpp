// The kernel memory trace writer: requests recorded out of time order come out in it, each once
// the present has passed it; times count from the first request; and what it writes reads back
// through memtrace's own trace reader as the same requests.
#include "models/memsys/request_trace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "models/common/error.h"
#include "models/memsys/mem_trace.h"
#include "tests/unit/common/temp_dir.h"

namespace gpusoc::memsys {
namespace {

TEST(RequestTrace, RequestsComeOutInTimeOrderFromTheFirst) {
  testing::TempDir dir;
  const std::string file = dir.file("k.trace");
  RequestTraceWriter w(file);
  w.record(2'000'000, 1'000'000, MemOp::Read, 0x1000, 128);  // held: the present is 1 us
  w.record(1'500'000, 1'000'000, MemOp::Write, 0x2000, 32);  // arrived earlier, recorded later
  w.record(3'000'250, 2'500'000, MemOp::Atomic, 0x3004, 4);  // held until the end
  w.record(2'500'000, 2'500'000, MemOp::Read, 0x4000, 64);
  w.finish();
  EXPECT_EQ(w.requests(), 4u);
  std::string text = testing::read_file(file), body;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.empty() || line[0] != '#') body += line + "\n";
  EXPECT_EQ(body,
            "0.000 W 0x2000 32\n"
            "500.000 R 0x1000 128\n"
            "1000.000 R 0x4000 64\n"
            "1500.250 W 0x3004 4\n");
  // memtrace reads it back as written.
  std::ifstream in(file);
  const auto reader = trace_reader(in, file);
  TraceRequest r;
  ASSERT_TRUE(reader->next(r));
  EXPECT_EQ(r.time_ps, 0u);
  EXPECT_TRUE(r.write);
  ASSERT_TRUE(reader->next(r) && reader->next(r) && reader->next(r));
  EXPECT_EQ(r.time_ps, 1'500'250u);
  EXPECT_EQ(r.address, 0x3004u);
  EXPECT_EQ(r.bytes, 4u);
  EXPECT_FALSE(reader->next(r));
}

TEST(RequestTrace, AFileThatCannotBeWrittenIsAnError) {
  EXPECT_THROW(RequestTraceWriter("/nonexistent/dir/k.trace"), ConfigError);
}

}  // namespace
}  // namespace gpusoc::memsys
