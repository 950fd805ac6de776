// The --pattern generators: exact address sequences worked out by hand (and, for the random ones,
// from SplitMix64 computed separately in Python), the statistics of the random choices against
// stated bounds, and a ConfigError naming --pattern for every malformed spec.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/memsys/mem_trace.h"

namespace gpusoc::memsys {
namespace {

std::vector<TraceRequest> generate(const PatternSpec& spec) {
  auto source = pattern_source(spec);
  std::vector<TraceRequest> out;
  TraceRequest r;
  while (source->next(r)) out.push_back(r);
  return out;
}

PatternSpec spec_of(const std::string& pattern, uint64_t requests, uint32_t bytes, uint64_t base,
                    uint64_t footprint, uint64_t seed = 1) {
  PatternSpec s;
  s.pattern = pattern;
  s.requests = requests;
  s.bytes = bytes;
  s.base = base;
  s.footprint = footprint;
  s.seed = seed;
  return s;
}

std::vector<uint64_t> addresses(const std::vector<TraceRequest>& requests) {
  std::vector<uint64_t> out;
  for (const auto& r : requests) out.push_back(r.address);
  return out;
}

TEST(StreamPattern, SequentialRequestsWrapAtTheFootprint) {
  const auto r = generate(spec_of("stream", 6, 32, 0x1000, 128));
  EXPECT_EQ(addresses(r), (std::vector<uint64_t>{0x1000, 0x1020, 0x1040, 0x1060, 0x1000, 0x1020}));
  for (const auto& q : r) {
    EXPECT_EQ(q.time_ps, 0u);
    EXPECT_FALSE(q.write);
    EXPECT_EQ(q.bytes, 32u);
  }
}

TEST(StreamPattern, AFootprintTailSmallerThanARequestIsUnused) {
  // 100 bytes hold three whole 32-byte requests (0, 32, 64); 96 .. 99 is never touched.
  EXPECT_EQ(addresses(generate(spec_of("stream", 5, 32, 0, 100))),
            (std::vector<uint64_t>{0, 32, 64, 0, 32}));
}

TEST(StridePattern, RequestIAtBasePlusIStrideModuloTheFootprint) {
  EXPECT_EQ(addresses(generate(spec_of("stride:256", 6, 64, 0x10000, 1024))),
            (std::vector<uint64_t>{0x10000, 0x10100, 0x10200, 0x10300, 0x10000, 0x10100}));
  // 1280 mod 1024 = 256: i * 1280 mod 1024 = 0, 256, 512, 768, 0.
  EXPECT_EQ(addresses(generate(spec_of("stride:1280", 5, 64, 0, 1024))),
            (std::vector<uint64_t>{0, 256, 512, 768, 0}));
  // 384 * i mod 1024 = 0, 384, 768, 128, 512, 896, 256, 640, 0 (gcd 128 >= 64).
  EXPECT_EQ(addresses(generate(spec_of("stride:384", 9, 64, 0, 1024))),
            (std::vector<uint64_t>{0, 384, 768, 128, 512, 896, 256, 640, 0}));
  // A stride that is a multiple of the footprint stays at the base.
  EXPECT_EQ(addresses(generate(spec_of("stride:2048", 3, 64, 0x40, 1024))),
            (std::vector<uint64_t>{0x40, 0x40, 0x40}));
}

TEST(StridePattern, WrapsWithoutOverflowInTheTopOfTheAddressSpace) {
  // Footprint 2^63 + 2^62 with stride 2^63: offsets 0, 2^63, 2^62, 0 (each mod the footprint).
  const uint64_t f = (1ull << 63) + (1ull << 62);
  EXPECT_EQ(addresses(generate(spec_of("stride:9223372036854775808", 4, 4096, 0, f))),
            (std::vector<uint64_t>{0, 1ull << 63, 1ull << 62, 0}));
}

TEST(RandomPattern, FirstAddressesAreSplitMix64ScaledToTheSlots) {
  // Python: splitmix64(seed 1) = 0x910a2dec89025cc1, 0xbeeb8da1658eec67, 0xf893a2eefb32555e,
  // 0x71c18690ee42c90b, 0x71bb54d8d101b5b9, 0xc34d0bff90150280; slot = (x * 64) >> 64.
  EXPECT_EQ(addresses(generate(spec_of("random", 6, 64, 0x80000000, 4096))),
            (std::vector<uint64_t>{0x80000900, 0x80000bc0, 0x80000f80, 0x80000700, 0x80000700,
                                   0x80000c00}));
  // SplitMix64's published first output for seed 0 is 0xe220a8397b1dcdaf: slot 0xe2 of 256.
  EXPECT_EQ(generate(spec_of("random", 1, 1, 0, 256, 0))[0].address, 0xe2u);
}

TEST(RandomPattern, SameSeedSameTraceOtherSeedOtherTrace) {
  const auto a = addresses(generate(spec_of("random", 100, 32, 0, 1 << 20, 5)));
  EXPECT_EQ(a, addresses(generate(spec_of("random", 100, 32, 0, 1 << 20, 5))));
  EXPECT_NE(a, addresses(generate(spec_of("random", 100, 32, 0, 1 << 20, 6))));
}

TEST(RandomPattern, AlignedInsideTheFootprintAndUniformByChiSquare) {
  constexpr uint64_t kSlots = 1024, kBytes = 64, kBase = 0x200000, kPerSlot = 100;
  const auto r = generate(spec_of("random", kSlots * kPerSlot, kBytes, kBase, kSlots * kBytes));
  std::vector<uint64_t> counts(kSlots);
  for (const auto& q : r) {
    ASSERT_GE(q.address, kBase);
    ASSERT_LT(q.address, kBase + kSlots * kBytes);
    ASSERT_EQ((q.address - kBase) % kBytes, 0u);
    ASSERT_FALSE(q.write);
    ++counts[(q.address - kBase) / kBytes];
  }
  double chi2 = 0;
  for (uint64_t c : counts) {
    const double d = double(c) - double(kPerSlot);
    chi2 += d * d / kPerSlot;
  }
  // Chi-square with 1023 degrees of freedom: mean 1023, standard deviation sqrt(2 * 1023) = 45.2.
  // Five standard deviations either side (too uniform is as suspect as too lumpy).
  const double sd = std::sqrt(2.0 * (kSlots - 1));
  EXPECT_LT(chi2, (kSlots - 1) + 5 * sd) << chi2;
  EXPECT_GT(chi2, (kSlots - 1) - 5 * sd) << chi2;
}

TEST(MixPattern, StreamAddressesWithReadsAtTheRequestedFraction) {
  // Python: splitmix64(seed 7) >> 11 against 0.5 * 2^53: R R W W R R R R.
  const auto first = generate(spec_of("mix:0.5", 8, 32, 0x100, 1 << 20, 7));
  std::string kinds;
  for (const auto& q : first) kinds += q.write ? 'W' : 'R';
  EXPECT_EQ(kinds, "RRWWRRRR");
  EXPECT_EQ(addresses(first),
            (std::vector<uint64_t>{0x100, 0x120, 0x140, 0x160, 0x180, 0x1a0, 0x1c0, 0x1e0}));

  constexpr uint64_t n = 100000;
  const double p = 0.3;
  uint64_t reads = 0;
  for (const auto& q : generate(spec_of("mix:0.3", n, 32, 0, 1 << 20))) reads += !q.write;
  // Binomial(n, 0.3): sigma = sqrt(n p (1 - p)) = 144.9; within four sigma.
  const double sigma = std::sqrt(n * p * (1 - p));
  EXPECT_LT(std::fabs(double(reads) - n * p), 4 * sigma) << reads << " reads";
}

TEST(MixPattern, ZeroIsAllWritesAndOneAllReads) {
  for (const auto& q : generate(spec_of("mix:0", 1000, 32, 0, 4096))) ASSERT_TRUE(q.write);
  for (const auto& q : generate(spec_of("mix:1", 1000, 32, 0, 4096))) ASSERT_FALSE(q.write);
  for (const auto& q : generate(spec_of("mix:1.0", 1000, 32, 0, 4096))) ASSERT_FALSE(q.write);
}

// --rate R GB/s offers request i at i * bytes / R ns. 32-byte requests at 3 GB/s: i * 32000 / 3
// ps, rounded to the nearest (integer reference: (2 * i * 32000 + 3) / 6), whatever the
// pattern; the addresses stay those of the pattern without a rate.
TEST(Patterns, ARateOffersRequestIAtISizeOverRate) {
  for (const char* pattern : {"stream", "random", "stride:64", "mix:0.5"}) {
    PatternSpec spec = spec_of(pattern, 1000, 32, 0x1000, 1 << 20, 7);
    const std::vector<TraceRequest> untimed = generate(spec);
    spec.rate_gbps = 3;
    const std::vector<TraceRequest> timed = generate(spec);
    ASSERT_EQ(timed.size(), 1000u) << pattern;
    for (uint64_t i = 0; i < timed.size(); ++i) {
      EXPECT_EQ(timed[i].time_ps, (2 * i * 32000 + 3) / 6) << pattern << " request " << i;
      EXPECT_EQ(untimed[i].time_ps, 0u);
      EXPECT_EQ(timed[i].address, untimed[i].address);
      EXPECT_EQ(timed[i].write, untimed[i].write);
      EXPECT_EQ(timed[i].bytes, 32u);
    }
  }
}

TEST(Patterns, ZeroRequestsIsAnEmptyTrace) {
  EXPECT_TRUE(generate(spec_of("random", 0, 32, 0, 4096)).empty());
}

std::string error_of(const PatternSpec& spec) {
  try {
    pattern_source(spec);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Patterns, MalformedSpecsNamePatternAndTheProblem) {
  const struct {
    PatternSpec spec;
    const char* message;
  } cases[] = {
      {spec_of("walk", 1, 32, 0, 4096),
       "--pattern 'walk': unknown pattern (patterns: stream, random, stride:N, mix:R)"},
      {spec_of("", 1, 32, 0, 4096),
       "--pattern '': unknown pattern (patterns: stream, random, stride:N, mix:R)"},
      {spec_of("stream:4", 1, 32, 0, 4096), "--pattern 'stream:4': stream takes no argument"},
      {spec_of("random:", 1, 32, 0, 4096), "--pattern 'random:': random takes no argument"},
      {spec_of("stride", 1, 32, 0, 4096),
       "--pattern 'stride': stride needs an argument: stride:N, N in bytes"},
      {spec_of("mix", 1, 32, 0, 4096),
       "--pattern 'mix': mix needs an argument: mix:R, R the read fraction"},
      {spec_of("stride:0", 1, 32, 0, 4096),
       "--pattern 'stride:0': the stride '0' is not a positive decimal byte count"},
      {spec_of("stride:", 1, 32, 0, 4096),
       "--pattern 'stride:': the stride '' is not a positive decimal byte count"},
      {spec_of("stride:-64", 1, 32, 0, 4096),
       "--pattern 'stride:-64': the stride '-64' is not a positive decimal byte count"},
      {spec_of("stride:64k", 1, 32, 0, 4096),
       "--pattern 'stride:64k': the stride '64k' is not a positive decimal byte count"},
      {spec_of("stride:48", 1, 32, 0, 256),
       "--pattern 'stride:48': 32-byte requests at stride 48 in a 256-byte footprint would "
       "cross its end (gcd(stride, footprint) = 16 must be >= the request size)"},
      {spec_of("mix:1.5", 1, 32, 0, 4096),
       "--pattern 'mix:1.5': the read fraction '1.5' is not a number in 0 .. 1"},
      {spec_of("mix:-0.1", 1, 32, 0, 4096),
       "--pattern 'mix:-0.1': the read fraction '-0.1' is not a number in 0 .. 1"},
      {spec_of("mix:nan", 1, 32, 0, 4096),
       "--pattern 'mix:nan': the read fraction 'nan' is not a number in 0 .. 1"},
      {spec_of("mix:0.5x", 1, 32, 0, 4096),
       "--pattern 'mix:0.5x': the read fraction '0.5x' is not a number in 0 .. 1"},
      {spec_of("stream", 1, 0, 0, 4096),
       "--pattern 'stream': request size 0 bytes is outside 1 .. 4096"},
      {spec_of("random", 1, 4097, 0, 1 << 20),
       "--pattern 'random': request size 4097 bytes is outside 1 .. 4096"},
      {spec_of("stream", 1, 64, 0, 32),
       "--pattern 'stream': footprint 32 bytes is smaller than one 64-byte request"},
      {spec_of("stream", 1, 64, 0xffffffffffff0000, 0x20000),
       "--pattern 'stream': base 0xffffffffffff0000 + footprint 0x20000 passes the end of the "
       "64-bit address space"},
  };
  for (const auto& c : cases) EXPECT_EQ(error_of(c.spec), c.message) << c.spec.pattern;
}

TEST(Patterns, ARateThatIsNotAPositiveNumberOrRunsPastTheClockIsAConfigError) {
  PatternSpec spec = spec_of("stream", 10, 32, 0, 4096);
  for (double bad : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    spec.rate_gbps = bad;
    EXPECT_NE(error_of(spec).find("the offered load must be a positive number"), std::string::npos)
        << bad;
  }
  spec.rate_gbps = 1e-9;  // 32 s per request
  spec.requests = 100000000;
  EXPECT_NE(error_of(spec).find("past the picosecond clock's range"), std::string::npos);
}

}  // namespace
}  // namespace gpusoc::memsys
