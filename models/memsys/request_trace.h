// Records the requests a memory system is offered (the SMs' L1-miss stream, with texture
// fetches) in memtrace's trace format (docs/memory.md), so that the traffic of a real kernel can
// be replayed against other memory configurations with `gpusoc memtrace --trace`. Requests
// reach the memory system out of time order by up to the SMs' temporal decoupling; none arrives
// before the present SystemC time, so each is held until the present passes it and the file is
// in time order. Times count from the first request, so that a replay starts with the kernel.
#pragma once

#include <cstdint>
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "models/common/mem_packet.h"

namespace gpusoc::memsys {

class RequestTraceWriter {
 public:
  /// ConfigError when `path` cannot be opened for writing.
  explicit RequestTraceWriter(const std::string& path);
  ~RequestTraceWriter();
  RequestTraceWriter(const RequestTraceWriter&) = delete;
  RequestTraceWriter& operator=(const RequestTraceWriter&) = delete;

  /// A request offered at `arrival_ps`, recorded when SystemC time is `now_ps`. Atomics are
  /// written as W (the trace format has reads and writes; an atomic writes its line at the L2).
  void record(uint64_t arrival_ps, uint64_t now_ps, MemOp op, uint64_t address, uint32_t bytes);
  /// Writes what is held and closes the file; Error when writing failed.
  void finish();
  uint64_t requests() const { return requests_; }
  const std::string& path() const { return path_; }

 private:
  struct Entry {
    uint64_t ps, order, address;
    uint32_t bytes;
    char op;
    bool operator>(const Entry& o) const { return ps != o.ps ? ps > o.ps : order > o.order; }
  };
  void write_until(uint64_t ps);

  std::string path_;
  std::FILE* out_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> held_;
  uint64_t requests_ = 0;
  uint64_t requests_written_ = 0;
  uint64_t origin_ps_ = 0;  // the first request's time: the file's time 0
};

}  // namespace gpusoc::memsys
