// The texture unit's parameters (tex.*): its cache, address and filter rates, queue, placement
// per TPC, and the largest objects the driver may make.
#include "models/common/error.h"
#include "models/common/param.h"
#include "models/sm/cache_params.h"
#include "models/tex/texture_unit.h"

namespace gpusoc::tex {
namespace {

using U32 = uint32_t;

// Defaults: a Tesla TPC's texture unit (8800 GTX): an 8 KB texture cache per TPC, 4 texture
// address units (a quad of threads a cycle), and a fetch latency of about 260 cycles on a hit,
// as Wong et al. measured on GT200 ("Demystifying GPU microarchitecture through
// microbenchmarking", ISPASS 2010). configs/volta-v100.json sets Volta's.
const Param<U32> kUnitsPerTpc{"tex.units_per_tpc", 1, "units",
                              "texture units per TPC: 1 shares one between the TPC's SMs (Tesla); "
                              "as many as gpu.sms_per_tpc gives each SM its own (Volta)",
                              Range{1, 64}};
const sm::CacheParams kCache{"tex.cache", "texture cache", 8192, 4, 128, 32, 240, 32};
const Param<U32> kQuads{"tex.quads_per_cycle", 1, "quads",
                        "quads of threads (4 texture coordinates) the address units take a cycle",
                        Range{1, 8}};
const Param<U32> kTexels{"tex.texels_per_cycle", 16, "texels",
                         "texels the filter pipeline blends a cycle (a bilinear sample is 4)",
                         Range{1, 256}};
const Param<U32> kFilterLatency{"tex.filter_latency", 16, "cycles",
                                "cycles from a request's last texel filtered to its result at "
                                "the SM",
                                Range{0, 4096}};
const Param<U32> kQueue{"tex.queue_depth", 32, "requests",
                        "warp instructions a texture unit holds, accepted and not yet answered: "
                        "more wait at the SM (END_REQ backpressure)",
                        Range{1, 4096}};

// The largest objects the driver may make (reported in BAR0's TEX_MAX_* registers); defaults are
// an sm_80 GPU's cudaDeviceProp figures.
const Limits kDefaultLimits;
// One parameter per limit, the Limits field it sets beside it.
struct LimitParam {
  LimitParam(const char* key, uint32_t Limits::*field, const char* unit, const char* what)
      : field(field),
        param(std::string("tex.limits.") + key, kDefaultLimits.*field, unit, what,
              Range{1, 1u << 31}) {}
  uint32_t Limits::*field;
  Param<U32> param;
};
const LimitParam kLimitParams[] = {
    {"width_1d", &Limits::width_1d, "texels", "widest 1D array (maxTexture1D)"},
    {"linear_texels", &Limits::linear_1d, "texels",
     "texels of a texture over linear memory (maxTexture1DLinear)"},
    {"width_2d", &Limits::width_2d, "texels", "widest 2D array (maxTexture2D[0])"},
    {"height_2d", &Limits::height_2d, "texels", "tallest 2D array (maxTexture2D[1])"},
    {"linear_2d", &Limits::linear_2d, "texels",
     "each side of pitched 2D memory (maxTexture2DLinear)"},
    {"extent_3d", &Limits::extent_3d, "texels", "each side of a 3D array (maxTexture3D)"},
    {"layered_width", &Limits::layered_width, "texels", "each side of a layered array's layer"},
    {"layers", &Limits::layers, "layers", "layers of a layered array"},
    {"cube_width", &Limits::cube_width, "texels", "side of a cubemap face"},
    {"cube_layers", &Limits::cube_layers, "cubes", "cubes of a layered cubemap"},
};

}  // namespace

TextureUnitConfig TextureUnitConfig::from_config(const Config& config) {
  TextureUnitConfig c;
  c.cache = kCache.get(config, "tex.cache");
  if (!c.cache.enabled()) throw ConfigError("tex.cache.size_bytes: a texture unit needs its cache");
  c.quads_per_cycle = kQuads.get(config);
  c.texels_per_cycle = kTexels.get(config);
  c.filter_latency = kFilterLatency.get(config);
  c.queue_depth = kQueue.get(config);
  return c;
}

uint32_t texture_units_per_tpc(const Config& config) {
  return kUnitsPerTpc.get(config);
}

Limits texture_limits(const Config& config) {
  Limits l;
  for (const LimitParam& p : kLimitParams) l.*p.field = p.param.get(config);
  return l;
}

}  // namespace gpusoc::tex
