// sw/kernels/printf.cu: device printf through vprintf, captured with DeviceOptions::printf_sink.
// Each expected line is formatted on the host with snprintf from the same format string and
// the same argument values (the format strings below must match printf.cu).
#include <cstdio>

#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

template <typename... Args>
std::string format(const char* fmt, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

class PrintfTest : public ::testing::TestWithParam<std::tuple<int, int>> {
 protected:
  PrintfTest() : dev(options()) {}
  ptx::DeviceOptions options() {
    ptx::DeviceOptions o;
    o.printf_sink = [this](const std::string& s) { lines.push_back(s); };
    return o;
  }
  std::vector<std::string> lines;
  FunctionalDevice dev;
};

// One sink call per printf call, holding exactly what that printf produced (newline included).
// CUDA does not order the output of different threads, so lines are compared as a multiset;
// one thread's own lines must keep program order.
TEST_P(PrintfTest, FormatsLikeHostPrintf) {
  const auto [count, block] = GetParam();
  const float scale = 0.75f;
  const long long big = 123456789012LL;
  Kernel k = dev.load_module_file(kernel_path("printf.ptx")).kernel("printf_values");
  dev.launch(k, Dim3(ceil_div(count, block) + 1), Dim3(block), count, scale, big);

  std::vector<std::string> expected;
  for (int tid = 0; tid < count; ++tid) {
    float f = scale * static_cast<float>(tid);
    expected.push_back(format("tid=%d u=%u f=%f s=%s x=%x ll=%lld\n", tid, 1000u + unsigned(tid),
                              double(f), (tid & 1) ? "odd" : "even", 0xC0FFEEu + unsigned(tid),
                              big * tid - 7));
  }
  const std::string hello = "hello from the device\n";
  const std::string widths =
      format("[%5d|%-4u|%08.3f|%c|%.2e]\n", -42, 7u, double(3.14159f), 'Z', 6.02214076e23);
  expected.push_back(hello);
  expected.push_back(widths);

  std::vector<std::string> got = lines;
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);

  auto pos = [&](const std::string& s) {
    return std::find(lines.begin(), lines.end(), s) - lines.begin();
  };
  const std::string first =
      format("tid=%d u=%u f=%f s=%s x=%x ll=%lld\n", 0, 1000u, 0.0, "even", 0xC0FFEEu, -7LL);
  EXPECT_LT(pos(first), pos(hello));
  EXPECT_LT(pos(hello), pos(widths));
}

INSTANTIATE_TEST_SUITE_P(Counts, PrintfTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(5, 64),
                                           std::make_tuple(40, 32), std::make_tuple(33, 33)));

}  // namespace
}  // namespace gpusoc::kernel_test
