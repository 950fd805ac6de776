// sw/kernels/printf.cu: device printf through vprintf, captured with DeviceOptions::printf_sink.
// The expected lines (sw/apps/reference/printf.h) are formatted on the host with snprintf from
// the same format strings and the same argument values.
#include "sw/apps/reference/printf.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class PrintfTest : public ::testing::TestWithParam<std::tuple<int, int>> {
 protected:
  PrintfTest() : dev(options()) {}
  ptx::DeviceOptions options() {
    ptx::DeviceOptions o = suite_options();
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

  std::vector<std::string> expected = printf_expected_lines(count, scale, big);
  const std::string hello = expected[count], widths = expected[count + 1];

  std::vector<std::string> got = lines;
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);

  auto pos = [&](const std::string& s) {
    return std::find(lines.begin(), lines.end(), s) - lines.begin();
  };
  const std::string first =
      printf_format("tid=%d u=%u f=%f s=%s x=%x ll=%lld\n", 0, 1000u, 0.0, "even", 0xC0FFEEu, -7LL);
  EXPECT_LT(pos(first), pos(hello));
  EXPECT_LT(pos(hello), pos(widths));
}

INSTANTIATE_TEST_SUITE_P(Counts, PrintfTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(5, 64),
                                           std::make_tuple(40, 32), std::make_tuple(33, 33)));

}  // namespace
}  // namespace gpusoc::kernel_test
