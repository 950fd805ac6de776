// What PTX's texture and surface instructions do with an object's descriptor: tex and tld4 by
// geometry (layer selection, cubemap face selection, buffer fetches), the txq and suq queries, and
// the byte address a suld/sust/sured touches under its out-of-range mode. The texel memory is the
// caller's (TexelReader: offsets from the descriptor's base), so the PTX core and the texture
// unit share one definition.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "models/tex/descriptor.h"

namespace gpusoc::tex {

/// PTX geometries, in the PTX ISA's order of .1d .2d .3d .a1d .a2d .cube .acube.
enum class Geometry : uint8_t { D1, D2, D3, A1D, A2D, Cube, ACube };
const char* geometry_name(Geometry g);  // "1d", "a2d", ...
/// Elements of the coordinate vector PTX gives: 1, 2 or 4 (layer index first where layered).
unsigned coordinate_count(Geometry g);
/// Why `g` cannot read an object shaped like `d` (a 2D fetch from a 3D texture, a layered fetch
/// from an unlayered one); empty when it can. Surfaces and textures alike.
std::string geometry_problem(const Descriptor& d, Geometry g);

/// The coordinate vector as PTX gives it: float or s32 texel coordinates; the layer index of
/// a1d/a2d/acube is always an integer (element 0).
struct Coordinates {
  std::array<uint32_t, 4> bits{};  // raw 32-bit values
  bool integer = false;            // .s32 coordinates
  float f(size_t i) const;
  int32_t i(size_t i) const { return int32_t(bits[i]); }
};

/// A fetch's four 32-bit results: float bits for float textures and normalized reads, integers
/// (sign-extended) for element-type reads of integer textures.
struct FetchResult {
  std::array<uint32_t, 4> bits{};
  bool is_float = true;
};

/// Whether reads of `d` return floats (float texels, or integers read normalized).
bool returns_float(const Descriptor& d);

/// tex: point or linear filtering at the coordinates, layer or face chosen first. Buffers take
/// an integer index and read zeros outside [0, width); integer coordinates on other shapes
/// address texel centres without filtering.
FetchResult fetch(const Descriptor& d, Geometry g, const Coordinates& c, const TexelReader& read);
/// tld4: channel `component` of the bilinear footprint (2D and layered 2D).
FetchResult gather(const Descriptor& d, Geometry g, unsigned component, const Coordinates& c,
                   const TexelReader& read);

/// txq/suq queries, numbered as the decoder stores them.
enum class Query : uint8_t {
  Width,
  Height,
  Depth,
  ChannelDataType,
  ChannelOrder,
  NormalizedCoords,
  FilterMode,
  AddrMode0,
  AddrMode1,
  AddrMode2,
  ArraySize,
  NumMipmapLevels,
  NumSamples,
  MemoryLayout,
};
/// The query's value for `d` (OpenCL's enumerations for channel data type and order, as the PTX
/// ISA specifies).
uint32_t query(const Descriptor& d, Query q);

/// What a surface access does outside the surface: fault (.trap), clamp to the nearest element
/// (.clamp), or read zeros and drop stores (.zero).
enum class Boundary : uint8_t { Trap, Clamp, Zero };

struct SurfaceAccess {
  bool inside = true;   // false: out of range (the caller faults, zeroes or drops)
  uint64_t offset = 0;  // from the descriptor's base, where the access lands
};
/// Where a surface access of `bytes` at integer coordinates (x in bytes, as suld.b and sust.b
/// give it; y and z in rows and slices; the layer first for a1d/a2d) lands.
SurfaceAccess surface_address(const Descriptor& d, Geometry g, const Coordinates& c, unsigned bytes,
                              Boundary b);

}  // namespace gpusoc::tex
