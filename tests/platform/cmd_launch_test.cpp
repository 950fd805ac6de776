// `gpusoc launch`: any kernel of any module run from the command line, on the SoC and on the
// bare core, checked against the CPU; and every kind of bad argument named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <vector>

#include "tests/platform/gpusoc_process.h"

namespace gpusoc::platform {
namespace {

using ::testing::HasSubstr;
using LaunchTest = GpusocProcessTest;

const std::string kKernels = GPUSOC_KERNEL_DIR;
const std::string kCorpus = std::string(GPUSOC_SOURCE_DIR) + "/tests/kernels/ptxas_corpus/";

// What rand:BYTES:SEED puts in a buffer, as floats.
std::vector<float> random_floats(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> bytes(count * 4);
  for (size_t i = 0; i < bytes.size(); i += 8) {
    const uint64_t word = rng();
    std::memcpy(bytes.data() + i, &word, std::min<size_t>(8, bytes.size() - i));
  }
  std::vector<float> v(count);
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

std::vector<float> read_floats(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

// saxpy(n, a, x, y): y = a * x + y for i < n. 1000 of the 1024 elements; the rest stay.
TEST_F(LaunchTest, SaxpyOnTheSocAndTheCoreMatchesTheCpu) {
  const size_t count = 1024;
  const std::vector<float> x = random_floats(count, 1), y = random_floats(count, 2);
  // Bits from a random generator are floats of any kind: compare bits, and NaN with NaN (the
  // GPU gives the canonical NaN where the CPU keeps an input's payload).
  std::vector<float> expected = y;
  for (size_t i = 0; i < 1000; ++i) expected[i] = std::fma(2.5f, x[i], y[i]);
  std::string instructions;
  for (const std::string backend : {"", " --functional"}) {
    SCOPED_TRACE(backend);
    const std::string out = dir.file(backend.empty() ? "y_soc.bin" : "y_core.bin");
    const Outcome r = gpusoc("launch " + kKernels + "/saxpy.ptx saxpy --grid 4 --block 256 " +
                             "i32:1000 f32:2.5 rand:4096:1 rand:4096:2 out:3=" + out + backend);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<float> got = read_floats(out);
    ASSERT_EQ(got.size(), count);
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i) {
      const bool both_nan = std::isnan(got[i]) && std::isnan(expected[i]);
      wrong += !both_nan && std::memcmp(&got[i], &expected[i], 4) != 0;
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_THAT(r.out, HasSubstr("4 CTAs, 32 warps, 640 warp instructions"));
    EXPECT_THAT(r.out, HasSubstr(backend.empty() ? "us simulated" : "no simulated time"));
    EXPECT_THAT(r.out, HasSubstr("wrote 4096 bytes of 'rand:4096:2' to " + out));
  }
}

// Texture and surface objects from the command line: a surface of random RGBA8 pixels inverted
// into a second surface, written back packed, checked pixel by pixel on the SoC and the core.
TEST_F(LaunchTest, SurfacesAndTexturesFromTheCommandLine) {
  const int w = 40, h = 23;
  std::mt19937_64 rng(9);
  std::vector<uint8_t> pixels(size_t(w) * h * 4);
  for (size_t i = 0; i < pixels.size(); i += 8) {
    const uint64_t word = rng();
    std::memcpy(pixels.data() + i, &word, std::min<size_t>(8, pixels.size() - i));
  }
  for (const std::string backend : {"", " --functional"}) {
    SCOPED_TRACE(backend);
    const std::string out = dir.file(backend.empty() ? "inv_soc.bin" : "inv_core.bin");
    const Outcome r = gpusoc("launch " + kKernels + "/texture.ptx surface_invert --grid 3,2 " +
                             "--block 16,16 surf:u8x4:40x23:rand=9 surf:u8x4:40x23:zero i32:40 " +
                             "i32:23 out:1=" + out + backend);
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(out, std::ios::binary);
    const std::vector<uint8_t> got((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
    ASSERT_EQ(got.size(), pixels.size());
    size_t wrong = 0;
    for (size_t i = 0; i < got.size(); ++i)
      wrong += got[i] != (i % 4 == 3 ? pixels[i] : uint8_t(255 - pixels[i]));
    EXPECT_EQ(wrong, 0u);
  }
  // A texture: 1D lookups of a 4-texel table at x = i * 0.25 with linear filtering (the lut
  // kernel reads its coordinates from a buffer of zeros: every lookup is texel 0's clamped edge).
  const Outcome t = gpusoc("launch " + kKernels + "/texture.ptx lookup --block 32 " +
                           "tex:f32:4:zero:linear,normalized zero:128 zero:128 i32:32");
  EXPECT_EQ(t.status, 0) << t.err;
  const Outcome bad = gpusoc("launch " + kKernels + "/texture.ptx lookup " +
                             "tex:f32:4x0:zero zero:128 zero:128 i32:32");
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, HasSubstr("'4x0' is not an extent: W, WxH or WxHxD texels"));
}

// A kernel named as its source names it, a file input, zeroed and output buffers, and the
// statistics of the SoC written where asked.
TEST_F(LaunchTest, DemangledNamesFilesAndStatistics) {
  const std::string in = dir.write("in.bin", std::string(64 * 4, '\0'));
  const std::string out = dir.file("out.bin"), stats = dir.file("stats.json");
  // lib::detail::fill<128, float>(float* out, float value, int n): out[i] = value for i < n.
  const Outcome r =
      gpusoc("launch " + kCorpus + "names.ptx 'fill<128, float>' --grid 1 --block 128 in:" + in +
             " f32:0.75 i32:50 out:0=" + out + " --stats-out " + stats);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("_ZN3lib6detail4fillILi128EfEEvPT0_S2_i (void "
                               "lib::detail::fill<128, float>(float*, float, int))"));
  const std::vector<float> got = read_floats(out);
  ASSERT_EQ(got.size(), 64u);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(got[i], i < 50 ? 0.75f : 0.0f) << i;
  std::ifstream s(stats);
  const nlohmann::json j = nlohmann::json::parse(s);
  EXPECT_EQ(j["gpu"]["cta_dispatcher"]["ctas"]["value"], 1);
}

TEST_F(LaunchTest, BadArgumentsNameTheArgumentAndWhatTheKernelExpects) {
  const std::string saxpy = "launch " + kKernels + "/saxpy.ptx saxpy ";
  struct Case {
    std::string args;
    int status;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"i32:5", 2, "kernel 'saxpy' takes 4 parameters (4, 4, 8, 8 bytes), 1 argument given"},
      {"i32:5 f64:2 zero:4 zero:4", 2,
       "argument 1 'f64:2': passes 8 bytes; parameter 1 of kernel 'saxpy' has 4"},
      {"zero:4 f32:2 zero:4 zero:4", 2,
       "argument 0 'zero:4': passes 8 bytes (a device address); parameter 0 of kernel 'saxpy' "
       "has 4"},
      {"i32:five f32:2 zero:4 zero:4", 2, "argument 0 'i32:five': 'five' is not a i32 value"},
      {"i32:99999999999 f32:2 zero:4 zero:4", 2,
       "argument 0 'i32:99999999999': 99999999999 is out of the range of i32"},
      {"u32:-1 f32:2 zero:4 zero:4", 2, "argument 0 'u32:-1': u32 cannot be negative"},
      {"i32:5 f32:2 zero:-5 zero:4", 2, "argument 2 'zero:-5': '-5' is not a number of bytes"},
      {"i32:5 f32:2 zero:0 zero:4", 2, "argument 2 'zero:0': a buffer has 1 to"},
      {"i32:5 f32:2 in:/nonexistent zero:4", 2, "argument 2 'in:/nonexistent': cannot read"},
      {"i32:5 f32:2 blob:4 zero:4", 2, "argument 2 'blob:4': unknown kind 'blob'"},
      {"i32:5 f32:2 zero:4 zero:4 out:1=x.bin", 2,
       "out:1=x.bin: argument 1 'f32:2' is not a buffer"},
      {"i32:5 f32:2 zero:4 zero:4 out:7=x.bin", 2, "out:7=x.bin: no argument 7 (there are 4)"},
      {"i32:5 f32:2 zero:4 zero:4 --block 0", 2, "--block '0': expected X[,Y,Z]"},
      {"i32:5 f32:2 zero:4 zero:4 --grid 2,70000", 2, "--grid '2,70000'"},
      {"i32:5 f32:2 zero:4 zero:4 --block 1,1,65", 2,
       "--block '1,1,65': expected X[,Y,Z], positive integers up to 1024, 1024 and 64"},
  };
  for (const Case& c : cases) {
    const Outcome r = gpusoc(saxpy + c.args + " --functional");
    EXPECT_EQ(r.status, c.status) << c.args;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
  }
  // An unknown or ambiguous kernel lists what there is.
  Outcome r = gpusoc("launch " + kKernels + "/saxpy.ptx saxpi i32:1");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("has no kernel 'saxpi'; its kernels:\n  saxpy"));
  r = gpusoc("launch " + kCorpus + "names.ptx fill zero:4 f32:1 i32:1 --functional");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("kernel name 'fill' is ambiguous"));
  // A block the configuration refuses: the launch fails with the GPU's reason.
  r = gpusoc(saxpy + "i32:5 f32:2 zero:4 zero:4 --block 600");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("600 threads per block"));
}

}  // namespace
}  // namespace gpusoc::platform
