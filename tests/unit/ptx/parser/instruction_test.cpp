// Function bodies: declarations, labels, blocks, call prototypes, instructions and operands.
#include <gtest/gtest.h>

#include "parse_helpers.h"

namespace gpusoc::ptx::test {
namespace {

using Kind = ast::Operand::Kind;
using ::testing::ElementsAre;

TEST(ParserBody, DeclarationsLabelsAndBlocks) {
  const std::vector<ast::Statement> body = parse_body(
      "\t.local .align 16 .b8 \t__local_depot0[16];\n"
      "\t.reg .b64 \t%SP;\n"
      "\t.reg .pred \t%p<2>;\n"
      "\t.reg .v4 .f32 %v;\n"
      "\t.shared .align 4 .b8 sdata[1024];\n"
      "$L__BB0_2:\n"
      "\t{ // callseq 0, 0\n"
      "\t.reg .b32 temp_param_reg;\n"
      "\t.param .b32 param0;\n"
      "\t}\n"
      "$L__BB0_3: ret;\n");
  EXPECT_THAT(
      [&] {
        std::vector<std::string> out;
        for (const auto& s : body) out.push_back(print(s));
        return out;
      }(),
      ElementsAre(".local .align 16 .b8 __local_depot0[16]", ".reg .b64 %SP", ".reg .pred %p<2>",
                  ".reg .v4 .f32 %v", ".shared .align 4 .b8 sdata[1024]", "$L__BB0_2:", "{",
                  ".reg .b32 temp_param_reg", ".param .b32 param0", "}", "$L__BB0_3:", "ret"));
  EXPECT_TRUE(body[2].decl.is_range);
  EXPECT_EQ(body[2].decl.range_count, 2u);
  EXPECT_EQ(body[5].kind, ast::Statement::Kind::Label);
  EXPECT_EQ(body[5].loc.line, 11u);
  EXPECT_EQ(body[5].loc.column, 1u);
  EXPECT_EQ(body[6].kind, ast::Statement::Kind::BlockBegin);
  EXPECT_EQ(body[9].kind, ast::Statement::Kind::BlockEnd);
  EXPECT_EQ(body[11].loc.line, 16u);
  EXPECT_EQ(body[11].loc.column, 12u);
}

TEST(ParserBody, CallPrototype) {
  const std::vector<ast::Statement> body = parse_body(
      "prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .align 8 .b8 _[16]);\n"
      "proto_1: .callprototype _ ();\n");
  ASSERT_EQ(body.size(), 2u);
  const ast::Statement& p = body[0];
  EXPECT_EQ(p.kind, ast::Statement::Kind::CallPrototype);
  EXPECT_EQ(p.label, "prototype_0");
  ASSERT_EQ(p.proto_returns.size(), 1u);
  EXPECT_EQ(p.proto_returns[0].type, ScalarType::B32);
  ASSERT_EQ(p.proto_params.size(), 2u);
  EXPECT_EQ(p.proto_params[0].type, ScalarType::B64);
  EXPECT_EQ(p.proto_params[1].align, 8u);
  EXPECT_THAT(p.proto_params[1].dims, ElementsAre(16u));
  EXPECT_EQ(body[1].label, "proto_1");
  EXPECT_TRUE(body[1].proto_returns.empty());
  EXPECT_TRUE(body[1].proto_params.empty());
}

TEST(ParserInstruction, OpcodeAndModifiers) {
  const ast::Instruction shfl = parse_instruction("shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;");
  EXPECT_EQ(shfl.opcode, "shfl");
  EXPECT_THAT(shfl.modifiers, ElementsAre("sync", "bfly", "b32"));
  EXPECT_EQ(parse_instruction("setp.lt.and.s32 %p1, %r1, %r2, %p2;").modifiers,
            (std::vector<std::string>{"lt", "and", "s32"}));
  EXPECT_EQ(parse_instruction("cvt.rn.f32.s32 %f1, %r1;").modifiers,
            (std::vector<std::string>{"rn", "f32", "s32"}));
  EXPECT_EQ(parse_instruction("ld.global.L1::evict_last.v2.u32 {%r1, %r2}, [%rd1];").modifiers,
            (std::vector<std::string>{"global", "L1::evict_last", "v2", "u32"}));
  EXPECT_EQ(
      parse_instruction("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];").modifiers,
      (std::vector<std::string>{"2d", "v4", "f32", "f32"}));
  const ast::Instruction ret = parse_instruction("ret;");
  EXPECT_EQ(ret.opcode, "ret");
  EXPECT_TRUE(ret.modifiers.empty());
  EXPECT_TRUE(ret.operands.empty());
  EXPECT_EQ(print(parse_instruction("cp.async.commit_group;")), "cp.async.commit_group");
}

TEST(ParserInstruction, Guards) {
  const ast::Instruction bra = parse_instruction("\t@%p1 bra \t$L__BB0_2;");
  EXPECT_EQ(bra.guard, "%p1");
  EXPECT_FALSE(bra.guard_negated);
  EXPECT_EQ(bra.opcode, "bra");
  EXPECT_EQ(bra.loc.line, 6u);
  EXPECT_EQ(bra.loc.column, 2u);
  ASSERT_EQ(bra.operands.size(), 1u);
  EXPECT_EQ(bra.operands[0].kind, Kind::Symbol);
  EXPECT_EQ(bra.operands[0].name, "$L__BB0_2");

  const ast::Instruction neg = parse_instruction("@!%p2 bra.uni $L__BB0_3;");
  EXPECT_EQ(neg.guard, "%p2");
  EXPECT_TRUE(neg.guard_negated);
  EXPECT_THAT(neg.modifiers, ElementsAre("uni"));
}

TEST(ParserInstruction, Registers) {
  const ast::Instruction mov = parse_instruction("mov.u32 %r3, %ntid.y;");
  ASSERT_EQ(mov.operands.size(), 2u);
  EXPECT_EQ(mov.operands[0].kind, Kind::Register);
  EXPECT_EQ(mov.operands[0].name, "%r3");
  EXPECT_EQ(mov.operands[0].component, 0);
  EXPECT_EQ(mov.operands[0].loc.column, 9u);
  EXPECT_EQ(mov.operands[1].kind, Kind::Register);
  EXPECT_EQ(mov.operands[1].name, "%ntid");
  EXPECT_EQ(mov.operands[1].component, 'y');

  EXPECT_EQ(print(parse_instruction("mov.u32 %r1, %tid.x;")), "mov.u32 %r1, %tid.x");
  EXPECT_EQ(print(parse_instruction("mov.u32 %r1, %ctaid.z;")), "mov.u32 %r1, %ctaid.z");
  EXPECT_EQ(print(parse_instruction("mov.u32 %r1, %nctaid.x;")), "mov.u32 %r1, %nctaid.x");
  const ast::Instruction lane = parse_instruction("mov.u32 %r1, %laneid;");
  EXPECT_EQ(lane.operands[1].name, "%laneid");
  EXPECT_EQ(lane.operands[1].component, 0);
  EXPECT_EQ(print(parse_instruction("mov.u64 %rd1, %clock64;")), "mov.u64 %rd1, %clock64");
  EXPECT_EQ(print(parse_instruction("mov.u32 %r1, %lanemask_lt;")), "mov.u32 %r1, %lanemask_lt");

  const ast::Instruction sp = parse_instruction("cvta.local.u64 %SP, %SPL;");
  EXPECT_EQ(sp.operands[0].kind, Kind::Register);
  EXPECT_EQ(sp.operands[1].name, "%SPL");

  const ast::Instruction sel = parse_instruction("selp.b32 %r1, %r2, %r3, !%p1;");
  EXPECT_EQ(sel.operands[3].kind, Kind::Register);
  EXPECT_TRUE(sel.operands[3].negated);
  EXPECT_EQ(sel.operands[3].loc.column, 25u);
}

TEST(ParserInstruction, UserNamedRegistersAndSymbols) {
  const std::vector<ast::Statement> body = parse_body(
      ".reg .b32 temp_param_reg;\n"
      ".reg .u32 x<4>;\n"
      "mov.b32 temp_param_reg, x3;\n"
      "mov.u64 %rd1, x4;\n"
      "mov.u64 %rd2, __local_depot0;\n");
  ASSERT_EQ(body.size(), 5u);
  const ast::Instruction& mov = body[2].instruction;
  EXPECT_EQ(mov.operands[0].kind, Kind::Register);
  EXPECT_EQ(mov.operands[1].kind, Kind::Register);
  EXPECT_EQ(body[3].instruction.operands[1].kind, Kind::Symbol);  // outside x<4>
  EXPECT_EQ(body[4].instruction.operands[1].kind, Kind::Symbol);
  EXPECT_EQ(body[4].instruction.operands[1].name, "__local_depot0");
}

TEST(ParserInstruction, IntegerImmediates) {
  const ast::Instruction ins = parse_instruction(
      "foo %r1, 42, -1, 0xFF, 0XffU, 017, 0b101, 0B11U, 0, 4294967295U, "
      "0xFFFFFFFFFFFFFFFF, -9223372036854775808;");
  std::vector<int64_t> values;
  for (size_t i = 1; i < ins.operands.size(); ++i) {
    EXPECT_EQ(ins.operands[i].kind, Kind::IntImmediate) << i;
    values.push_back(ins.operands[i].int_value);
  }
  EXPECT_THAT(values, ElementsAre(42, -1, 255, 255, 15, 5, 3, 0, 4294967295, -1, INT64_MIN));
}

TEST(ParserInstruction, FloatImmediates) {
  const ast::Instruction ins =
      parse_instruction("foo %f1, 0f3F800000, 0d3FF0000000000000, 1.5, -0f3F800000, 2.5e-1, 1e3;");
  ASSERT_EQ(ins.operands.size(), 7u);
  for (size_t i = 1; i < ins.operands.size(); ++i) {
    EXPECT_EQ(ins.operands[i].kind, Kind::FloatImmediate) << i;
  }
  EXPECT_TRUE(ins.operands[1].float_is_f32);
  EXPECT_EQ(ins.operands[1].float_bits, 0x3F800000u);
  EXPECT_FALSE(ins.operands[2].float_is_f32);
  EXPECT_EQ(ins.operands[2].float_bits, 0x3FF0000000000000u);
  EXPECT_FALSE(ins.operands[3].float_is_f32);
  EXPECT_EQ(ins.operands[3].float_bits, 0x3FF8000000000000u);
  EXPECT_EQ(ins.operands[4].float_bits, 0xBF800000u);
  EXPECT_EQ(ins.operands[5].float_bits, 0x3FD0000000000000u);
  EXPECT_EQ(ins.operands[6].float_bits, 0x408F400000000000u);
}

TEST(ParserInstruction, Addresses) {
  const ast::Instruction ins = parse_instruction(
      "foo [%rd1], [%rd1+16], [%rd1+-4], [%rd2-8], [sym], [sym+8], [4096], [%r1+0x10];");
  ASSERT_EQ(ins.operands.size(), 8u);
  for (const ast::Operand& op : ins.operands) EXPECT_EQ(op.kind, Kind::Address);
  EXPECT_EQ(ins.operands[0].name, "%rd1");
  EXPECT_TRUE(ins.operands[0].address_base_is_register);
  EXPECT_EQ(ins.operands[0].int_value, 0);
  EXPECT_EQ(ins.operands[1].int_value, 16);
  EXPECT_EQ(ins.operands[2].int_value, -4);
  EXPECT_EQ(ins.operands[3].int_value, -8);
  EXPECT_EQ(ins.operands[4].name, "sym");
  EXPECT_FALSE(ins.operands[4].address_base_is_register);
  EXPECT_EQ(ins.operands[5].int_value, 8);
  EXPECT_EQ(ins.operands[6].name, "");
  EXPECT_FALSE(ins.operands[6].address_base_is_register);
  EXPECT_EQ(ins.operands[6].int_value, 4096);
  EXPECT_EQ(ins.operands[7].int_value, 16);

  const ast::Instruction tex =
      parse_instruction("tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd7, {%f1, %f2}];");
  ASSERT_EQ(tex.operands.size(), 2u);
  const ast::Operand& addr = tex.operands[1];
  EXPECT_EQ(addr.name, "%rd7");
  ASSERT_EQ(addr.elements.size(), 1u);
  EXPECT_EQ(addr.elements[0].kind, Kind::Vector);
  EXPECT_EQ(print(addr), "[%rd7, {%f1, %f2}]");
}

TEST(ParserInstruction, VectorsAndPredicatePairs) {
  const ast::Instruction st = parse_instruction("st.local.v4.u32 [%rd5+16], {%r1, %r2, %r3, %r4};");
  ASSERT_EQ(st.operands.size(), 2u);
  const ast::Operand& vec = st.operands[1];
  EXPECT_EQ(vec.kind, Kind::Vector);
  ASSERT_EQ(vec.elements.size(), 4u);
  EXPECT_EQ(vec.elements[3].name, "%r4");
  EXPECT_EQ(vec.elements[3].kind, Kind::Register);

  const ast::Instruction mov = parse_instruction("mov.b64 {%r1, _}, %fd8;");
  EXPECT_EQ(mov.operands[0].elements[1].kind, Kind::Sink);

  const ast::Instruction setp = parse_instruction("setp.lt.s32 %p1|%p2, %r1, %r2;");
  const ast::Operand& pair = setp.operands[0];
  EXPECT_EQ(pair.kind, Kind::PredPair);
  ASSERT_EQ(pair.elements.size(), 2u);
  EXPECT_EQ(pair.elements[0].name, "%p1");
  EXPECT_EQ(pair.elements[1].name, "%p2");
  EXPECT_EQ(print(parse_instruction("shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;")),
            "shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1");
}

TEST(ParserInstruction, Calls) {
  const ast::Instruction direct =
      parse_instruction("call.uni (retval0), \n_Z3fooi, \n(\nparam0, \nparam1\n);");
  EXPECT_EQ(direct.opcode, "call");
  ASSERT_EQ(direct.operands.size(), 3u);
  EXPECT_EQ(direct.operands[0].kind, Kind::ParenList);
  ASSERT_EQ(direct.operands[0].elements.size(), 1u);
  EXPECT_EQ(direct.operands[0].elements[0].kind, Kind::Symbol);
  EXPECT_EQ(direct.operands[1].kind, Kind::Symbol);
  EXPECT_EQ(direct.operands[1].name, "_Z3fooi");
  EXPECT_EQ(print(direct.operands[2]), "(param0, param1)");

  const ast::Instruction no_args = parse_instruction("call.uni \n_Z3barv, \n(\n);");
  ASSERT_EQ(no_args.operands.size(), 2u);
  EXPECT_EQ(no_args.operands[1].kind, Kind::ParenList);
  EXPECT_TRUE(no_args.operands[1].elements.empty());

  const ast::Instruction indirect =
      parse_instruction("call (retval0), \n%rd5, \n(\nparam0\n)\n, prototype_0;");
  EXPECT_EQ(print(indirect), "call (retval0), %rd5, (param0), prototype_0");
  EXPECT_EQ(indirect.operands[1].kind, Kind::Register);
  EXPECT_EQ(indirect.operands[3].kind, Kind::Symbol);
}

TEST(ParserInstruction, CommentsAnywhere) {
  EXPECT_THAT(print_body("add.s32 /* sum */ %r1, // first\n %r2, %r3; // trailing\n"
                         "/* a\n multi-line\n comment */ exit;"),
              ElementsAre("add.s32 %r1, %r2, %r3", "exit"));
}

TEST(ParserInstruction, DebugDirectivesInBodies) {
  EXPECT_THAT(print_body("\t.loc\t1 3 0\n$L__func_begin0:\n"
                         "\t.loc\t1 5 10, function_name $L__info_string0, inlined_at 1 12 3\n"
                         "\t.pragma \"nounroll\";\n\tret;"),
              ElementsAre("$L__func_begin0:", "ret"));
}

}  // namespace
}  // namespace gpusoc::ptx::test
