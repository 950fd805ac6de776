#include "models/pcie/pcie_config.h"

#include <string>

#include "models/common/error.h"
#include "models/common/param.h"

namespace gpusoc::pcie {
namespace {

using U32 = uint32_t;
using U64 = uint64_t;
constexpr U64 kMiB = U64{1} << 20;
const LinkParams kLinkDefaults{};
const PcieConfig kDefaults{};

const Param<U32> kGeneration{"pcie.generation", kLinkDefaults.generation, "",
                             "PCIe generation of the link: 1 to 5 run at 2.5, 5, 8, 16 and 32 "
                             "GT/s per lane (8b/10b encoding up to 2, 128b/130b from 3)",
                             Range{1, 5}};
const Param<U32> kLanes{"pcie.lanes", kLinkDefaults.lanes, "lanes", "PCIe link width",
                        Range{1, 16}.power_of_two()};
const Param<U32> kMaxPayload{"pcie.max_payload_bytes", kLinkDefaults.max_payload_bytes, "bytes",
                             "maximum TLP payload (Device Control's Max_Payload_Size at reset)",
                             Range{128, 4096}.power_of_two()};
const Param<U32> kMaxReadRequest{"pcie.max_read_request_bytes",
                                 kLinkDefaults.max_read_request_bytes, "bytes",
                                 "largest read request the GPU issues (Device Control's "
                                 "Max_Read_Request_Size at reset); copy engines read in such "
                                 "chunks",
                                 Range{128, 4096}.power_of_two()};
const Param<double> kLatency{"pcie.latency_ns", kLinkDefaults.latency_ns, "ns",
                             "one-way link latency: a TLP arrives this long after its last byte "
                             "left the transmitter (PHY, data link layer, wire)",
                             Range{0, 1e6}};
const Param<U32> kMaxOutstandingReads{
    "pcie.max_outstanding_reads", kDefaults.max_outstanding_reads, "requests",
    "read requests a copy engine keeps in flight (tags)", Range{1, 256}};
const Param<U32> kVendorId{"pcie.vendor_id", kDefaults.vendor_id, "",
                           "PCI vendor ID in configuration space", Range{0, 0xFFFE}};
const Param<U32> kDeviceId{"pcie.device_id", kDefaults.device_id, "",
                           "PCI device ID in configuration space", Range{0, 0xFFFF}};
const Param<U32> kClassCode{"pcie.class_code", kDefaults.class_code, "",
                            "PCI class code (base class, subclass, programming interface)",
                            Range{0, 0xFFFFFF}};
const Param<U64> kBar1Bytes{"pcie.bar1_bytes", kDefaults.bar1_bytes, "bytes",
                            "size of BAR1, the aperture onto VRAM (BAR1_WINDOW selects where)",
                            Range{kMiB, kMiB << 20}.power_of_two()};
const Param<U32> kCopyEngines{"pcie.copy_engines", kDefaults.copy_engines, "engines",
                              "copy engines (DMA engines between host memory and VRAM)",
                              Range{1, 16}};

bool power_of_two(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw ConfigError(message);
}

}  // namespace

PcieConfig PcieConfig::from_config(const Config& config) {
  PcieConfig c;
  c.link.generation = kGeneration.get(config);
  c.link.lanes = kLanes.get(config);
  c.link.max_payload_bytes = kMaxPayload.get(config);
  c.link.max_read_request_bytes = kMaxReadRequest.get(config);
  c.link.latency_ns = kLatency.get(config);
  c.max_outstanding_reads = kMaxOutstandingReads.get(config);
  c.vendor_id = kVendorId.get(config);
  c.device_id = kDeviceId.get(config);
  c.class_code = kClassCode.get(config);
  c.bar1_bytes = kBar1Bytes.get(config);
  c.copy_engines = kCopyEngines.get(config);
  c.validate();
  return c;
}

void PcieConfig::validate() const {
  LinkTiming check(link);
  require(max_outstanding_reads >= 1 && max_outstanding_reads <= 256,
          "pcie.max_outstanding_reads = " + std::to_string(max_outstanding_reads) +
              ": must be 1 to 256");
  require(vendor_id < 0xFFFF, "pcie.vendor_id = " + std::to_string(vendor_id) +
                                  ": must be below 0xFFFF (0xFFFF reads as 'no device')");
  require(device_id <= 0xFFFF,
          "pcie.device_id = " + std::to_string(device_id) + ": must fit 16 bits");
  require(class_code <= 0xFFFFFF,
          "pcie.class_code = " + std::to_string(class_code) + ": must fit 24 bits");
  require(bar1_bytes >= kMiB && power_of_two(bar1_bytes),
          "pcie.bar1_bytes = " + std::to_string(bar1_bytes) +
              ": must be a power of two of at least 1 MiB");
  require(copy_engines >= 1 && copy_engines <= 16,
          "pcie.copy_engines = " + std::to_string(copy_engines) + ": must be 1 to 16");
}

}  // namespace gpusoc::pcie
