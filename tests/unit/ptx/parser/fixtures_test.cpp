// Real nvcc output: the committed fixtures (sources beside them), the project's kernel suite, and
// a large module for speed.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "parse_helpers.h"

namespace gpusoc::ptx::test {
namespace {

using Kind = ast::Operand::Kind;
using ::testing::Contains;
using ::testing::ElementsAre;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ast::Module parse_fixture(const std::string& name) {
  const std::string path =
      std::string(GPUSOC_SOURCE_DIR) + "/tests/unit/ptx/parser/fixtures/" + name;
  const std::string text = read_file(path);
  EXPECT_FALSE(text.empty()) << path;
  Diagnostics diags(name);
  ast::Module module = parse_module(text, diags);
  EXPECT_TRUE(diags.empty()) << join_lines(locate(diags));
  return module;
}

const ast::Function& function(const ast::Module& m, std::string_view name, bool with_body = true) {
  for (const ast::Function& fn : m.functions) {
    if (fn.name == name && fn.has_body == with_body) return fn;
  }
  static const ast::Function none;
  ADD_FAILURE() << "no function " << name;
  return none;
}

std::vector<std::string> printed(const ast::Function& fn) {
  std::vector<std::string> out;
  for (const ast::Statement& stmt : fn.body) out.push_back(print(stmt));
  return out;
}

const ast::VarDecl& global(const ast::Module& m, std::string_view name) {
  for (const ast::VarDecl& decl : m.globals) {
    if (decl.name == name) return decl;
  }
  static const ast::VarDecl none;
  ADD_FAILURE() << "no global " << name;
  return none;
}

TEST(ParserFixtures, CallsPrintfAndInitializers) {
  const ast::Module m = parse_fixture("calls.ptx");
  EXPECT_EQ(m.version_major, 9u);
  EXPECT_THAT(m.targets, ElementsAre("sm_80"));
  EXPECT_EQ(m.functions.size(), 7u);

  const ast::Function& square_decl = function(m, "_Z6squarei", false);
  EXPECT_EQ(square_decl.returns.size(), 1u);
  EXPECT_TRUE(function(m, "vprintf", false).is_extern);
  const ast::Function& make_pair = function(m, "_Z9make_pairif");
  ASSERT_EQ(make_pair.returns.size(), 1u);
  EXPECT_THAT(make_pair.returns[0].dims, ElementsAre(16u));
  const ast::Function& sum_pair = function(m, "_Z8sum_pair4Pair");
  ASSERT_EQ(sum_pair.params.size(), 1u);
  EXPECT_EQ(sum_pair.params[0].align, 8u);
  EXPECT_THAT(printed(sum_pair), Contains("ld.param.f64 %fd1, [_Z8sum_pair4Pair_param_0+8]"));
  EXPECT_THAT(printed(function(m, "_Z6squarei")),
              ElementsAre(".reg .b32 %r<3>", "ld.param.u32 %r1, [_Z6squarei_param_0]",
                          "mul.lo.s32 %r2, %r1, %r1", "st.param.b32 [func_retval0], %r2", "ret"));

  const ast::VarDecl& fp = global(m, "fp");
  ASSERT_EQ(fp.init.size(), 1u);
  EXPECT_EQ(fp.init[0].kind, ast::InitValue::Kind::SymbolAddress);
  EXPECT_EQ(fp.init[0].symbol, "_Z6squarei");
  const ast::VarDecl& coeffs = global(m, "coeffs");
  EXPECT_EQ(coeffs.space, StateSpace::Const);
  ASSERT_EQ(coeffs.init.size(), 12u);  // nvcc leaves out trailing zeros
  EXPECT_EQ(coeffs.init[3].int_value, 63);
  const ast::VarDecl& ptr = global(m, "ptr_to_table");
  ASSERT_EQ(ptr.init.size(), 1u);
  EXPECT_TRUE(ptr.init[0].generic);
  EXPECT_EQ(ptr.init[0].symbol, "table");
  EXPECT_EQ(ptr.init[0].offset, 12);
  EXPECT_EQ(global(m, "$str").init.size(), 19u);

  const ast::Function& kernel = function(m, "calls");
  EXPECT_TRUE(kernel.is_entry);
  EXPECT_TRUE(kernel.is_visible);
  EXPECT_EQ(kernel.params.size(), 3u);
  const std::vector<std::string> body = printed(kernel);
  EXPECT_THAT(body, Contains(".local .align 16 .b8 __local_depot4[16]"));
  EXPECT_THAT(body, Contains("mov.u64 %SPL, __local_depot4"));
  EXPECT_THAT(body, Contains("prototype_0: .callprototype"));
  EXPECT_THAT(body, Contains("call (retval0), %rd4, (param0), prototype_0"));
  EXPECT_THAT(body, Contains("call.uni (retval0), _Z6squarei, (param0)"));
  EXPECT_THAT(body, Contains("call.uni _Z7nothingv, ()"));
  EXPECT_THAT(body, Contains("call.uni (retval0), vprintf, (param0, param1)"));
  EXPECT_THAT(body, Contains("@%p1 bra $L__BB4_2"));
  EXPECT_THAT(body, Contains("mul.hi.s32 %r13, %r1, 1431655766"));
  EXPECT_THAT(body, Contains("and.b32 %r11, %r10, -2"));
  EXPECT_THAT(body, Contains("mov.u32 %r3, %ntid.x"));
  int blocks = 0;
  for (const ast::Statement& s : kernel.body) {
    if (s.kind == ast::Statement::Kind::BlockBegin) ++blocks;
  }
  EXPECT_EQ(blocks, 6);
  EXPECT_THAT(body, Contains(".reg .b32 temp_param_reg"));
}

TEST(ParserFixtures, MemorySharedAtomicsShufflesTextures) {
  const ast::Module m = parse_fixture("memory.ptx");
  EXPECT_TRUE(global(m, "managed_counter").is_managed);
  const ast::VarDecl& dval = global(m, "dval");
  ASSERT_EQ(dval.init.size(), 1u);
  EXPECT_EQ(dval.init[0].float_bits, 0x4004000000000000u);
  EXPECT_EQ(global(m, "all_ones").init.at(0).int_value, -1);
  const ast::VarDecl& dyn = global(m, "dyn");
  EXPECT_TRUE(dyn.is_extern);
  EXPECT_EQ(dyn.space, StateSpace::Shared);
  EXPECT_THAT(dyn.dims, ElementsAre(0u));

  const ast::Function& reduce = function(m, "_Z6reducePKfPfi");
  EXPECT_THAT(reduce.maxntid, ElementsAre(256u, 1u, 1u));
  EXPECT_EQ(reduce.minnctapersm, 2u);
  const std::vector<std::string> body = printed(reduce);
  EXPECT_THAT(body, Contains(".shared .align 4 .b8 _ZZ6reducePKfPfiE7partial[32]"));
  EXPECT_THAT(body, Contains("shfl.sync.bfly.b32 %r30|%p9, %r29, %r27, %r14, %r16"));
  EXPECT_THAT(body, Contains("ld.shared.f32 %f23, [_ZZ6reducePKfPfiE7partial+4]"));
  EXPECT_THAT(body, Contains("atom.global.cas.b64 %rd11, [%rd8], %rd10, %rd9"));
  EXPECT_THAT(body, Contains("bar.sync 0"));

  const std::vector<std::string> vectors = printed(function(m, "_Z17stack_and_vectorsPiP6float4i"));
  EXPECT_THAT(vectors, Contains("st.local.v4.u32 [%rd5+16], {%r18, %r17, %r16, %r15}"));
  EXPECT_THAT(vectors, Contains("vote.sync.ballot.b32 %r46, %p1, %r45"));

  const ast::Function& tex = function(m, "_Z18textures_and_asyncPfyi");
  const std::vector<std::string> tbody = printed(tex);
  EXPECT_THAT(tbody, Contains("tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd5, {%f1, %f2}]"));
  EXPECT_THAT(tbody, Contains("cp.async.ca.shared.global [%r9], [%rd6], 4, 4"));
  EXPECT_THAT(tbody, Contains("cp.async.wait_group 0"));
  EXPECT_THAT(tbody, Contains(".reg .b64 %tmp"));
}

TEST(ParserFixtures, MathHalfDoubleSpecialRegisters) {
  const ast::Module m = parse_fixture("math.ptx");
  const std::vector<std::string> halves = printed(function(m, "_Z6halvesP6__halfPKS_P7__half2i"));
  // Inline asm arrives wrapped in its own { } block.
  EXPECT_THAT(halves, Contains("add.f16 %rs1, %rs2, %rs3"));
  EXPECT_THAT(halves, Contains("mul.f16x2 %r3, %r4, %r4"));
  EXPECT_THAT(halves, Contains("mov.f32 %f1, 0f40000000"));

  const ast::Function& doubles = function(m, "_Z7doublesPdi");
  const std::vector<std::string> dbody = printed(doubles);
  EXPECT_THAT(dbody, Contains("mov.f64 %fd6, 0d4338000000000000"));
  EXPECT_THAT(dbody, Contains("mov.b64 {%r1, %temp}, %fd8"));
  EXPECT_THAT(dbody, Contains(".reg .b32 %temp"));
  for (const ast::Statement& s : doubles.body) {
    if (s.kind != ast::Statement::Kind::Instruction || s.instruction.opcode != "fma") continue;
    EXPECT_THAT(s.instruction.modifiers, ElementsAre("rn", "f64"));
  }

  const std::vector<std::string> sw = printed(function(m, "_Z8switchesPii"));
  EXPECT_THAT(sw, Contains("mov.u32 %r11, %laneid"));
  EXPECT_THAT(sw, Contains("mov.u32 %r12, %lanemask_lt"));
  EXPECT_THAT(sw, Contains("mov.u64 %rd5, %clock64"));
  EXPECT_THAT(sw, Contains("exit"));
  EXPECT_THAT(sw, Contains("trap"));
}

TEST(ParserFixtures, ClustersOnSm90) {
  const ast::Module m = parse_fixture("cluster.ptx");
  EXPECT_THAT(m.targets, ElementsAre("sm_90"));
  const ast::Function& exchange = function(m, "_Z8exchangePi");
  EXPECT_TRUE(exchange.explicitcluster);
  EXPECT_THAT(exchange.reqnctapercluster, ElementsAre(2u, 1u, 1u));
  const std::vector<std::string> body = printed(exchange);
  EXPECT_THAT(body, Contains("barrier.cluster.arrive"));
  EXPECT_THAT(body, Contains("mov.b32 %r5, %cluster_ctarank"));
  EXPECT_THAT(body, Contains("mapa.u64 %rd4, %rd3, %r6"));
  EXPECT_THAT(body, Contains("redux.sync.add.u32 %r9, %r1, %r8"));
  EXPECT_EQ(function(m, "_Z13few_registersPi").maxnreg, 32u);
}

TEST(ParserFixtures, DebugInformationIsSkipped) {
  const ast::Module m = parse_fixture("debug.ptx");
  EXPECT_THAT(m.targets, ElementsAre("sm_75", "debug"));
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_TRUE(m.globals.empty());
  const std::vector<std::string> body = printed(function(m, "_Z12debug_kernelPi"));
  EXPECT_EQ(body.front(), ".reg .b32 %r<4>");
  EXPECT_EQ(body[2], "$L__func_begin1:");
  EXPECT_EQ(body[3], "ld.param.u64 %rd1, [_Z12debug_kernelPi_param_0]");
  EXPECT_EQ(body.back(), "$L__func_end1:");
  EXPECT_THAT(body, Contains("call.uni (retval0), _Z5twicei, (param0)"));
}

TEST(ParserFixtures, KernelSuiteParsesCleanly) {
  const std::filesystem::path dir(GPUSOC_KERNEL_DIR);
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".ptx") files.push_back(entry.path());
    }
  }
  if (files.empty()) GTEST_SKIP() << "no .ptx files in " << dir;
  for (const auto& path : files) {
    Diagnostics diags(path.filename().string());
    const ast::Module m = parse_module(read_file(path), diags);
    EXPECT_TRUE(diags.empty()) << join_lines(locate(diags));
    EXPECT_FALSE(m.functions.empty()) << path;
    EXPECT_GE(m.version_major, 8u) << path;
  }
}

