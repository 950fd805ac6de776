// PCIe link arithmetic: how long transaction layer packets (TLPs) occupy one direction of a link
// and what payload bandwidth remains after line encoding, packet and DLLP overheads. Pure C++ so
// that it is tested against hand-computed values; the endpoint keeps one LinkDirection per
// direction (the link is full duplex) and turns their times into TLM delay annotations.
#pragma once

#include <cstdint>

namespace gpusoc::pcie {

struct LinkParams {
  uint32_t generation = 1;                // 1..5: 2.5, 5, 8, 16, 32 GT/s per lane
  uint32_t lanes = 16;                    // 1, 2, 4, 8 or 16
  uint32_t max_payload_bytes = 128;       // largest TLP payload: 128..4096, a power of two
  uint32_t max_read_request_bytes = 512;  // largest read request: 128..4096, a power of two
  double latency_ns = 250;  // one way: a TLP arrives this long after its last byte was sent
};

class LinkTiming {
 public:
  // Per-TLP bytes on the wire besides the header and payload (data link and physical layers).
  static constexpr uint32_t kSequenceBytes = 2;  // data link layer sequence number
  static constexpr uint32_t kLcrcBytes = 4;      // link CRC
  // Framing: STP and END symbols at 2.5 and 5 GT/s; at 8 GT/s and above the 4-byte STP token,
  // whose other two bytes carry the sequence number (and there is no END).
  static constexpr uint32_t kFramingBytes = 2;
  static constexpr uint32_t kHeader3dw = 12;  // completions; requests below 4 GiB
  static constexpr uint32_t kHeader4dw = 16;  // requests with a 64-bit address
  // DLLPs (8 bytes each with framing) take this share of each direction's symbol time: about one
  // ACK and one UpdateFC per five maximum-size TLPs of 128 bytes. Ordered sets (SKP) are ignored.
  static constexpr double kDllpShare = 0.02;

  /// ConfigError naming the pcie.* key for a value out of range.
  explicit LinkTiming(const LinkParams& params);

  const LinkParams& params() const { return params_; }
  /// Device Control changes what the link carries (max payload, max read request size).
  void set_max_payload(uint32_t bytes);
  void set_max_read_request(uint32_t bytes);

  double gigatransfers_per_s() const;  // per lane
  double encoding_efficiency() const;  // 8/10 for generations 1-2, 128/130 from 3 on
  double raw_bytes_per_ns() const;     // all lanes, after line encoding (= GB/s)
  double tlp_bytes_per_ns() const;     // what remains for TLPs besides DLLPs
  uint32_t tlp_overhead_bytes(uint32_t header_bytes) const;

  /// TLPs needed to carry `bytes` with at most `max_tlp_bytes` each (one for 0 bytes).
  static uint64_t tlp_count(uint64_t bytes, uint32_t max_tlp_bytes);
  /// Time `wire_bytes` occupy one direction.
  double wire_ns(uint64_t wire_bytes) const;
  /// Effective payload bandwidth in one direction (bytes/ns = GB/s) with maximum-payload TLPs
  /// back to back, each with a header of `header_bytes`.
  double payload_bytes_per_ns(uint32_t header_bytes) const;
  double latency_ns() const { return params_.latency_ns; }

  /// Memory request header size for an address: 3 DW below 4 GiB, 4 DW above.
  static uint32_t request_header_bytes(uint64_t address);

 private:
  LinkParams params_;
  double tlp_bytes_per_ns_ = 0;
};

/// One direction of a link: TLPs leave in the order they are sent, each once the one before it
/// has left; times are absolute simulation times in nanoseconds.
class LinkDirection {
 public:
  struct Transfer {
    double start_ns;    // the first TLP starts leaving
    double sent_ns;     // the last TLP has left
    double arrival_ns;  // the last TLP has arrived at the far end
  };

  explicit LinkDirection(const LinkTiming& timing) : timing_(timing) {}

  /// Sends `tlps` TLPs with `header_bytes` headers carrying `payload_bytes` in total, as soon as
  /// they are ready (`ready_ns`) and the direction is free.
  Transfer send(double ready_ns, uint64_t payload_bytes, uint64_t tlps, uint32_t header_bytes);

  double free_ns() const { return free_ns_; }  // when everything accepted has left
  double busy_ns() const { return busy_ns_; }  // total time spent sending
  uint64_t tlps() const { return tlps_; }
  uint64_t payload_bytes() const { return payload_bytes_; }

 private:
  const LinkTiming& timing_;
  double free_ns_ = 0;
  double busy_ns_ = 0;
  uint64_t tlps_ = 0;
  uint64_t payload_bytes_ = 0;
};

}  // namespace gpusoc::pcie
