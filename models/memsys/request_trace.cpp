#include "models/memsys/request_trace.h"

#include <cerrno>
#include <cstring>
#include <functional>

#include "models/common/error.h"

namespace gpusoc::memsys {

RequestTraceWriter::RequestTraceWriter(const std::string& path)
    : path_(path), out_(std::fopen(path.c_str(), "w")) {
  if (!out_)
    throw ConfigError("--mem-trace '" + path + "': cannot write it: " + std::strerror(errno));
  std::fputs(
      "# gpusoc kernel memory trace: the requests the SMs offered the memory system (after\n"
      "# their L1s), for gpusoc memtrace --trace. Times from the first request; atomics are\n"
      "# written as W.\n"
      "# time_ns  R|W  address  size\n",
      out_);
}

RequestTraceWriter::~RequestTraceWriter() {
  if (out_) std::fclose(out_);
}

void RequestTraceWriter::record(uint64_t arrival_ps, uint64_t now_ps, MemOp op, uint64_t address,
                                uint32_t bytes) {
  held_.push(Entry{arrival_ps, requests_++, address, bytes, op == MemOp::Read ? 'R' : 'W'});
  write_until(now_ps);  // nothing can arrive before the present any more
}

void RequestTraceWriter::write_until(uint64_t ps) {
  while (!held_.empty() && held_.top().ps <= ps) {
    Entry e = held_.top();
    if (requests_written_++ == 0) origin_ps_ = e.ps;
    e.ps -= origin_ps_;
    std::fprintf(out_, "%llu.%03llu %c 0x%llx %u\n", (unsigned long long)(e.ps / 1000),
                 (unsigned long long)(e.ps % 1000), e.op, (unsigned long long)e.address, e.bytes);
    held_.pop();
  }
}

void RequestTraceWriter::finish() {
  if (!out_) return;
  write_until(~uint64_t(0));
  const bool failed = std::ferror(out_) != 0;
  const bool closed = std::fclose(out_) == 0;
  out_ = nullptr;
  if (failed || !closed) throw Error("--mem-trace '" + path_ + "': writing the trace failed");
}

}  // namespace gpusoc::memsys
