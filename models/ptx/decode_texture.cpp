#include "models/ptx/decode_texture.h"

#include <fmt/format.h>

#include <string_view>
#include <unordered_map>

#include "models/tex/texture_fetch.h"

namespace gpusoc::ptx::detail {
namespace {

using tex::Geometry;
using K = ast::Operand::Kind;

const std::unordered_map<std::string_view, Op>& opcodes() {
  static const std::unordered_map<std::string_view, Op> t = {
      {"tex", Op::Tex},   {"tld4", Op::Tld4},   {"txq", Op::Txq}, {"suld", Op::Suld},
      {"sust", Op::Sust}, {"sured", Op::Sured}, {"suq", Op::Suq}};
  return t;
}

const std::unordered_map<std::string_view, Geometry> kGeometries = {
    {"1d", Geometry::D1},      {"2d", Geometry::D2},   {"3d", Geometry::D3},
    {"a1d", Geometry::A1D},    {"a2d", Geometry::A2D}, {"cube", Geometry::Cube},
    {"acube", Geometry::ACube}};

const std::unordered_map<std::string_view, tex::Query> kQueries = {
    {"width", tex::Query::Width},
    {"height", tex::Query::Height},
    {"depth", tex::Query::Depth},
    {"channel_data_type", tex::Query::ChannelDataType},
    {"channel_order", tex::Query::ChannelOrder},
    {"normalized_coords", tex::Query::NormalizedCoords},
    {"filter_mode", tex::Query::FilterMode},
    {"addr_mode_0", tex::Query::AddrMode0},
    {"addr_mode_1", tex::Query::AddrMode1},
    {"addr_mode_2", tex::Query::AddrMode2},
    {"array_size", tex::Query::ArraySize},
    {"num_mipmap_levels", tex::Query::NumMipmapLevels},
    {"num_samples", tex::Query::NumSamples},
    {"memory_layout", tex::Query::MemoryLayout}};

const std::unordered_map<std::string_view, AtomOp> kReductions = {{"add", AtomOp::Add},
                                                                  {"min", AtomOp::Min},
                                                                  {"max", AtomOp::Max},
                                                                  {"and", AtomOp::And},
                                                                  {"or", AtomOp::Or}};

// Cache-operator words of suld/sust: hints only.
bool is_cache_word(std::string_view w) {
  return w == "ca" || w == "cg" || w == "cs" || w == "cv" || w == "wb" || w == "wt";
}

template <typename T>
bool find(const std::unordered_map<std::string_view, T>& table, std::string_view w, T& out) {
  const auto it = table.find(w);
  if (it == table.end()) return false;
  out = it->second;
  return true;
}

void append(std::vector<ast::Operand>& to, const ast::Operand& o) {
  if (o.kind == K::Vector) {
    to.insert(to.end(), o.elements.begin(), o.elements.end());
  } else {
    to.push_back(o);
  }
}

class TextureDecoder {
 public:
  TextureDecoder(const ast::Instruction& ai, Inst& in, TextureOperands& ops, std::string& error)
      : ai_(ai), in_(in), ops_(ops), error_(error) {}

  bool run() {
    in_.op = opcodes().at(ai_.opcode);
    if (!modifiers()) return false;
    if (in_.op == Op::Txq || in_.op == Op::Suq) return query();
    if (!have_geometry_) return fail("needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)");
    const bool surface = surface_access();
    if (surface && (geometry() == Geometry::Cube || geometry() == Geometry::ACube))
      return fail("surfaces have no cubemap geometry");
    switch (in_.op) {
      case Op::Tex:
      case Op::Tld4:
        return fetch();
      case Op::Suld:
        return surface_load();
      default:
        return surface_store();
    }
  }

 private:
  Geometry geometry() const { return Geometry(in_.sub); }
  // suld, sust, sured: what reads or writes a surface's elements (suq only asks about one).
  bool surface_access() const { return is_surface_op(in_.op) && in_.op != Op::Suq; }

  bool fail(const std::string& why) {
    error_ = fmt::format("unsupported instruction '{}': {}", spelled(), why);
    return false;
  }
  std::string spelled() const {
    std::string s = ai_.opcode;
    for (const auto& m : ai_.modifiers) s += "." + m;
    return s;
  }

