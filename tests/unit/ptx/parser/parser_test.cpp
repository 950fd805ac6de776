// Module-scope directives, variables, initializers and function headers.
#include <gtest/gtest.h>

#include "parse_helpers.h"

namespace gpusoc::ptx::test {
namespace {

using ::testing::ElementsAre;

ast::InitValue int_init(int64_t v) {
  ast::InitValue init;
  init.int_value = v;
  return init;
}

void expect_init_eq(const ast::InitValue& got, const ast::InitValue& want) {
  EXPECT_EQ(got.kind, want.kind);
  EXPECT_EQ(got.int_value, want.int_value);
  EXPECT_EQ(got.float_bits, want.float_bits);
  EXPECT_EQ(got.float_is_f32, want.float_is_f32);
  EXPECT_EQ(got.symbol, want.symbol);
  EXPECT_EQ(got.generic, want.generic);
  EXPECT_EQ(got.offset, want.offset);
}

TEST(ParserModule, HeaderDirectives) {
  const ast::Module m = parse_ok(
      "// comment\n.version 9.0\n.target sm_90a, texmode_independent, debug\n"
      ".address_size 64\n");
  EXPECT_EQ(m.file, "test.ptx");
  EXPECT_EQ(m.version_major, 9u);
  EXPECT_EQ(m.version_minor, 0u);
  EXPECT_THAT(m.targets, ElementsAre("sm_90a", "texmode_independent", "debug"));
  EXPECT_EQ(m.address_size, 64u);
  EXPECT_TRUE(m.functions.empty());
  EXPECT_TRUE(m.globals.empty());

  const ast::Module old = parse_ok(".version 7.5 .target sm_75 .address_size 32");
  EXPECT_EQ(old.version_major, 7u);
  EXPECT_EQ(old.version_minor, 5u);
  EXPECT_EQ(old.address_size, 32u);
}

TEST(ParserModule, SkipsDebugAndPragmaDirectives) {
  const ast::Module m =
      parse_ok(std::string(kHeader) +
               "\t.file\t1 \"/tmp/x.cu\", 1700000000, 1234\n"
               ".pragma \"nounroll\";\n"
               ".section .debug_info\n{\n.b32 826\n.b8 2, 0\n.b64 $L__func_begin0\n"
               "{ nested }\n}\n"
               ".section\t.debug_macinfo\t{\t}\n"
               ".global .u32 after;\n");
  ASSERT_EQ(m.globals.size(), 1u);
  EXPECT_EQ(m.globals[0].name, "after");
}

TEST(ParserModule, ScalarAndArrayVariables) {
  const ast::Module m = parse_ok(std::string(kHeader) +
                                 ".global .align 4 .b8 buf[16];\n"
                                 ".const .f32 c = 0f3F800000;\n"
                                 ".shared .align 16 .v4 .f32 vec;\n"
                                 ".global .u32 grid[2][3], single, open[];\n"
                                 ".local .u64 depot;\n");
  ASSERT_EQ(m.globals.size(), 7u);
  const ast::VarDecl& buf = m.globals[0];
  EXPECT_EQ(buf.space, StateSpace::Global);
  EXPECT_EQ(buf.type, ScalarType::B8);
  EXPECT_EQ(buf.align, 4u);
  EXPECT_EQ(buf.name, "buf");
  EXPECT_THAT(buf.dims, ElementsAre(16u));
  EXPECT_EQ(buf.loc.line, 4u);
  EXPECT_EQ(buf.loc.column, 22u);

  const ast::VarDecl& c = m.globals[1];
  EXPECT_EQ(c.space, StateSpace::Const);
  EXPECT_EQ(c.type, ScalarType::F32);
  ASSERT_EQ(c.init.size(), 1u);
  EXPECT_EQ(c.init[0].kind, ast::InitValue::Kind::Float);
  EXPECT_TRUE(c.init[0].float_is_f32);
  EXPECT_EQ(c.init[0].float_bits, 0x3F800000u);

  EXPECT_EQ(m.globals[2].space, StateSpace::Shared);
  EXPECT_EQ(m.globals[2].vector, 4u);
  EXPECT_EQ(m.globals[2].align, 16u);

  EXPECT_EQ(m.globals[3].name, "grid");
  EXPECT_THAT(m.globals[3].dims, ElementsAre(2u, 3u));
  EXPECT_EQ(m.globals[4].name, "single");
  EXPECT_TRUE(m.globals[4].dims.empty());
  EXPECT_EQ(m.globals[4].type, ScalarType::U32);
  EXPECT_THAT(m.globals[5].dims, ElementsAre(0u));
  EXPECT_EQ(m.globals[6].space, StateSpace::Local);
}

TEST(ParserModule, Linkage) {
  const ast::Module m = parse_ok(std::string(kHeader) +
                                 ".visible .global .u32 v;\n"
                                 ".extern .shared .align 16 .b8 dyn[];\n"
                                 ".weak .global .u32 w;\n"
                                 ".common .global .u32 c;\n"
                                 ".global .attribute(.managed) .align 4 .u32 managed;\n");
  ASSERT_EQ(m.globals.size(), 5u);
  EXPECT_TRUE(m.globals[0].is_visible);
  EXPECT_FALSE(m.globals[0].is_extern);
  EXPECT_TRUE(m.globals[1].is_extern);
  EXPECT_EQ(m.globals[1].space, StateSpace::Shared);
  EXPECT_THAT(m.globals[1].dims, ElementsAre(0u));
  EXPECT_TRUE(m.globals[2].is_weak);
  EXPECT_TRUE(m.globals[3].is_common);
  EXPECT_TRUE(m.globals[4].is_managed);
  EXPECT_EQ(m.globals[4].align, 4u);
}

TEST(ParserModule, InitializersAreFlattened) {
  const ast::Module m = parse_ok(std::string(kHeader) +
                                 ".global .s32 t[2][3] = {{1, -2, 0x10}, {017, 0b101, 6U}};\n"
                                 ".global .u64 big = 0xFFFFFFFFFFFFFFFF;\n"
                                 ".global .f64 d[3] = {0d3FF0000000000000, 1.5, -2.0};\n"
                                 ".global .u64 p[4] = {generic(t)+12, t, fn, t-4};\n"
                                 ".global .u8 empty[4] = {};\n");
  ASSERT_EQ(m.globals.size(), 5u);
  const auto& t = m.globals[0].init;
  ASSERT_EQ(t.size(), 6u);
  const int64_t want[] = {1, -2, 16, 15, 5, 6};
  for (size_t i = 0; i < 6; ++i) expect_init_eq(t[i], int_init(want[i]));

  ASSERT_EQ(m.globals[1].init.size(), 1u);
  EXPECT_EQ(m.globals[1].init[0].int_value, -1);

  const auto& d = m.globals[2].init;
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].kind, ast::InitValue::Kind::Float);
  EXPECT_FALSE(d[0].float_is_f32);
  EXPECT_EQ(d[0].float_bits, 0x3FF0000000000000u);
  EXPECT_EQ(d[1].float_bits, 0x3FF8000000000000u);  // 1.5 as f64 bits
  EXPECT_EQ(d[2].float_bits, 0xC000000000000000u);  // -2.0

