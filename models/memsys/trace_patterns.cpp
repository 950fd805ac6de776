// The built-in trace generators of --pattern (mem_trace.h). Random choices come from SplitMix64
// (Steele, Lea and Flood, 2014), written out here so that a seed gives the same trace with every
// compiler and standard library; std distributions differ between libraries.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <string_view>

#include "models/common/error.h"
#include "models/memsys/mem_trace.h"

namespace gpusoc::memsys {
namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = state_ += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// In [0, n): the high half of a 64x64-bit product (bias below n / 2^64, no division).
  uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }

 private:
  uint64_t state_;
};

// What every pattern shares: how many requests, their size, and when each is offered (all at
// time 0, or request i at i * bytes / rate).
class PatternSource : public TraceSource {
 protected:
  explicit PatternSource(const PatternSpec& spec)
      : bytes_(spec.bytes),
        pattern_(spec.pattern),
        left_(spec.requests),
        interval_ps_(spec.rate_gbps > 0 ? spec.bytes * 1000.0 / spec.rate_gbps : 0.0) {}
  // The next request's time and size; false when none is left.
  bool take(TraceRequest& request) {
    if (left_ == 0) return false;
    --left_;
    request.time_ps = uint64_t(std::llround(double(index_++) * interval_ps_));
    request.bytes = bytes_;
    return true;
  }
  std::string position() const override {
    return fmt::format("request {} of --pattern {}", index_ - 1, pattern_);
  }
  uint64_t total() const override { return index_ + left_; }
  uint32_t bytes_;

 private:
  std::string pattern_;
  uint64_t left_, index_ = 0;
  double interval_ps_;
};

// Offsets advancing by `step` modulo `span`; with a read fraction, each request is a read with
// that probability (mix:R), else all are reads.
class SequenceSource : public PatternSource {
 public:
  SequenceSource(const PatternSpec& spec, uint64_t step, uint64_t span, bool mixed, double reads)
      : PatternSource(spec),
        base_(spec.base),
        step_(step % span),
        span_(span),
        mixed_(mixed),
        rng_(spec.seed),
        // A read when the next 53 random bits, as a fraction of 2^53, fall below `reads`.
        read_below_(uint64_t(std::ldexp(reads, 53))) {}

  bool next(TraceRequest& request) override {
    if (!take(request)) return false;
    request.address = base_ + offset_;
    request.write = mixed_ && (rng_.next() >> 11) >= read_below_;
    offset_ = offset_ >= span_ - step_ ? offset_ - (span_ - step_) : offset_ + step_;
    return true;
  }

 private:
  uint64_t base_;
  uint64_t step_, span_, offset_ = 0;
  bool mixed_;
  SplitMix64 rng_;
  uint64_t read_below_;
};

// Uniformly random slots of `bytes` within the footprint; all reads.
class RandomSource : public PatternSource {
 public:
  explicit RandomSource(const PatternSpec& spec)
      : PatternSource(spec),
        base_(spec.base),
        slots_(spec.footprint / spec.bytes),
        rng_(spec.seed) {}

  bool next(TraceRequest& request) override {
    if (!take(request)) return false;
    request.address = base_ + rng_.below(slots_) * bytes_;
    request.write = false;
    return true;
  }

 private:
  uint64_t base_, slots_;
  SplitMix64 rng_;
};

[[noreturn]] void bad(const PatternSpec& spec, const std::string& what) {
  throw ConfigError(fmt::format("--pattern '{}': {}", spec.pattern, what));
}

uint64_t parse_stride(const PatternSpec& spec, std::string_view text) {
  uint64_t stride = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), stride);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || stride == 0)
    bad(spec, fmt::format("the stride '{}' is not a positive decimal byte count", text));
  return stride;
}

double parse_read_fraction(const PatternSpec& spec, std::string_view text) {
  double r = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), r);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(r >= 0) || r > 1)
    bad(spec, fmt::format("the read fraction '{}' is not a number in 0 .. 1", text));
  return r;
}

}  // namespace

std::unique_ptr<TraceSource> pattern_source(const PatternSpec& spec) {
  if (spec.bytes == 0 || spec.bytes > kMaxTraceRequestBytes)
    bad(spec,
        fmt::format("request size {} bytes is outside 1 .. {}", spec.bytes, kMaxTraceRequestBytes));
  if (spec.footprint < spec.bytes)
    bad(spec, fmt::format("footprint {} bytes is smaller than one {}-byte request", spec.footprint,
                          spec.bytes));
  if (!(spec.rate_gbps >= 0) || std::isinf(spec.rate_gbps))
    throw ConfigError(fmt::format("--rate {}: the offered load must be a positive number of GB/s",
                                  spec.rate_gbps));
  // The last request's time, in ps, must fit in 63 bits (traces' own limit).
  if (spec.rate_gbps > 0 && double(spec.requests) * spec.bytes * 1000.0 / spec.rate_gbps > 9.2e18)
    throw ConfigError(
        fmt::format("--rate {}: {} requests of {} bytes at that rate would run "
                    "past the picosecond clock's range",
                    spec.rate_gbps, spec.requests, spec.bytes));
  if (spec.base > std::numeric_limits<uint64_t>::max() - spec.footprint)
    bad(spec, fmt::format("base {:#x} + footprint {:#x} passes the end of the 64-bit address space",
                          spec.base, spec.footprint));

  const std::string_view p = spec.pattern;
  const size_t colon = p.find(':');
  const std::string_view name = p.substr(0, colon);
  const bool has_arg = colon != std::string_view::npos;
  const std::string_view arg = has_arg ? p.substr(colon + 1) : std::string_view();
  // Whole requests only: the tail of a footprint that is not a multiple of the size is unused.
  const uint64_t whole_span = spec.footprint / spec.bytes * spec.bytes;

  if (name == "stream" && !has_arg)
    return std::make_unique<SequenceSource>(spec, spec.bytes, whole_span, false, 1.0);
  if (name == "random" && !has_arg) return std::make_unique<RandomSource>(spec);
  if (name == "mix" && has_arg) {
    const double reads = parse_read_fraction(spec, arg);
    return std::make_unique<SequenceSource>(spec, spec.bytes, whole_span, true, reads);
  }
  if (name == "stride" && has_arg) {
    const uint64_t stride = parse_stride(spec, arg);
    // The offsets i * N mod F are the multiples of gcd(N, F) below F: the last one fits a whole
    // request only when the gcd is at least the request size.
    const uint64_t step = std::gcd(stride, spec.footprint);
    if (step < spec.bytes)
      bad(spec, fmt::format("{}-byte requests at stride {} in a {}-byte footprint would cross its "
                            "end (gcd(stride, footprint) = {} must be >= the request size)",
                            spec.bytes, stride, spec.footprint, step));
    return std::make_unique<SequenceSource>(spec, stride, spec.footprint, false, 1.0);
  }
  if (name == "stream" || name == "random" || name == "mix" || name == "stride")
    bad(spec, has_arg ? fmt::format("{} takes no argument", name)
                      : fmt::format(
                            "{} needs an argument: {}", name,
                            name == "mix" ? "mix:R, R the read fraction" : "stride:N, N in bytes"));
  bad(spec, "unknown pattern (patterns: stream, random, stride:N, mix:R)");
}

}  // namespace gpusoc::memsys