  bool modifiers() {
    ScalarType types[2] = {ScalarType::None, ScalarType::None};
    unsigned num_types = 0;
    for (const std::string& word : ai_.modifiers) {
      const std::string_view w = word;
      Geometry g;
      tex::Query q;
      AtomOp r;
      if (auto t = parse_scalar_type(w)) {
        if (num_types == 2) return fail("too many types");
        types[num_types++] = *t;
      } else if (find(kGeometries, w, g) && !have_geometry_) {
        in_.sub = uint8_t(g);
        have_geometry_ = true;
      } else if ((in_.op == Op::Txq || in_.op == Op::Suq) && find(kQueries, w, q)) {
        in_.sub = uint8_t(q);
        have_geometry_ = true;
      } else if (w == "v2" || w == "v4") {
        in_.vec = uint8_t(w[1] - '0');
      } else if (in_.op == Op::Tld4 && w.size() == 1 &&
                 std::string_view("rgba").find(w[0]) != std::string_view::npos) {
        in_.sub2 |= uint8_t(std::string_view("rgba").find(w[0]));
      } else if (in_.op == Op::Tex && (w == "level" || w == "grad" || w == "base")) {
        mip_ = word;  // no mipmaps: every level of detail reads level 0
      } else if (surface_access() && (w == "trap" || w == "clamp" || w == "zero")) {
        const tex::Boundary b = w == "trap"    ? tex::Boundary::Trap
                                : w == "clamp" ? tex::Boundary::Clamp
                                               : tex::Boundary::Zero;
        in_.sub2 |= uint8_t(uint8_t(b) << kTexBoundaryShift);
      } else if (in_.op == Op::Sured && find(kReductions, w, r)) {
        in_.target = uint32_t(r);
        have_reduction_ = true;
      } else if (surface_access() && w == "b") {
      } else if ((in_.op == Op::Sust || in_.op == Op::Sured) && w == "p") {
        if (in_.op == Op::Sured) return fail("sured.p is not supported; use sured.b");
        in_.sub2 |= kTexFormatted;
      } else if ((in_.op == Op::Suld || in_.op == Op::Sust) && is_cache_word(w)) {
      } else if (in_.op == Op::Txq && w == "level") {
      } else {
        return fail(fmt::format("modifier '.{}'", word));
      }
    }
    in_.type = types[0];
    in_.type2 = types[1];
    return types_ok(num_types);
  }

  bool types_ok(unsigned num_types) {
    const ScalarType d = in_.type, c = in_.type2;
    switch (in_.op) {
      case Op::Tex:
      case Op::Tld4:
        if (num_types != 2) return fail("needs a result and a coordinate type");
        if (d != ScalarType::F32 && d != ScalarType::S32 && d != ScalarType::U32 &&
            d != ScalarType::F16 && d != ScalarType::F16x2)
          return fail("results are .f32, .s32, .u32, .f16 or .f16x2");
        if (c != ScalarType::F32 && c != ScalarType::S32)
          return fail("coordinates are .f32 or .s32");
        if ((in_.op == Op::Tld4 || geometry() == Geometry::Cube || geometry() == Geometry::ACube) &&
            c != ScalarType::F32)
          return fail("this geometry takes .f32 coordinates");
        if (in_.vec != (d == ScalarType::F16x2 ? 2 : 4))
          return fail(d == ScalarType::F16x2 ? "f16x2 results are .v2" : "results are .v4");
        return true;
      case Op::Txq:
      case Op::Suq:
        if (!have_geometry_) return fail("needs a query such as .width");
        if (num_types != 1 || d != ScalarType::B32) return fail("results are .b32");
        return true;
      case Op::Sured:
        if (!have_reduction_) return fail("needs an operation (.add, .min, .max, .and, .or)");
        if (num_types != 1 ||
            (d != ScalarType::U32 && d != ScalarType::S32 && d != ScalarType::B32 &&
             d != ScalarType::U64 && d != ScalarType::S64 && d != ScalarType::B64))
          return fail("sured takes .u32, .s32, .b32, .u64, .s64 or .b64");
        return true;
      default:
        if (num_types != 1 ||
            (type_size(d) != 1 && type_size(d) != 2 && type_size(d) != 4 && type_size(d) != 8) ||
            (!is_bits(d) && !(in_.sub2 & kTexFormatted)))
          return fail("elements are .b8, .b16, .b32 or .b64");
        return true;
    }
  }

