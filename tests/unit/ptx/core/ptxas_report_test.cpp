// Exact resources from ptxas: its verbose report (and cuobjdump's resource dump) read, checked
// against the module, and used instead of the estimate; given explicitly or found beside the
// module's file.
#include "models/ptx/ptxas_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "models/ptx/device.h"
#include "models/ptx/program.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

// What `nvcc -Xptxas -v` prints for a module of two kernels and a device function, with nvcc's
// own lines around it.
const char* kPtxasOutput = R"(nvcc warning : The 'compute_35' architecture is deprecated
ptxas info    : 24 bytes gmem, 8 bytes cmem[4]
ptxas info    : Compiling entry function 'scale' for 'sm_80'
ptxas info    : Function properties for scale
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers, 360 bytes cmem[0]
ptxas info    : Compile time = 12.051 ms
ptxas info    : Function properties for _Z6helperi
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'tile' for 'sm_80'
ptxas info    : Function properties for tile
    48 bytes stack frame, 40 bytes spill stores, 40 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 48 bytes cumulative stack size, 2048 bytes smem, 372 bytes cmem[0], 8 bytes cmem[2]
)";

PtxasReport parse(const std::string& text, std::vector<Diagnostic>* problems = nullptr) {
  Diagnostics diags("k.ptxas");
  PtxasReport r = parse_ptxas_report(text, diags);
  if (problems)
    *problems = diags.list();
  else
    EXPECT_TRUE(diags.empty()) << diags.list().at(0).to_string();
  return r;
}

TEST(PtxasReport, ReadsEveryKernelsLineOfPtxasVerboseOutput) {
  const PtxasReport r = parse(kPtxasOutput);
  ASSERT_EQ(r.kernels.size(), 2u);  // the device function has no register line
  const KernelResources& scale = r.kernels.at("scale");
  EXPECT_EQ(scale.registers, 10u);
  EXPECT_EQ(scale.shared_bytes, 0u);
  EXPECT_EQ(scale.target, "sm_80");
  const KernelResources& tile = r.kernels.at("tile");
  EXPECT_EQ(tile.registers, 40u);
  EXPECT_EQ(tile.shared_bytes, 2048u);
  EXPECT_EQ(tile.stack_frame_bytes, 48u);
  EXPECT_EQ(tile.spill_store_bytes, 40u);
  EXPECT_EQ(tile.line, 13u);
}

TEST(PtxasReport, ReadsCuobjdumpResourceUsage) {
  const PtxasReport r = parse(R"(
Resource usage:
 Common:
  GLOBAL:0
 Function tile:
  REG:40 STACK:48 SHARED:2048 LOCAL:0 CONSTANT[0]:372 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function scale:
  REG:10 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
)");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels.at("tile").registers, 40u);
  EXPECT_EQ(r.kernels.at("tile").shared_bytes, 2048u);
  EXPECT_EQ(r.kernels.at("tile").stack_frame_bytes, 48u);
  EXPECT_EQ(r.kernels.at("scale").registers, 10u);
}

TEST(PtxasReport, MalformedReportsNameTheLine) {
  std::vector<Diagnostic> problems;
  parse("ptxas info    : Used 10 registers, 360 bytes cmem[0]\n", &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].to_string(),
            "k.ptxas:1:0: error: a register count before any kernel was named");
  parse(
      "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
      "ptxas info    : Used 99999999999 registers\n",
      &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].loc.line, 2u);
  EXPECT_NE(problems[0].message.find("beyond 32 bits"), std::string::npos);
  parse("not a report\n", &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("no kernel resources found"), std::string::npos);
}

const std::string kModule = test::module(R"(
.visible .entry scale(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry tile(.param .u64 p)
{
  .shared .align 4 .b8 t[2048];
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  st.shared.u32 [t], %r1;
  ret;
}
)");

TEST(PtxasReport, ExactCountsReplaceTheEstimate) {
  FunctionalDevice dev;
  const Module estimated = dev.load_module(kModule, "k.ptx");
  const Module exact = dev.load_module(kModule, "k.ptx", kPtxasOutput, "k.ptxas");
  const Function& tile = exact.kernel("tile").function();
  EXPECT_EQ(tile.registers_per_thread, 40u);
  EXPECT_EQ(tile.register_source, RegisterSource::PtxasReport);
  EXPECT_EQ(tile.static_shared_bytes, 2048u);
  EXPECT_EQ(exact.kernel("scale").function().registers_per_thread, 10u);
  EXPECT_EQ(exact.program().resource_file, "k.ptxas");
  EXPECT_NE(estimated.kernel("tile").function().registers_per_thread, 40u);
  EXPECT_EQ(estimated.kernel("tile").function().register_source, RegisterSource::Estimate);
}

TEST(PtxasReport, AReportForAnotherModuleIsRefused) {
  FunctionalDevice dev;
  const std::string other =
      "ptxas info    : Compiling entry function 'gemm' for 'sm_80'\n"
      "ptxas info    : Used 64 registers, 0 bytes smem\n";
  try {
    dev.load_module(kModule, "k.ptx", other, "other.ptxas");
    ADD_FAILURE() << "loaded";
  } catch (const ModuleLoadError& e) {
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics()[0].to_string(),
              "other.ptxas:2:0: error: kernel 'gemm' is not in module 'k.ptx'");
  }
}

TEST(PtxasReport, FoundBesideTheModuleOrGivenExplicitly) {
  const auto dir = std::filesystem::temp_directory_path() / "gpusoc_ptxas_report_test";
  std::filesystem::create_directories(dir);
  const std::string ptx = (dir / "k.ptx").string();
  std::ofstream(ptx) << kModule;
  {
    FunctionalDevice dev;  // nothing beside it: the estimate
    EXPECT_EQ(dev.load_module_file(ptx).kernel("tile").function().register_source,
              RegisterSource::Estimate);
  }
  std::ofstream((dir / "k.ptxas").string()) << kPtxasOutput;
  FunctionalDevice dev;
  EXPECT_EQ(dev.load_module_file(ptx).kernel("tile").function().registers_per_thread, 40u);
  const std::string elsewhere = (dir / "other.txt").string();
  std::ofstream(elsewhere) << "ptxas info    : Compiling entry function 'tile' for 'sm_80'\n"
                              "ptxas info    : Used 72 registers, 2048 bytes smem\n";
  EXPECT_EQ(dev.load_module_file(ptx, elsewhere).kernel("tile").function().registers_per_thread,
            72u);
  EXPECT_THROW(dev.load_module_file(ptx, (dir / "missing.ptxas").string()), ModuleLoadError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpusoc::ptx