  const auto& p = m.globals[3].init;
  ASSERT_EQ(p.size(), 4u);
  ast::InitValue want_p;
  want_p.kind = ast::InitValue::Kind::SymbolAddress;
  want_p.symbol = "t";
  want_p.generic = true;
  want_p.offset = 12;
  expect_init_eq(p[0], want_p);
  want_p.generic = false;
  want_p.offset = 0;
  expect_init_eq(p[1], want_p);
  want_p.symbol = "fn";
  expect_init_eq(p[2], want_p);
  want_p.symbol = "t";
  want_p.offset = -4;
  expect_init_eq(p[3], want_p);

  EXPECT_TRUE(m.globals[4].init.empty());
}

TEST(ParserModule, EntryWithParameters) {
  const ast::Module m = parse_ok(std::string(kHeader) +
                                 ".visible .entry kern(\n"
                                 "\t.param .u64 .ptr .global .align 8 kern_param_0,\n"
                                 "\t.param .align 16 .b8 kern_param_1[32],\n"
                                 "\t.param .u32 kern_param_2\n"
                                 ")\n"
                                 ".maxntid 256, 1, 1\n.minnctapersm 2\n.maxnreg 64\n"
                                 "{\n\tret;\n}\n");
  ASSERT_EQ(m.functions.size(), 1u);
  const ast::Function& fn = m.functions[0];
  EXPECT_TRUE(fn.is_entry);
  EXPECT_TRUE(fn.is_visible);
  EXPECT_TRUE(fn.has_body);
  EXPECT_EQ(fn.name, "kern");
  EXPECT_EQ(fn.loc.line, 4u);
  EXPECT_EQ(fn.loc.column, 17u);
  ASSERT_EQ(fn.params.size(), 3u);
  const ast::VarDecl& p0 = fn.params[0];
  EXPECT_EQ(p0.space, StateSpace::Param);
  EXPECT_EQ(p0.type, ScalarType::U64);
  EXPECT_TRUE(p0.is_ptr);
  EXPECT_EQ(p0.ptr_space, StateSpace::Global);
  EXPECT_EQ(p0.ptr_align, 8u);
  EXPECT_EQ(p0.align, 0u);
  EXPECT_EQ(p0.name, "kern_param_0");
  const ast::VarDecl& p1 = fn.params[1];
  EXPECT_EQ(p1.align, 16u);
  EXPECT_EQ(p1.type, ScalarType::B8);
  EXPECT_THAT(p1.dims, ElementsAre(32u));
  EXPECT_FALSE(p1.is_ptr);
  EXPECT_EQ(fn.params[2].type, ScalarType::U32);
  EXPECT_THAT(fn.maxntid, ElementsAre(256u, 1u, 1u));
  EXPECT_THAT(fn.reqntid, ElementsAre(0u, 0u, 0u));
  EXPECT_EQ(fn.minnctapersm, 2u);
  EXPECT_EQ(fn.maxnreg, 64u);
  ASSERT_EQ(fn.body.size(), 1u);
  EXPECT_EQ(print(fn.body[0]), "ret");
}

