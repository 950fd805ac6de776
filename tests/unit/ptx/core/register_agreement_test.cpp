// The register estimate and the per-kernel shared memory layout against ptxas 13.0 (sm_80), as
// scripts/regen-ptx recorded it beside each module (NAME.sm_80.ptxas): the suite's own kernels
// (sw/kernels) and a corpus of benchmark-style kernels (tests/kernels/ptxas_corpus). The
// estimate is for sm_80's SM (the default RegisterTarget).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "models/common/text_file.h"
#include "models/ptx/device.h"
#include "models/ptx/diagnostics.h"
#include "models/ptx/program.h"
#include "models/ptx/ptxas_report.h"

namespace gpusoc::ptx {
namespace {

struct Agreement {
  std::vector<int> differences;  // estimate - ptxas, per kernel
  size_t shared_mismatches = 0;

  // The smallest bound that at least a fraction q of the kernels keep to.
  int abs_quantile(double q) const {
    std::vector<int> a;
    for (int d : differences) a.push_back(std::abs(d));
    std::sort(a.begin(), a.end());
    const size_t k = size_t(std::ceil(q * double(a.size())));
    return a.empty() ? 0 : a[std::min(a.size(), std::max<size_t>(k, 1)) - 1];
  }
  double median() const {
    std::vector<int> a;
    for (int d : differences) a.push_back(std::abs(d));
    std::sort(a.begin(), a.end());
    const size_t n = a.size();
    return n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2.0;
  }
};

Agreement compare(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Agreement a;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const std::string report_file = path.parent_path() / (path.stem().string() + ".sm_80.ptxas");
    const auto text = read_text_file(path.string());
    const auto report_text = read_text_file(report_file);
    EXPECT_TRUE(text && report_text) << "missing; run scripts/regen-ptx";
    if (!text || !report_text) continue;
    Diagnostics diags(report_file);
    const PtxasReport report = parse_ptxas_report(*report_text, diags);
    EXPECT_TRUE(diags.empty()) << (diags.empty() ? "" : diags.list()[0].to_string());
    FunctionalDevice dev;
    const Module m = dev.load_module(*text, path.string());
    for (const auto& [name, r] : report.kernels) {
      const Function& k = m.kernel(name).function();
      EXPECT_NE(k.register_source, RegisterSource::PtxasReport);
      const int d = int(k.registers_per_thread) - int(r.registers);
      a.differences.push_back(d);
      std::cout << "  " << path.stem().string() << " " << name.substr(0, 48) << ": ptxas "
                << r.registers << ", estimate " << k.registers_per_thread << " ("
                << (d >= 0 ? "+" : "") << d << ")\n";
      EXPECT_EQ(k.static_shared_bytes, r.shared_bytes) << name;
      a.shared_mismatches += k.static_shared_bytes != r.shared_bytes;
    }
  }
  return a;
}

// The acceptance bound of the register estimate: on the suite's kernels, the median absolute
// difference from ptxas at most 2 registers and none more than 8 off.
TEST(RegisterAgreement, SuiteKernelsTrackPtxas) {
  const Agreement a = compare(std::string(GPUSOC_SOURCE_DIR) + "/sw/kernels");
  ASSERT_GE(a.differences.size(), 60u);
  std::cout << "sw/kernels: " << a.differences.size() << " kernels, median |difference| "
            << a.median() << ", largest " << a.abs_quantile(1.0) << "\n";
  EXPECT_LE(a.median(), 2.0);
  EXPECT_LE(a.abs_quantile(1.0), 8);
  EXPECT_EQ(a.shared_mismatches, 0u);
}

// A broader corpus, kernels of 8 to 128 registers: the median within 2 and nine in ten within 7
// (the largest differences are on kernels of 70 to 128 registers).
TEST(RegisterAgreement, CorpusKernelsTrackPtxas) {
  const Agreement a = compare(std::string(GPUSOC_SOURCE_DIR) + "/tests/kernels/ptxas_corpus");
  ASSERT_GE(a.differences.size(), 100u);
  std::cout << "ptxas_corpus: " << a.differences.size() << " kernels, median |difference| "
            << a.median() << ", 90th percentile " << a.abs_quantile(0.9) << ", largest "
            << a.abs_quantile(1.0) << "\n";
  EXPECT_LE(a.median(), 2.0);
  EXPECT_LE(a.abs_quantile(0.9), 7);
  EXPECT_EQ(a.shared_mismatches, 0u);
}

}  // namespace
}  // namespace gpusoc::ptx
