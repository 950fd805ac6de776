#include "platform/launch_texture_args.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "models/common/error.h"
#include "models/common/text_file.h"

namespace gpusoc::platform {
namespace {

constexpr uint64_t kMaxArrayBytes = uint64_t(1) << 34;  // 16 GiB

[[noreturn]] void bad(size_t index, const std::string& text, const std::string& why) {
  throw UsageError(fmt::format("argument {} '{}': {}", index, text, why));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at; (at = s.find(sep, start)) != std::string::npos; start = at + 1)
    parts.push_back(s.substr(start, at - start));
  parts.push_back(s.substr(start));
  return parts;
}

std::optional<uint64_t> number(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 12)
    return std::nullopt;
  return std::stoull(s);
}

tex::TexelFormat texel_format(size_t index, const std::string& text, const std::string& f) {
  const std::vector<std::string> parts = split(f, 'x');
  tex::TexelFormat t;
  const std::string& base = parts[0];
  const auto bits = base.size() > 1 ? number(base.substr(1)) : std::nullopt;
  if (parts.size() > 2 || !bits || (base[0] != 'f' && base[0] != 'u' && base[0] != 's'))
    bad(index, text,
        "'" + f +
            "' is not a format: f32, f16, u8, s8, u16, s16, u32 or s32, "
            "with xN for N channels");
  t.kind = base[0] == 'f'   ? tex::ChannelKind::Float
           : base[0] == 'u' ? tex::ChannelKind::Unsigned
                            : tex::ChannelKind::Signed;
  t.bits = uint8_t(std::min<uint64_t>(*bits, 255));
  t.channels = 1;
  if (parts.size() == 2) {
    const auto n = number(parts[1]);
    if (!n) bad(index, text, "'" + f + "': expected xN channels");
    t.channels = uint8_t(std::min<uint64_t>(*n, 255));
  }
  if (const std::string p = t.problem(); !p.empty()) bad(index, text, "format '" + f + "': " + p);
  return t;
}

}  // namespace

std::optional<TextureArgument> parse_texture_argument(size_t index, const std::string& text,
                                                      const std::string& kind,
                                                      const std::string& value) {
  if (kind != "tex" && kind != "surf") return std::nullopt;
  TextureArgument a;
  a.surface = kind == "surf";
  const std::vector<std::string> parts = split(value, ':');
  if (parts.size() < 3 || parts.size() > (a.surface ? 3u : 4u))
    bad(index, text,
        a.surface ? "expected surf:FORMAT:EXTENT:SOURCE"
                  : "expected tex:FORMAT:EXTENT:SOURCE[:MODE,...]");
  a.array.format = texel_format(index, text, parts[0]);
  const std::vector<std::string> extent = split(parts[1], 'x');
  uint64_t dims[3] = {0, 0, 0};
  for (size_t i = 0; i < extent.size(); ++i) {
    const auto n = i < 3 ? number(extent[i]) : std::nullopt;
    if (!n || *n == 0 || *n > (1u << 20))
      bad(index, text, "'" + parts[1] + "' is not an extent: W, WxH or WxHxD texels");
    dims[i] = *n;
  }
  a.array.width = uint32_t(dims[0]);
  a.array.height = uint32_t(dims[1]);
  a.array.depth = uint32_t(dims[2]);
  if (a.surface) a.array.flags = tex::kArraySurfaceLoadStore;
  const uint64_t bytes = std::max<uint64_t>(dims[0], 1) * std::max<uint64_t>(dims[1], 1) *
                         std::max<uint64_t>(dims[2], 1) * a.array.format.bytes();
  if (bytes > kMaxArrayBytes) bad(index, text, fmt::format("more than {} bytes", kMaxArrayBytes));
  const std::string& source = parts[2];
  if (source == "zero") {
    a.texels.assign(bytes, 0);
  } else if (source.rfind("rand=", 0) == 0) {
    const auto seed = number(source.substr(5));
    if (!seed) bad(index, text, "expected rand=SEED");
    std::mt19937_64 rng(*seed);
    a.texels.resize(bytes);
    for (uint64_t i = 0; i < bytes; i += 8) {
      const uint64_t word = rng();
      std::memcpy(a.texels.data() + i, &word, std::min<uint64_t>(8, bytes - i));
    }
  } else if (source.rfind("in=", 0) == 0) {
    const auto data = read_text_file(source.substr(3));
    if (!data) bad(index, text, "cannot read '" + source.substr(3) + "'");
    if (data->size() != bytes)
      bad(index, text,
          fmt::format("'{}' has {} bytes; the array's texels take {}", source.substr(3),
                      data->size(), bytes));
    a.texels.assign(data->begin(), data->end());
  } else {
    bad(index, text, "'" + source + "' is not a source: in=FILE, rand=SEED or zero");
  }
  if (parts.size() == 4) {
    for (const std::string& mode : split(parts[3], ',')) {
      static const char* const kModes[] = {"wrap", "clamp", "mirror", "border"};
      bool address = false;
      for (int m = 0; m < 4; ++m) {
        if (mode != kModes[m]) continue;
        a.sampler.address = {tex::AddressMode(m), tex::AddressMode(m), tex::AddressMode(m)};
        address = true;
      }
      if (address) continue;
      if (mode == "linear") {
        a.sampler.filter = tex::FilterMode::Linear;
      } else if (mode == "normalized") {
        a.sampler.normalized_coords = true;
      } else if (mode == "nread") {
        a.sampler.normalized_read = true;
      } else {
        bad(index, text,
            "unknown mode '" + mode +
                "': wrap, clamp, mirror, border, linear, normalized or nread");
      }
    }
  }
  return a;
}

}  // namespace gpusoc::platform
