// Loading modules: every problem is reported with its line and column, and launches that the
// device cannot run are refused before anything executes.
#include <gtest/gtest.h>

#include <string>

#include "models/ptx/device.h"
#include "models/ptx/diagnostics.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

std::vector<Diagnostic> load_errors(const std::string& text) {
  FunctionalDevice dev;
  try {
    dev.load_module(text, "t.ptx");
  } catch (const ModuleLoadError& e) {
    return e.diagnostics();
  }
  return {};
}

const char* kKernelHead =
    ".visible .entry k(\n"    // line 5
    "  .param .u64 out\n"     // line 6
    ")\n"                     // line 7
    "{\n"                     // line 8
    "  .reg .b32 %r<4>;\n"    // line 9
    "  .reg .b64 %rd<3>;\n";  // line 10

TEST(Load, UnsupportedInstructionNamesOpcodeAndLine) {
  auto d = load_errors(module(std::string(kKernelHead) +
                              "  cp.async.ca.shared.global [%rd1], [%rd2], 4;\n"  // 11
                              "  ret;\n}\n"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].loc.line, 11u);
  EXPECT_EQ(d[0].file, "t.ptx");
  EXPECT_NE(d[0].message.find("unsupported instruction 'cp'"), std::string::npos) << d[0].message;
}

TEST(Load, UnknownModifierIsNamed) {
  auto d =
      load_errors(module(std::string(kKernelHead) + "  add.bogus.s32 %r0, %r1, %r2;\n  ret;\n}\n"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].loc.line, 11u);
  EXPECT_NE(d[0].message.find("'.bogus'"), std::string::npos) << d[0].message;
}

TEST(Load, EveryProblemIsReported) {
  auto d = load_errors(module(std::string(kKernelHead) + "  bra $L_nowhere;\n"        // 11
                                                         "  add.s32 %r0, %r9x, 1;\n"  // 12
                                                         "  add.s32 %r0, %r1;\n"      // 13
                                                         "  ret;\n}\n"));
  ASSERT_EQ(d.size(), 3u);
  std::vector<uint32_t> lines;
  for (const auto& x : d) lines.push_back(x.loc.line);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<uint32_t>{11, 12, 13}));
  std::string all;
  for (const auto& x : d) all += x.to_string() + "\n";
  EXPECT_NE(all.find("undefined label '$L_nowhere'"), std::string::npos) << all;
  EXPECT_NE(all.find("undefined register '%r9x'"), std::string::npos) << all;
  EXPECT_NE(all.find("wrong number of operands"), std::string::npos) << all;
  EXPECT_NE(all.find("t.ptx:12:"), std::string::npos) << all;
}

