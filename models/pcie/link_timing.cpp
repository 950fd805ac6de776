#include "models/pcie/link_timing.h"

#include <algorithm>
#include <string>

#include "models/common/error.h"

namespace gpusoc::pcie {
namespace {

constexpr double kGigatransfers[] = {2.5, 5.0, 8.0, 16.0, 32.0};  // per lane, generations 1-5

bool power_of_two(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

void check_tlp_size(const char* key, uint32_t bytes) {
  if (bytes < 128 || bytes > 4096 || !power_of_two(bytes)) {
    throw ConfigError(std::string(key) + " = " + std::to_string(bytes) +
                      ": must be a power of two from 128 to 4096 bytes");
  }
}

}  // namespace

LinkTiming::LinkTiming(const LinkParams& params) : params_(params) {
  if (params.generation < 1 || params.generation > 5) {
    throw ConfigError("pcie.generation = " + std::to_string(params.generation) +
                      ": PCIe generations 1 to 5 are modelled");
  }
  if (params.lanes > 16 || !power_of_two(params.lanes)) {
    throw ConfigError("pcie.lanes = " + std::to_string(params.lanes) +
                      ": a link has 1, 2, 4, 8 or 16 lanes");
  }
  check_tlp_size("pcie.max_payload_bytes", params.max_payload_bytes);
  check_tlp_size("pcie.max_read_request_bytes", params.max_read_request_bytes);
  if (!(params.latency_ns >= 0)) {
    throw ConfigError("pcie.latency_ns = " + std::to_string(params.latency_ns) +
                      ": must not be negative");
  }
  tlp_bytes_per_ns_ = raw_bytes_per_ns() * (1.0 - kDllpShare);
}

void LinkTiming::set_max_payload(uint32_t bytes) {
  check_tlp_size("max payload size", bytes);
  params_.max_payload_bytes = bytes;
}

void LinkTiming::set_max_read_request(uint32_t bytes) {
  check_tlp_size("max read request size", bytes);
  params_.max_read_request_bytes = bytes;
}

double LinkTiming::gigatransfers_per_s() const {
  return kGigatransfers[params_.generation - 1];
}

double LinkTiming::encoding_efficiency() const {
  return params_.generation <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
}

double LinkTiming::raw_bytes_per_ns() const {
  // One transfer carries one bit per lane; GT/s * bits / 8 = bytes per ns.
  return gigatransfers_per_s() * encoding_efficiency() * params_.lanes / 8.0;
}

double LinkTiming::tlp_bytes_per_ns() const {
  return tlp_bytes_per_ns_;
}

uint32_t LinkTiming::tlp_overhead_bytes(uint32_t header_bytes) const {
  return header_bytes + kSequenceBytes + kLcrcBytes + kFramingBytes;
}

uint64_t LinkTiming::tlp_count(uint64_t bytes, uint32_t max_tlp_bytes) {
  return std::max<uint64_t>(1, (bytes + max_tlp_bytes - 1) / max_tlp_bytes);
}

double LinkTiming::wire_ns(uint64_t wire_bytes) const {
  return static_cast<double>(wire_bytes) / tlp_bytes_per_ns_;
}

double LinkTiming::payload_bytes_per_ns(uint32_t header_bytes) const {
  const double payload = params_.max_payload_bytes;
  return tlp_bytes_per_ns_ * payload / (payload + tlp_overhead_bytes(header_bytes));
}

uint32_t LinkTiming::request_header_bytes(uint64_t address) {
  return address >> 32 ? kHeader4dw : kHeader3dw;
}

LinkDirection::Transfer LinkDirection::send(double ready_ns, uint64_t payload_bytes, uint64_t tlps,
                                            uint32_t header_bytes) {
  const double occupancy =
      timing_.wire_ns(payload_bytes + tlps * timing_.tlp_overhead_bytes(header_bytes));
  Transfer t;
  t.start_ns = std::max(ready_ns, free_ns_);
  t.sent_ns = t.start_ns + occupancy;
  t.arrival_ns = t.sent_ns + timing_.latency_ns();
  free_ns_ = t.sent_ns;
  busy_ns_ += occupancy;
  tlps_ += tlps;
  payload_bytes_ += payload_bytes;
  return t;
}

}  // namespace gpusoc::pcie
