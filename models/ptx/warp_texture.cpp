// Texture and surface instructions of a warp: tex, tld4, txq, suld, sust, sured and suq. Each
// lane's object handle names a descriptor in device memory (models/tex/descriptor.h), read here
// as the texture unit reads it; texels come from device memory as they are now.
#include <fmt/format.h>

#include <cstring>

#include "models/ptx/semantics/float16.h"
#include "models/ptx/warp.h"
#include "models/tex/texture_fetch.h"

namespace gpusoc::ptx {
namespace {

uint16_t to_half(uint32_t float_bits) {
  float f;
  std::memcpy(&f, &float_bits, 4);
  return uint16_t(round_double<Binary16>(double(f), RoundDir::Nearest));
}

// A value for sust.p: the surface's channel representation of a 32-bit source.
uint64_t formatted_channel(const tex::TexelFormat& f, uint32_t value) {
  if (f.kind == tex::ChannelKind::Float && f.bits == 16) return to_half(value);
  return value;  // 32-bit floats as they are; integers truncated to the channel by the store
}

}  // namespace

const tex::Descriptor& Warp::texture_object(const Inst& in, unsigned lane, uint64_t handle,
                                            TextureObjectCache& cache) {
  if (cache.valid && cache.handle == handle) return cache.descriptor;
  const bool surface = is_surface_op(in.op);
  const char* kind = surface ? "surface" : "texture";
  uint8_t image[tex::kDescriptorBytes];
  tex::Descriptor& d = cache.descriptor;
  if (handle == 0 || !cta_->global->read(tex::handle_address(handle), image, sizeof image) ||
      !tex::decode(image, d)) {
    fault(in, lane, fmt::format("{} handle 0x{:x} names no {} object", kind, handle, kind));
  }
  if (d.generation != tex::handle_generation(handle) || d.state == tex::ObjectState::Destroyed)
    fault(in, lane, fmt::format("{} object 0x{:x} was destroyed", kind, handle));
  if (d.state == tex::ObjectState::BackingFreed)
    fault(in, lane, fmt::format("the memory under {} object 0x{:x} was freed", kind, handle));
  if (surface != (d.kind == tex::ObjectKind::Surface))
    fault(in, lane,
          fmt::format("{} instruction given {} object 0x{:x}", kind,
                      surface ? "texture" : "surface", handle));
  if (in.op != Op::Txq && in.op != Op::Suq) {
    const std::string problem = tex::geometry_problem(d, tex::Geometry(in.sub));
    if (!problem.empty())
      fault(in, lane, fmt::format("{} object 0x{:x}: {}", kind, handle, problem));
  }
  cache.valid = true;
  cache.handle = handle;
  return d;
}

uint64_t Warp::reference_handle(const Inst& in, unsigned lane, uint64_t address) {
  uint64_t handle = 0;
  if (!cta_->global->read(address, &handle, 8))
    fault(in, lane,
          fmt::format("the .texref/.surfref variable at 0x{:x} is not in memory", address));
  return handle;
}

void Warp::texture(const Inst& in, LaneMask exec) {
  TextureObjectCache cache;
  footprint_.addresses.clear();
  footprint_.lanes = exec;
  footprint_.bytes = 0;
  footprint_.kind = in.op == Op::Sust    ? GlobalAccess::Store
                    : in.op == Op::Sured ? GlobalAccess::Atomic
                                         : GlobalAccess::Load;
  const unsigned first_coordinate = in.num_dst + 1;
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    const uint64_t handle = in.src(0).kind == Operand::Kind::Addr
                                ? reference_handle(in, lane, in.src(0).imm)
                                : read_bits(ctx_, in.src(0), lane);
    const tex::Descriptor& d = texture_object(in, lane, handle, cache);
    auto set = [&](unsigned i, uint64_t v) {
      if (in.dst(i).kind == Operand::Kind::Reg)
        ctx_.regs[size_t(in.dst(i).reg) * kWarpSize + lane] = v;
    };
    if (in.op == Op::Txq || in.op == Op::Suq) {
      set(0, tex::query(d, tex::Query(in.sub)));
      continue;
    }
    tex::Coordinates c;
    c.integer = in.type2 == ScalarType::S32 || is_surface_op(in.op);  // surfaces: integers
    const unsigned n = tex::coordinate_count(tex::Geometry(in.sub));
    for (unsigned k = 0; k < n; ++k)
      c.bits[k] = uint32_t(read_bits(ctx_, in.ops[first_coordinate + k], lane));
    if (in.op == Op::Tex || in.op == Op::Tld4) {
      const tex::TexelReader read = [&](uint64_t offset) { return texel(in, lane, d, offset); };
      const tex::FetchResult r =
          in.op == Op::Tex
              ? tex::fetch(d, tex::Geometry(in.sub), c, read)
              : tex::gather(d, tex::Geometry(in.sub), in.sub2 & kTexComponentMask, c, read);
      if (in.type == ScalarType::F16x2) {
        set(0, to_half(r.bits[0]) | uint32_t(to_half(r.bits[1])) << 16);
        set(1, to_half(r.bits[2]) | uint32_t(to_half(r.bits[3])) << 16);
      } else {
        for (unsigned i = 0; i < 4; ++i)
          set(i, in.type == ScalarType::F16 ? to_half(r.bits[i])
                                            : extend_to_register(r.bits[i], in.type));
      }
      continue;
    }
    surface_access(in, lane, d, c, first_coordinate + n);
  }
  if (in.op == Op::Sust || in.op == Op::Sured) progress_at_ = warp_instructions_;
  if (cta_->observer && exec) cta_->observer->texture_access(footprint_);
}