  // The bracketed object operand: [object], [object, {coords}] or [object, sampler, {coords}].
  bool object(const ast::Operand& a, bool with_coordinates) {
    if (a.kind != K::Address)
      return fail("expected the object in brackets: [handle, {coordinates}]");
    if (a.name.empty() || a.int_value != 0)
      return fail("the object is a register holding a handle, or a .texref/.surfref name");
    ast::Operand handle;
    handle.kind = a.address_base_is_register ? K::Register : K::Symbol;
    handle.name = a.name;
    handle.loc = a.loc;
    ops_.src.push_back(handle);
    const size_t want = with_coordinates ? 1 : 0;
    if (a.elements.size() == want + 1)
      return fail("separate samplers (.samplerref) are not supported");
    if (a.elements.size() != want) return fail("wrong operands in the brackets");
    if (!with_coordinates) return true;
    const ast::Operand& coords = a.elements[0];
    const unsigned n = tex::coordinate_count(geometry());
    const size_t given = coords.kind == K::Vector ? coords.elements.size() : 1;
    if (given != n)
      return fail(fmt::format(".{} takes {} coordinate{}, got {}", tex::geometry_name(geometry()),
                              n, n == 1 ? "" : "s", given));
    append(ops_.src, coords);
    return true;
  }

  bool destinations(const ast::Operand& d, unsigned count) {
    if (d.kind == K::PredPair) return fail("the residency predicate (d|p) is not supported");
    const size_t given = d.kind == K::Vector ? d.elements.size() : 1;
    if (given != count)
      return fail(
          fmt::format("needs {} destination{}, got {}", count, count == 1 ? "" : "s", given));
    append(ops_.dst, d);
    return true;
  }

  bool fetch() {
    const auto& o = ai_.operands;
    size_t extra = 0;  // lod, or the two gradients
    if (mip_ == "level") extra = 1;
    if (mip_ == "grad") extra = 2;
    if (o.size() < 2) return fail("needs a destination vector and [object, {coordinates}]");
    if (o.size() > 2 + extra)
      return fail("coordinate offsets and depth comparison are not supported");
    if (o.size() < 2 + extra)
      return fail(fmt::format(".{} needs its level-of-detail operands", mip_));
    return destinations(o[0], in_.vec) && object(o[1], true);
  }

  bool query() {
    const auto& o = ai_.operands;
    if (o.size() == 3 && in_.op == Op::Txq) return fail("txq.level is not supported");
    if (o.size() != 2) return fail("needs a destination and [object]");
    return destinations(o[0], 1) && object(o[1], false);
  }

  bool surface_load() {
    const auto& o = ai_.operands;
    if (o.size() != 2) return fail("needs destinations and [object, {coordinates}]");
    return destinations(o[0], in_.vec) && object(o[1], true);
  }

  bool surface_store() {
    const auto& o = ai_.operands;
    if (o.size() != 2) return fail("needs [object, {coordinates}] and the value");
    if (!object(o[0], true)) return false;
    const unsigned count = in_.op == Op::Sured ? 1 : in_.vec;
    const size_t given = o[1].kind == K::Vector ? o[1].elements.size() : 1;
    if (given != count)
      return fail(fmt::format("needs {} value{}, got {}", count, count == 1 ? "" : "s", given));
    append(ops_.src, o[1]);
    return true;
  }

  const ast::Instruction& ai_;
  Inst& in_;
  TextureOperands& ops_;
  std::string& error_;
  bool have_geometry_ = false;
  bool have_reduction_ = false;
  std::string mip_;
};

}  // namespace

bool is_texture_opcode(const std::string& opcode) {
  return opcodes().count(opcode) != 0;
}

bool decode_texture(const ast::Instruction& ai, Inst& in, TextureOperands& ops,
                    std::string& error) {
  return TextureDecoder(ai, in, ops, error).run();
}

}  // namespace gpusoc::ptx::detail
