// Memory traces for exploring the memory system without kernels: a documented text format and
// built-in generators, both read as a stream of requests (a 1M-request trace is never held in
// memory at once).
//
// Text format (docs/memory.md), one request per line:
//     <time_ns> <R|W> <address> <size>
//   time_ns: when the request is offered, in ns from the start (decimal, fraction allowed),
//            never decreasing from one line to the next; address: hex (0x...) or decimal byte
//            address; size: bytes (decimal, 1 .. 4096). '#' starts a comment; blank lines are
//            ignored. Anything else is an error naming the file and line.
//   Example:  0 R 0x10000000 128
//             1.5 W 0x10000080 32
//
// Generators (--pattern): every request offered at time 0 (the hierarchy's backpressure sets the
// pace), or, given an offered load (--rate, GB/s), request i at i * size / rate ns (an open loop,
// for loaded-latency curves); addresses from `base`, within `footprint` bytes:
//   stream    sequential: request i at base + i * size (wrapping at the footprint)
//   random    uniformly random size-aligned addresses in the footprint (fixed-seed generator)
//   stride:N  request i at base + i * N (wrapping), N a positive byte count
//   mix:R     the stream's addresses; each request a read with probability R (0 <= R <= 1),
//             else a write (fixed-seed generator)
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>

namespace gpusoc::memsys {

/// The largest request of a trace or a pattern, in bytes.
constexpr uint32_t kMaxTraceRequestBytes = 4096;

struct TraceRequest {
  uint64_t time_ps = 0;
  bool write = false;
  uint64_t address = 0;
  uint32_t bytes = 0;
};

class TraceSource {
 public:
  virtual ~TraceSource() = default;
  /// The next request; false at the end. ConfigError naming the file and line on bad input.
  virtual bool next(TraceRequest& request) = 0;
  /// Where the last request came from, for errors about it: "trace.txt:12", "request 7 of
  /// --pattern stream".
  virtual std::string position() const = 0;
  /// Requests in all, for progress reports; 0: not known ahead (a trace file).
  virtual uint64_t total() const { return 0; }
};

/// Reads the text format from `in`; errors name `label` (the file name) and the line.
std::unique_ptr<TraceSource> trace_reader(std::istream& in, const std::string& label);
/// Opens and reads a trace file; ConfigError when it cannot be opened.
std::unique_ptr<TraceSource> open_trace_file(const std::string& path);

struct PatternSpec {
  std::string pattern = "stream";  // as --pattern spells it: stream, random, stride:N, mix:R
  uint64_t requests = 1000000;
  uint32_t bytes = 32;  // per request (1 .. 4096)
  uint64_t base = 0;
  uint64_t footprint = 256ull << 20;  // bytes, >= bytes
  uint64_t seed = 1;
  double rate_gbps = 0;  // offered load; 0: every request at time 0
};
/// ConfigError naming `--pattern` or `--rate` (and what is wrong) on a malformed pattern or spec.
std::unique_ptr<TraceSource> pattern_source(const PatternSpec& spec);

}  // namespace gpusoc::memsys