const uint8_t* Warp::texel(const Inst& in, unsigned lane, const tex::Descriptor& d,
                           uint64_t offset) {
  // Each fetch uses at most eight texels at once (trilinear filtering).
  uint8_t* slot = texel_scratch_[texel_next_++ % texel_scratch_.size()].data();
  footprint_.bytes = d.format.bytes();
  footprint_.addresses.push_back(d.base + offset);
  if (!cta_->global->read(d.base + offset, slot, d.format.bytes()))
    fault(in, lane,
          fmt::format("texture read at 0x{:x} faulted: no memory there", d.base + offset));
  return slot;
}

void Warp::surface_access(const Inst& in, unsigned lane, const tex::Descriptor& d,
                          const tex::Coordinates& c, unsigned first_value) {
  const bool formatted = in.sub2 & kTexFormatted;
  const unsigned element = formatted ? d.format.bits / 8 : type_size(in.type);
  const unsigned count = in.op == Op::Sured ? 1 : formatted ? d.format.channels : in.vec;
  const unsigned bytes = element * count;
  tex::Coordinates at = c;
  if (formatted) at.bits[in.sub >= uint8_t(tex::Geometry::A1D) ? 1 : 0] *= d.format.bytes();
  const auto boundary = tex::Boundary((in.sub2 >> kTexBoundaryShift) & 3);
  const tex::SurfaceAccess a = tex::surface_address(d, tex::Geometry(in.sub), at, bytes, boundary);
  auto dst = [&](unsigned i) -> uint64_t* {
    return in.dst(i).kind == Operand::Kind::Reg
               ? &ctx_.regs[size_t(in.dst(i).reg) * kWarpSize + lane]
               : nullptr;
  };
  if (!a.inside) {
    if (boundary == tex::Boundary::Trap)
      fault(in, lane,
            fmt::format("surface access of {} bytes at ({}, {}, {}) is outside the {}x{}x{} "
                        "surface (.trap)",
                        bytes, c.i(0), c.i(1), c.i(2), d.width, d.height, d.depth));
    if (in.op == Op::Suld)
      for (unsigned i = 0; i < in.vec; ++i)
        if (uint64_t* r = dst(i)) *r = 0;
    return;
  }
  const uint64_t address = d.base + a.offset;
  footprint_.bytes = bytes;
  footprint_.addresses.push_back(address);
  uint8_t data[32] = {};
  auto transfer = [&](bool write) {
    const bool ok = write ? cta_->global->write(address, data, bytes)
                          : cta_->global->read(address, data, bytes);
    if (!ok)
      fault(in, lane, fmt::format("surface access at 0x{:x} faulted: no memory there", address));
  };
  if (in.op == Op::Suld) {
    transfer(false);
    for (unsigned i = 0; i < in.vec; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, data + i * element, element);
      if (uint64_t* r = dst(i)) *r = extend_to_register(v, in.type);
    }
    return;
  }
  if (in.op == Op::Sured) {
    transfer(false);
    uint64_t old = 0;
    std::memcpy(&old, data, element);
    const uint64_t b = read_bits(ctx_, in.ops[first_value], lane);
    const uint64_t v = reduce_surface(AtomOp(in.target), in.type, old, b);
    std::memcpy(data, &v, element);
    transfer(true);
    return;
  }
  for (unsigned i = 0; i < count; ++i) {
    uint64_t v = i < in.vec ? read_bits(ctx_, in.ops[first_value + i], lane) : 0;
    if (formatted) v = formatted_channel(d.format, uint32_t(v));
    std::memcpy(data + i * element, &v, element);
  }
  transfer(true);
}

uint64_t Warp::reduce_surface(AtomOp op, ScalarType t, uint64_t old, uint64_t b) {
  const bool wide = type_size(t) == 8;
  const bool is_signed_type = is_signed(t);
  const int64_t so = wide ? int64_t(old) : int64_t(int32_t(old));
  const int64_t sb = wide ? int64_t(b) : int64_t(int32_t(b));
  const uint64_t uo = wide ? old : uint32_t(old), ub = wide ? b : uint32_t(b);
  switch (op) {
    case AtomOp::Add:
      return uo + ub;
    case AtomOp::Min:
      return is_signed_type ? uint64_t(std::min(so, sb)) : std::min(uo, ub);
    case AtomOp::Max:
      return is_signed_type ? uint64_t(std::max(so, sb)) : std::max(uo, ub);
    case AtomOp::And:
      return uo & ub;
    default:
      return uo | ub;
  }
}

}  // namespace gpusoc::ptx