TEST(ParserModule, FunctionsPrototypesAndReturns) {
  const ast::Module m =
      parse_ok(std::string(kHeader) +
               ".func  (.param .b32 func_retval0) _Z6squarei\n"
               "(\n\t.param .b32 _Z6squarei_param_0\n)\n;\n"
               ".extern .func  (.param .b32 func_retval0) vprintf\n"
               "(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n"
               ".weak .func (.param .align 8 .b8 func_retval0[16]) pair()\n{\nret;\n}\n"
               ".func _Z7nothingv()\n{\n\tret;\n}\n"
               ".func bare .noreturn\n{\n\ttrap;\n}\n"
               ".entry clustered .explicitcluster .reqnctapercluster 2, 1, 1\n"
               ".maxclusterrank 8 .reqntid 128 { ret; }\n");
  ASSERT_EQ(m.functions.size(), 6u);
  const ast::Function& proto = m.functions[0];
  EXPECT_FALSE(proto.is_entry);
  EXPECT_FALSE(proto.has_body);
  EXPECT_EQ(proto.name, "_Z6squarei");
  ASSERT_EQ(proto.returns.size(), 1u);
  EXPECT_EQ(proto.returns[0].name, "func_retval0");
  EXPECT_EQ(proto.returns[0].type, ScalarType::B32);
  ASSERT_EQ(proto.params.size(), 1u);

  EXPECT_TRUE(m.functions[1].is_extern);
  EXPECT_FALSE(m.functions[1].has_body);
  EXPECT_EQ(m.functions[1].params.size(), 2u);

  const ast::Function& pair = m.functions[2];
  EXPECT_TRUE(pair.is_weak);
  ASSERT_EQ(pair.returns.size(), 1u);
  EXPECT_EQ(pair.returns[0].align, 8u);
  EXPECT_THAT(pair.returns[0].dims, ElementsAre(16u));
  EXPECT_TRUE(pair.params.empty());

  EXPECT_TRUE(m.functions[3].has_body);
  EXPECT_TRUE(m.functions[3].params.empty());
  EXPECT_TRUE(m.functions[4].noreturn);
  EXPECT_EQ(m.functions[4].name, "bare");

  const ast::Function& clustered = m.functions[5];
  EXPECT_TRUE(clustered.explicitcluster);
  EXPECT_THAT(clustered.reqnctapercluster, ElementsAre(2u, 1u, 1u));
  EXPECT_EQ(clustered.maxclusterrank, 8u);
  EXPECT_THAT(clustered.reqntid, ElementsAre(128u, 1u, 1u));
}