TEST(ParserFixtures, LargeModuleParsesQuickly) {
  std::string text(kHeader);
  text +=
      ".visible .entry big(.param .u64 p)\n{\n.reg .b32 %r<10000>;\n.reg .b64 %rd<4>;\n"
      ".reg .pred %p<2>;\n";
  for (int i = 0; i < 10000; ++i) {
    switch (i % 4) {
      case 0:
        text += "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n";
        break;
      case 1:
        text += "\tmad.lo.s32 \t%r" + std::to_string(i) + ", %r1, 17, %r2;\n";
        break;
      case 2:
        text += "\t@%p1 bra \t$L__BB0_" + std::to_string(i) + ";\n";
        break;
      default:
        text += "$L__BB0_" + std::to_string(i - 1) + ":\n";
        break;
    }
  }
  text += "\tret;\n}\n";
  Diagnostics diags("big.ptx");
  const auto start = std::chrono::steady_clock::now();
  const ast::Module m = parse_module(text, diags);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(diags.empty());
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].body.size(), 10004u);
  // Milliseconds in a release build; the bound leaves room for sanitizers and loaded machines.
  EXPECT_LT(ms, 2000.0);
  RecordProperty("parse_ms", std::to_string(ms));
}

}  // namespace
}  // namespace gpusoc::ptx::test