TEST(Load, FloatLiteralOnIntegerInstructionIsRejected) {
  auto d = load_errors(
      module(std::string(kKernelHead) + "  add.s64 %rd0, %rd1, 0d3FF0000000000000;\n  ret;\n}\n"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("floating-point literal"), std::string::npos) << d[0].message;
}

TEST(Load, CallToUnknownExternalFunctionIsRejected) {
  auto d = load_errors(module(".extern .func (.param .b64 r) malloc(.param .b64 n);\n" +
                              std::string(kKernelHead) +
                              "  { .param .b64 a; .param .b64 r;\n  st.param.b64 [a], 16;\n"
                              "  call.uni (r), malloc, (a);\n  }\n  ret;\n}\n"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("external function 'malloc'"), std::string::npos) << d[0].message;
}

TEST(Load, LessCommonFormsDecode) {
  // Forms whose modifiers the decoder must route to the semantics: dp2a's half selector,
  // slct's selector type, vabsdiff4's three types.
  auto d = load_errors(module(std::string(kKernelHead) +
                              "  dp2a.lo.u32.u32 %r0, %r1, %r2, %r3;\n"
                              "  slct.s32.f32 %r0, %r1, %r2, %r3;\n"
                              "  vabsdiff4.u32.u32.u32.add %r0, %r1, %r2, %r3;\n"
                              "  ret;\n}\n"));
  std::string all;
  for (const auto& x : d) all += x.to_string() + "\n";
  EXPECT_TRUE(d.empty()) << all;
}

TEST(Load, MissingFileIsADiagnostic) {
  FunctionalDevice dev;
  try {
    dev.load_module_file("/nonexistent/x.ptx");
    FAIL() << "expected ModuleLoadError";
  } catch (const ModuleLoadError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.ptx"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

const std::string kCopyGlobals = module(R"(
.global .align 4 .u32 table[3] = {7, 8, 9};
.const .align 8 .f64 scale = 0d4000000000000000;
.visible .entry copy(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .f64 %fd<2>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd1, %rd0;
  ld.global.u32 %r0, [table];
  ld.global.u32 %r1, [table+8];
  add.s32 %r2, %r0, %r1;
  st.global.u32 [%rd1], %r2;
  ld.const.f64 %fd0, [scale];
  st.global.f64 [%rd1+8], %fd0;
  ret;
}
)");

TEST(Load, ModuleVariablesAreInitialized) {
  FunctionalDevice dev;
  Module m = dev.load_module(kCopyGlobals);
  DevicePtr out = dev.malloc(16);
  dev.launch(m.kernel("copy"), Dim3(1), Dim3(1), out);
  auto words = dev.download<uint32_t>(out, 1);
  EXPECT_EQ(words[0], 7u + 9u);
  auto d = dev.download<double>(out + 8, 1);
  EXPECT_EQ(d[0], 2.0);
  // The host sees and changes module variables through their addresses.
  const auto [table, bytes] = m.global("table");
  EXPECT_EQ(bytes, 12u);
  EXPECT_EQ(dev.download<uint32_t>(table, 3), (std::vector<uint32_t>{7, 8, 9}));
  dev.copy_to_device(table + 8, std::vector<uint32_t>{100}.data(), 4);
  dev.launch(m.kernel("copy"), Dim3(1), Dim3(1), out);
  EXPECT_EQ(dev.download<uint32_t>(out, 1)[0], 107u);
  EXPECT_EQ(m.global("scale").second, 8u);
  EXPECT_THROW(m.global("missing"), LaunchError);
}

TEST(Launch, UnknownKernelListsTheKernels) {
  FunctionalDevice dev;
  Module m = dev.load_module(kCopyGlobals, "g.ptx");
  try {
    m.kernel("nope");
    FAIL();
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("no kernel 'nope'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("copy"), std::string::npos);
  }
}

TEST(Launch, BadLaunchesAreRefusedBeforeRunning) {
  FunctionalDevice dev;
  Module m = dev.load_module(kCopyGlobals);
  Kernel k = m.kernel("copy");
  DevicePtr out = dev.malloc(16);
  dev.memset(out, 0, 16);
  EXPECT_THROW(dev.launch(k, Dim3(1), Dim3(2048), out), LaunchError);
  EXPECT_THROW(dev.launch(k, Dim3(0), Dim3(32), out), LaunchError);
  EXPECT_THROW(dev.launch(k, Dim3(1), Dim3(32)), LaunchError);               // too few
  EXPECT_THROW(dev.launch(k, Dim3(1), Dim3(32), uint32_t(5)), LaunchError);  // wrong size
  EXPECT_THROW(dev.launch(k, LaunchConfig{Dim3(1), Dim3(32), 1u << 20}, KernelArgs(out)),
               LaunchError);
  EXPECT_EQ(dev.download<uint32_t>(out, 1)[0], 0u);  // nothing ran
}

TEST(Memory, CopiesOutsideAllocationsAreRefused) {
  FunctionalDevice dev;
  DevicePtr p = dev.malloc(64);
  std::vector<uint8_t> buf(128);
  EXPECT_THROW(dev.copy_to_device(p, buf.data(), 128), std::out_of_range);
  EXPECT_THROW(dev.copy_to_host(buf.data(), p + 60, 8), std::out_of_range);
  EXPECT_NO_THROW(dev.copy_to_device(p, buf.data(), 64));
  dev.free(p);
  EXPECT_THROW(dev.free(p), std::invalid_argument);
  EXPECT_THROW(dev.copy_to_device(p, buf.data(), 4), std::out_of_range);
}

}  // namespace
}  // namespace gpusoc::ptx
