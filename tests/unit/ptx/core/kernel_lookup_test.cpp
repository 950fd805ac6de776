// Kernels found by the names users write: tests/kernels/ptxas_corpus/names.cu, compiled by nvcc,
// has namespaced templates with three instantiations, overloads, a functor-templated kernel and
// an extern "C" kernel.
#include <gtest/gtest.h>

#include <string>

#include "models/common/kernel_names.h"
#include "models/ptx/device.h"
#include "models/ptx/program.h"

namespace gpusoc::ptx {
namespace {

const std::string kNames = std::string(GPUSOC_SOURCE_DIR) + "/tests/kernels/ptxas_corpus/names.ptx";

std::string found(const Module& m, const std::string& query) {
  return m.kernel(query).name();
}

std::string problem(const Module& m, const std::string& query) {
  try {
    m.kernel(query);
  } catch (const LaunchError& e) {
    return e.what();
  }
  return "found";
}

TEST(KernelLookup, EveryFormOfANameFindsTheKernel) {
  FunctionalDevice dev;
  const Module m = dev.load_module_file(kNames);
  const std::string fill256 = "_ZN3lib6detail4fillILi256EfEEvPT0_S2_i";
  EXPECT_EQ(found(m, fill256), fill256);
  EXPECT_EQ(found(m, "void lib::detail::fill<256, float>(float*, float, int)"), fill256);
  EXPECT_EQ(found(m, "lib::detail::fill<256, float>"), fill256);
  EXPECT_EQ(found(m, "fill<256, float>"), fill256);
  EXPECT_EQ(found(m, "fill<128, int>"), "_ZN3lib6detail4fillILi128EiEEvPT0_S2_i");
  EXPECT_EQ(found(m, "combine"), "_ZN3lib7combineINS_4PlusEEEvPKfS3_PfiT_");
  EXPECT_EQ(found(m, "lib::combine<lib::Plus>"), "_ZN3lib7combineINS_4PlusEEEvPKfS3_PfiT_");
  EXPECT_EQ(found(m, "scale(double*, double, int)"), "_Z5scalePddi");
  EXPECT_EQ(found(m, "vectorAdd"), "vectorAdd");
}

TEST(KernelLookup, AnAmbiguousOrUnknownNameListsTheCandidates) {
  FunctionalDevice dev;
  const Module m = dev.load_module_file(kNames);
  EXPECT_EQ(
      problem(m, "fill"),
      "kernel name 'fill' is ambiguous in module '" + kNames +
          "'; it names\n"
          "  _ZN3lib6detail4fillILi128EfEEvPT0_S2_i (void lib::detail::fill<128, float>(float*, "
          "float, int))\n"
          "  _ZN3lib6detail4fillILi256EfEEvPT0_S2_i (void lib::detail::fill<256, float>(float*, "
          "float, int))\n"
          "  _ZN3lib6detail4fillILi128EiEEvPT0_S2_i (void lib::detail::fill<128, int>(int*, int, "
          "int))");
  EXPECT_NE(problem(m, "scale").find("ambiguous"), std::string::npos);
  const std::string unknown = problem(m, "gemm");
  EXPECT_EQ(unknown.find("module '" + kNames + "' has no kernel 'gemm'; its kernels:\n"), 0u)
      << unknown;
  EXPECT_NE(unknown.find("\n  vectorAdd"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("_Z5scalePffi (scale(float*, float, int))"), std::string::npos) << unknown;
}

TEST(KernelLookup, NameFormsOfAMangledName) {
  const KernelNameForms f = kernel_name_forms("_ZN3lib6detail4fillILi128EfEEvPT0_S2_i");
  EXPECT_EQ(f.signature, "void lib::detail::fill<128, float>(float*, float, int)");
  EXPECT_EQ(f.qualified, "lib::detail::fill<128, float>");
  EXPECT_EQ(f.templated, "fill<128, float>");
  EXPECT_EQ(f.plain, "fill");
  const KernelNameForms c = kernel_name_forms("vectorAdd");
  EXPECT_EQ(c.signature, "vectorAdd");
  EXPECT_EQ(c.plain, "vectorAdd");
}

}  // namespace
}  // namespace gpusoc::ptx