TEST(ParserModule, OldStyleRegisterParameters) {
  const ast::Module m =
      parse_ok(std::string(kHeader) +
               ".func (.reg .u32 out) f(.reg .u32 in)\n{\n\tadd.u32 out, in, 1;\n\tret;\n}\n");
  ASSERT_EQ(m.functions.size(), 1u);
  const ast::Function& fn = m.functions[0];
  EXPECT_EQ(fn.returns[0].space, StateSpace::Reg);
  EXPECT_EQ(fn.params[0].space, StateSpace::Reg);
  const ast::Instruction& add = fn.body[0].instruction;
  ASSERT_EQ(add.operands.size(), 3u);
  EXPECT_EQ(add.operands[0].kind, ast::Operand::Kind::Register);
  EXPECT_EQ(add.operands[1].kind, ast::Operand::Kind::Register);
}

TEST(ParserModule, TypesAndStateSpaces) {
  EXPECT_EQ(parse_scalar_type(".u32"), ScalarType::U32);
  EXPECT_EQ(parse_scalar_type("bf16x2"), ScalarType::BF16x2);
  EXPECT_EQ(parse_scalar_type(".pred"), ScalarType::Pred);
  EXPECT_EQ(parse_scalar_type(".global"), std::nullopt);
  EXPECT_EQ(parse_state_space(".shared"), StateSpace::Shared);
  EXPECT_EQ(parse_state_space("shared::cta"), StateSpace::Shared);
  EXPECT_EQ(parse_state_space(".u32"), std::nullopt);
  EXPECT_EQ(type_size(ScalarType::B128), 16u);
  EXPECT_EQ(type_size(ScalarType::F16x2), 4u);
  EXPECT_EQ(type_size(ScalarType::Pred), 1u);
  EXPECT_EQ(type_size(ScalarType::None), 0u);
  EXPECT_TRUE(is_signed(ScalarType::S16));
  EXPECT_FALSE(is_signed(ScalarType::U16));
  EXPECT_TRUE(is_float(ScalarType::BF16));
  EXPECT_FALSE(is_float(ScalarType::B32));
  EXPECT_TRUE(is_bits(ScalarType::B128));
  EXPECT_EQ(to_string(ScalarType::F16x2), "f16x2");
  EXPECT_EQ(to_string(StateSpace::Param), "param");
  EXPECT_EQ(to_string(StateSpace::None), "none");
}

TEST(ParserModule, DiagnosticFormatting) {
  Diagnostics diags("k.ptx");
  diags.error({3, 7}, "expected ';' after instruction");
  diags.error({4, 1}, "unknown directive '.foo'");
  EXPECT_EQ(diags.list()[0].to_string(), "k.ptx:3:7: error: expected ';' after instruction");
  const ModuleLoadError e(diags.list());
  EXPECT_STREQ(e.what(),
               "k.ptx:3:7: error: expected ';' after instruction\n"
               "k.ptx:4:1: error: unknown directive '.foo'");
  EXPECT_EQ(e.diagnostics().size(), 2u);
}

}  // namespace
}  // namespace gpusoc::ptx::test
