// LinkTiming and LinkDirection against values computed by hand from the PCIe specification:
// transfer rate x lanes x line-code efficiency / 8 bits, minus the 2% DLLP share, shared between
// a TLP's payload and its header + sequence number (2) + LCRC (4) + framing (2).
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/pcie/link_timing.h"

namespace gpusoc::pcie {
namespace {

LinkParams link(uint32_t generation, uint32_t lanes, uint32_t payload = 128,
                uint32_t read_request = 512, double latency_ns = 250) {
  return LinkParams{generation, lanes, payload, read_request, latency_ns};
}

TEST(LinkTimingTest, RawBandwidthPerGenerationAfterLineEncoding) {
  // One lane: GT/s * efficiency / 8 bits per byte.
  EXPECT_DOUBLE_EQ(LinkTiming(link(1, 1)).raw_bytes_per_ns(), 2.5 * 0.8 / 8);  // 0.25
  EXPECT_DOUBLE_EQ(LinkTiming(link(2, 1)).raw_bytes_per_ns(), 5.0 * 0.8 / 8);  // 0.5
  EXPECT_NEAR(LinkTiming(link(3, 1)).raw_bytes_per_ns(), 0.984615, 1e-6);      // 8*128/130/8
  EXPECT_NEAR(LinkTiming(link(4, 1)).raw_bytes_per_ns(), 1.969231, 1e-6);
  EXPECT_NEAR(LinkTiming(link(5, 1)).raw_bytes_per_ns(), 3.938462, 1e-6);
  // Lanes multiply: the 8800 GTX's PCIe 1.0 x16 carries 4 GB/s per direction.
  EXPECT_DOUBLE_EQ(LinkTiming(link(1, 16)).raw_bytes_per_ns(), 4.0);
  EXPECT_NEAR(LinkTiming(link(3, 16)).raw_bytes_per_ns(), 15.753846, 1e-6);
  EXPECT_EQ(LinkTiming(link(2, 4)).encoding_efficiency(), 0.8);
  EXPECT_EQ(LinkTiming(link(3, 4)).encoding_efficiency(), 128.0 / 130.0);
}

TEST(LinkTimingTest, EffectivePayloadBandwidthMatchesHandComputedValues) {
  // Gen1 x16, 128-byte payloads, 3 DW completion headers: 3.92 * 128 / 148.
  EXPECT_NEAR(LinkTiming(link(1, 16)).payload_bytes_per_ns(12), 3.390270, 1e-6);
  // Gen1 x16 posted writes with 64-bit addresses: 3.92 * 128 / 152.
  EXPECT_NEAR(LinkTiming(link(1, 16)).payload_bytes_per_ns(16), 3.301053, 1e-6);
  // Gen3 x16, 256-byte payloads, 4 DW headers: 15.753846 * 0.98 * 256 / 280.
  EXPECT_NEAR(LinkTiming(link(3, 16, 256)).payload_bytes_per_ns(16), 14.115446, 1e-6);
  // Gen2 x4, 512-byte payloads, 3 DW: 2.0 * 0.98 * 512 / 532.
  EXPECT_NEAR(LinkTiming(link(2, 4, 512)).payload_bytes_per_ns(12), 1.886316, 1e-6);
  // Bigger payloads amortize the 20-byte overhead.
  EXPECT_LT(LinkTiming(link(1, 16, 128)).payload_bytes_per_ns(12),
            LinkTiming(link(1, 16, 4096)).payload_bytes_per_ns(12));
}

TEST(LinkTimingTest, TlpCountsAndHeaders) {
  EXPECT_EQ(LinkTiming::tlp_count(0, 128), 1u);  // a read request or an empty completion
  EXPECT_EQ(LinkTiming::tlp_count(128, 128), 1u);
  EXPECT_EQ(LinkTiming::tlp_count(129, 128), 2u);
  EXPECT_EQ(LinkTiming::tlp_count(4096, 128), 32u);
  EXPECT_EQ(LinkTiming::request_header_bytes(0xFFFF'FFFF), 12u);
  EXPECT_EQ(LinkTiming::request_header_bytes(0x1'0000'0000), 16u);
  EXPECT_EQ(LinkTiming(link(1, 16)).tlp_overhead_bytes(12), 20u);
  EXPECT_EQ(LinkTiming(link(4, 16)).tlp_overhead_bytes(16), 24u);
}

TEST(LinkTimingTest, DirectionQueuesTlpsAndAddsLatency) {
  const LinkTiming timing(link(1, 16));
  LinkDirection direction(timing);
  const double tlp_ns = 148 / 3.92;  // 128 payload + 20 overhead at 3.92 bytes/ns
  const auto first = direction.send(0, 128, 1, 12);
  EXPECT_DOUBLE_EQ(first.start_ns, 0);
  EXPECT_NEAR(first.sent_ns, tlp_ns, 1e-9);
  EXPECT_NEAR(first.arrival_ns, tlp_ns + 250, 1e-9);
  // Ready before the direction is free: waits its turn.
  const auto second = direction.send(10, 256, 2, 12);
  EXPECT_NEAR(second.start_ns, tlp_ns, 1e-9);
  EXPECT_NEAR(second.sent_ns, 3 * tlp_ns, 1e-9);
  // Ready after it is free: starts at once.
  const auto third = direction.send(1000, 0, 1, 16);
  EXPECT_DOUBLE_EQ(third.start_ns, 1000);
  EXPECT_NEAR(third.sent_ns, 1000 + 24 / 3.92, 1e-9);
  EXPECT_NEAR(direction.busy_ns(), 3 * tlp_ns + 24 / 3.92, 1e-9);
  EXPECT_EQ(direction.tlps(), 4u);
  EXPECT_EQ(direction.payload_bytes(), 384u);
}

TEST(LinkTimingTest, DirectionsAreIndependent) {
  const LinkTiming timing(link(2, 8));
  LinkDirection up(timing);
  LinkDirection down(timing);
  const auto a = up.send(0, 4096, 32, 16);
  const auto b = down.send(0, 4096, 32, 12);
  EXPECT_DOUBLE_EQ(a.start_ns, 0);
  EXPECT_DOUBLE_EQ(b.start_ns, 0);
  // 5 GT/s x8 = 4 * 0.98 = 3.92 bytes/ns: 32 TLPs of 128 + 24 and of 128 + 20.
  EXPECT_NEAR(a.sent_ns, 32 * 152 / 3.92, 1e-9);
  EXPECT_NEAR(b.sent_ns, 32 * 148 / 3.92, 1e-9);
}

TEST(LinkTimingTest, DeviceControlChangesPayloadSizes) {
  LinkTiming timing(link(1, 16, 256, 512));
  timing.set_max_payload(128);
  timing.set_max_read_request(4096);
  EXPECT_EQ(timing.params().max_payload_bytes, 128u);
  EXPECT_EQ(timing.params().max_read_request_bytes, 4096u);
  EXPECT_NEAR(timing.payload_bytes_per_ns(12), 3.390270, 1e-6);
}

TEST(LinkTimingTest, RejectsImpossibleLinksNamingTheKey) {
  const auto message = [](const LinkParams& p) {
    try {
      LinkTiming timing(p);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(link(0, 16)).find("pcie.generation"), std::string::npos);
  EXPECT_NE(message(link(6, 16)).find("pcie.generation"), std::string::npos);
  EXPECT_NE(message(link(1, 3)).find("pcie.lanes"), std::string::npos);
  EXPECT_NE(message(link(1, 32)).find("pcie.lanes"), std::string::npos);
  EXPECT_NE(message(link(1, 16, 64)).find("pcie.max_payload_bytes"), std::string::npos);
  EXPECT_NE(message(link(1, 16, 384)).find("pcie.max_payload_bytes"), std::string::npos);
  EXPECT_NE(message(link(1, 16, 128, 8192)).find("pcie.max_read_request_bytes"), std::string::npos);
  EXPECT_NE(message(link(1, 16, 128, 512, -1)).find("pcie.latency_ns"), std::string::npos);
}

}  // namespace
}  // namespace gpusoc::pcie
