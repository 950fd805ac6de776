// DramTiming::problem(): the consistency the channel model and the checker rely on.
#include <cmath>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {
namespace {

bool power_of_two(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

}  // namespace

std::string DramTiming::problem() const {
  const std::string where = name.empty() ? std::string("DRAM timing") : name;
  auto bad = [&](const std::string& what) { return where + ": " + what; };
  if (!(tck_ns > 0) || !std::isfinite(tck_ns))
    return bad(fmt::format("tck_ns must be a positive clock period, not {}", tck_ns));
  // Every organization field becomes an address bit field, so each is a power of two.
  const std::pair<const char*, uint32_t> organization[] = {{"ranks", ranks},
                                                           {"bank_groups", bank_groups},
                                                           {"banks_per_group", banks_per_group},
                                                           {"rows", rows},
                                                           {"columns", columns},
                                                           {"bus_bits", bus_bits},
                                                           {"burst_length", burst_length},
                                                           {"beats_per_clock", beats_per_clock}};
  for (const auto& [field, value] : organization) {
    if (!power_of_two(value))
      return bad(fmt::format("{} must be a power of two (and not 0), not {}", field, value));
  }
  if (bus_bits < 8) return bad(fmt::format("bus_bits must be at least 8, not {}", bus_bits));
  if (burst_length % beats_per_clock != 0)
    return bad(fmt::format("burst_length {} is not a multiple of beats_per_clock {}", burst_length,
                           beats_per_clock));
  if (columns % burst_length != 0)
    return bad(
        fmt::format("columns {} is not a multiple of burst_length {}", columns, burst_length));
  const std::pair<const char*, uint32_t> nonzero[] = {
      {"CL", CL},         {"CWL", CWL},       {"tRCD", tRCD}, {"tRP", tRP},    {"tRAS", tRAS},
      {"tCCD_S", tCCD_S}, {"tRRD_S", tRRD_S}, {"tRFC", tRFC}, {"tREFI", tREFI}};
  for (const auto& [field, value] : nonzero) {
    if (value == 0) return bad(fmt::format("{} must be at least 1 cycle", field));
  }
  if (tRC < uint64_t(tRAS) + tRP)
    return bad(fmt::format("tRC {} is less than tRAS + tRP = {}", tRC, uint64_t(tRAS) + tRP));
  // The _L (same bank group) values are the stricter ones: the channel keeps the _S rules in one
  // counter per rank where they are (DramChannel::other_groups_in_rank_).
  const std::tuple<const char*, uint32_t, uint32_t> pairs[] = {
      {"tCCD", tCCD_S, tCCD_L}, {"tRRD", tRRD_S, tRRD_L}, {"tWTR", tWTR_S, tWTR_L}};
  for (const auto& [field, s, l] : pairs) {
    if (l < s) return bad(fmt::format("{}_L {} is less than {}_S {}", field, l, field, s));
  }
  if (tRRD_L > tRC)
    return bad(
        fmt::format("tRRD_L {} exceeds tRC {}: ACTs to other banks would be slower "
                    "than to the same bank",
                    tRRD_L, tRC));
  if (tFAW < tRRD_L) return bad(fmt::format("tFAW {} is less than tRRD_L {}", tFAW, tRRD_L));
  if (tRFCpb > tRFC)
    return bad(fmt::format("tRFCpb {} exceeds the all-bank tRFC {}", tRFCpb, tRFC));
  if (tREFI <= tRFC)
    return bad(
        fmt::format("tREFI {} is not longer than tRFC {}: the device would do nothing "
                    "but refresh",
                    tREFI, tRFC));
  return {};
}

}  // namespace gpusoc::mempart
