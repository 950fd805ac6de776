// Configuration space as enumeration software sees it (PCI Local Bus 3.0 type 0 header, MSI and
// PCI Express capabilities), and the PcieConfig parameters behind it.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/pcie/config_space.h"

namespace gpusoc::pcie {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

// Size of a 64-bit BAR by the classic probe: write all ones to both halves, read back.
uint64_t probe_bar(ConfigSpace& space, uint32_t offset) {
  space.write(offset, 4, 0xFFFF'FFFF);
  space.write(offset + 4, 4, 0xFFFF'FFFF);
  const uint64_t mask = (space.read(offset, 4) & ~0xFu) | uint64_t{space.read(offset + 4, 4)} << 32;
  return ~mask + 1;
}

TEST(ConfigSpaceTest, IdentifiesTheGeForce8800GtxByDefault) {
  const ConfigSpace space(PcieConfig{}, 1 * kMiB);
  EXPECT_EQ(space.read(cfg::VENDOR_ID, 2), 0x10DEu);
  EXPECT_EQ(space.read(cfg::DEVICE_ID, 2), 0x0191u);
  EXPECT_EQ(space.read(cfg::VENDOR_ID, 4), 0x0191'10DEu);
  EXPECT_EQ(space.read(cfg::REVISION_ID, 4) >> 8, 0x030200u);  // 3D controller
  EXPECT_EQ(space.read(cfg::HEADER_TYPE, 1), 0u);              // type 0, single function
  EXPECT_EQ(space.read(cfg::SUBSYSTEM_VENDOR_ID, 2), 0x10DEu);
  EXPECT_TRUE(space.read(cfg::STATUS, 2) & cfg::kStatusCapabilitiesList);
  EXPECT_EQ(space.read(cfg::INTERRUPT_PIN, 1), 1u);  // INTA#
  EXPECT_FALSE(space.memory_space_enabled());
  EXPECT_FALSE(space.bus_master_enabled());
}

TEST(ConfigSpaceTest, IdentityComesFromTheConfiguration) {
  PcieConfig config;
  config.vendor_id = 0x1234;
  config.device_id = 0xABCD;
  config.class_code = 0x030000;
  const ConfigSpace space(config, 1 * kMiB);
  EXPECT_EQ(space.read(cfg::VENDOR_ID, 4), 0xABCD'1234u);
  EXPECT_EQ(space.read(cfg::CLASS_CODE, 1), 0x00u);
  EXPECT_EQ(space.read(cfg::CLASS_CODE + 1, 2), 0x0300u);
}

TEST(ConfigSpaceTest, ReadOnlyFieldsIgnoreWrites) {
  ConfigSpace space(PcieConfig{}, 1 * kMiB);
  space.write(cfg::VENDOR_ID, 4, 0xFFFF'FFFF);
  space.write(cfg::REVISION_ID, 4, 0);
  space.write(cfg::CAPABILITIES_POINTER, 1, 0);
  EXPECT_EQ(space.read(cfg::VENDOR_ID, 4), 0x0191'10DEu);
  EXPECT_EQ(space.read(cfg::REVISION_ID, 4) >> 8, 0x030200u);
  EXPECT_EQ(space.read(cfg::CAPABILITIES_POINTER, 1), cfg::MSI_CAP);
  // Command: only the defined enables stick (I/O space is not implemented).
  space.write(cfg::COMMAND, 2, 0xFFFF);
  EXPECT_EQ(space.read(cfg::COMMAND, 2), 0x0546u);
  EXPECT_TRUE(space.memory_space_enabled());
  EXPECT_TRUE(space.bus_master_enabled());
}

TEST(ConfigSpaceTest, BarSizingByWritingAllOnes) {
  PcieConfig config;
  config.bar1_bytes = 256 * kMiB;
  ConfigSpace space(config, 1 * kMiB);
  EXPECT_EQ(space.read(cfg::BAR0, 4), cfg::kBarMemory64);
  EXPECT_EQ(space.read(cfg::BAR1, 4), cfg::kBarMemory64 | cfg::kBarPrefetchable);
  EXPECT_EQ(probe_bar(space, cfg::BAR0), 1 * kMiB);
  EXPECT_EQ(probe_bar(space, cfg::BAR1), 256 * kMiB);
  EXPECT_EQ(space.read(cfg::BAR0, 4), 0xFFF0'0004u);  // type bits survive the probe
  EXPECT_EQ(space.read(cfg::BAR1, 4), 0xF000'000Cu);
  // Assigning addresses: low bits below the size are dropped.
  space.write(cfg::BAR0, 4, 0x1234'5678);
  space.write(cfg::BAR0 + 4, 4, 0x40);
  EXPECT_EQ(space.bar_address(0), 0x40'1230'0000u);
  space.write(cfg::BAR1, 4, 0x2000'0000);
  space.write(cfg::BAR1 + 4, 4, 0x40);
  EXPECT_EQ(space.bar_address(1), 0x40'2000'0000u);
  // Unused BARs read as zero: nothing to size.
  space.write(0x20, 4, 0xFFFF'FFFF);
  EXPECT_EQ(space.read(0x20, 4), 0u);
}

TEST(ConfigSpaceTest, ApertureOfFourGibibytesAndMore) {
  PcieConfig config;
  config.bar1_bytes = uint64_t{8} << 30;
  ConfigSpace space(config, 1 * kMiB);
  EXPECT_EQ(probe_bar(space, cfg::BAR1), uint64_t{8} << 30);
}

TEST(ConfigSpaceTest, CapabilityListReachesMsiAndPciExpress) {
  PcieConfig config;
  config.link = LinkParams{3, 8, 256, 1024, 250};
  const ConfigSpace space(config, 1 * kMiB);
  uint32_t pointer = space.read(cfg::CAPABILITIES_POINTER, 1);
  ASSERT_EQ(pointer, cfg::MSI_CAP);
  EXPECT_EQ(space.read(pointer, 1), cfg::kCapabilityMsi);
  EXPECT_TRUE(space.read(pointer + 2, 2) & cfg::kMsi64Bit);
  pointer = space.read(pointer + 1, 1);
  ASSERT_EQ(pointer, cfg::PCIE_CAP);
  EXPECT_EQ(space.read(pointer, 1), cfg::kCapabilityPcie);
  EXPECT_EQ(space.read(pointer + 1, 1), 0u);             // end of the list
  EXPECT_EQ(space.read(pointer + 2, 2) & 0xF, 2u);       // capability version 2
  EXPECT_EQ(space.read(pointer + 2, 2) >> 4 & 0xF, 0u);  // PCI Express endpoint
  // Max payload supported 256 (code 1); link 8 GT/s (speed 3) x8; speeds 1-3 supported.
  EXPECT_EQ(space.read(cfg::DEVICE_CAPABILITIES, 4) & 0x7, 1u);
  EXPECT_EQ(space.read(cfg::LINK_CAPABILITIES, 4) & 0x3FF, 3u | 8u << 4);
  EXPECT_EQ(space.read(cfg::LINK_STATUS, 2) & 0x3FF, 3u | 8u << 4);
  EXPECT_EQ(space.read(cfg::LINK_CAPABILITIES_2, 4), 0b1110u);
  // Device Control starts at the configured operating point: MPS 256, MRRS 1024.
  EXPECT_EQ(space.read(cfg::DEVICE_CONTROL, 2) >> 5 & 0x7, 1u);
  EXPECT_EQ(space.read(cfg::DEVICE_CONTROL, 2) >> 12 & 0x7, 3u);
  EXPECT_EQ(space.max_payload_bytes(), 256u);
  EXPECT_EQ(space.max_read_request_bytes(), 1024u);
}

TEST(ConfigSpaceTest, DeviceControlProgramsPayloadSizesWithinWhatIsSupported) {
  PcieConfig config;
  config.link.max_payload_bytes = 256;
  ConfigSpace space(config, 1 * kMiB);
  const uint32_t control = space.read(cfg::DEVICE_CONTROL, 2) & ~(0x7u << 5) & ~(0x7u << 12);
  space.write(cfg::DEVICE_CONTROL, 2, control | 0u << 5 | 5u << 12);  // 128, 4096
  EXPECT_EQ(space.max_payload_bytes(), 128u);
  EXPECT_EQ(space.max_read_request_bytes(), 4096u);
  space.write(cfg::DEVICE_CONTROL, 2, control | 5u << 5);  // 4096: more than supported
  EXPECT_EQ(space.max_payload_bytes(), 256u);
}

// PCI Express Base 6.6.2: an FLR resets the function's registers but not the link's
// (Max_Payload_Size in Device Control, Link Control); a conventional reset resets everything.
TEST(ConfigSpaceTest, AFunctionLevelResetKeepsTheLinksSettingsAConventionalOneDoesNot) {
  ConfigSpace space(PcieConfig{}, 1 * kMiB);
  EXPECT_TRUE(space.read(cfg::DEVICE_CAPABILITIES, 4) & cfg::kDeviceCapabilitiesFlr);
  const uint32_t power_on_control = space.read(cfg::DEVICE_CONTROL, 2);
  const uint32_t programmed = (power_on_control & ~(0x7u << 5) & ~(0x7u << 12)) | 5u << 12;
  space.write(cfg::DEVICE_CONTROL, 2, programmed);  // MPS 128 bytes, MRRS 4096
  space.write(cfg::LINK_CONTROL, 2, 0x0003);        // ASPM L0s and L1
  space.write(cfg::COMMAND, 2, cfg::kCommandMemorySpace | cfg::kCommandBusMaster);
  space.write(cfg::BAR0, 4, 0xE000'0000);
  space.write(cfg::MSI_CONTROL, 2, cfg::kMsiEnable);

  space.reset(/*function_level=*/true);
  EXPECT_EQ(space.read(cfg::COMMAND, 2), 0u);
  EXPECT_EQ(space.bar_address(0), 0u);
  EXPECT_FALSE(space.msi_enabled());
  EXPECT_EQ(space.read(cfg::DEVICE_CONTROL, 2),
            (power_on_control & ~(0x7u << 5)) | (programmed & (0x7u << 5)))
      << "Max_Payload_Size kept, Max_Read_Request_Size back to its reset value";
  EXPECT_EQ(space.read(cfg::LINK_CONTROL, 2), 0x0003u);

  space.reset(/*function_level=*/false);
  EXPECT_EQ(space.read(cfg::DEVICE_CONTROL, 2), power_on_control);
  EXPECT_EQ(space.read(cfg::LINK_CONTROL, 2), 0u);
  EXPECT_EQ(space.read(cfg::VENDOR_ID, 4), 0x0191'10DEu);
}

TEST(ConfigSpaceTest, InitiateFunctionLevelResetIsBit15OfDeviceControlAndReadsZero) {
  const uint32_t bit = cfg::kDeviceControlInitiateFlr;
  EXPECT_TRUE(ConfigSpace::initiates_function_level_reset(cfg::DEVICE_CONTROL, 2, bit));
  EXPECT_TRUE(ConfigSpace::initiates_function_level_reset(cfg::DEVICE_CONTROL, 4, bit));
  EXPECT_TRUE(ConfigSpace::initiates_function_level_reset(cfg::DEVICE_CONTROL + 1, 1, 0x80));
  EXPECT_FALSE(ConfigSpace::initiates_function_level_reset(cfg::DEVICE_CONTROL, 1, 0xFF));
  EXPECT_FALSE(ConfigSpace::initiates_function_level_reset(cfg::DEVICE_CONTROL, 2, 0x7FFF));
  EXPECT_FALSE(ConfigSpace::initiates_function_level_reset(cfg::DEVICE_CAPABILITIES, 4, bit));
  EXPECT_FALSE(
      ConfigSpace::initiates_function_level_reset(cfg::DEVICE_CONTROL + 2, 2, 0xFFFF));  // Status
  ConfigSpace space(PcieConfig{}, 1 * kMiB);
  space.write(cfg::DEVICE_CONTROL, 2, space.read(cfg::DEVICE_CONTROL, 2) | bit);
  EXPECT_FALSE(space.read(cfg::DEVICE_CONTROL, 2) & bit);
}

TEST(ConfigSpaceTest, MsiProgramming) {
  ConfigSpace space(PcieConfig{}, 1 * kMiB);
  space.write(cfg::MSI_ADDRESS_LO, 4, 0xFEE0'0003);  // the low two bits are reserved
  space.write(cfg::MSI_ADDRESS_HI, 4, 0x1);
  space.write(cfg::MSI_DATA, 2, 0x4041);
  EXPECT_FALSE(space.msi_enabled());
  space.write(cfg::MSI_CONTROL, 2, cfg::kMsiEnable);
  EXPECT_TRUE(space.msi_enabled());
  EXPECT_TRUE(space.read(cfg::MSI_CONTROL, 2) & cfg::kMsi64Bit) << "read-only bit kept";
  EXPECT_EQ(space.msi_address(), 0x1'FEE0'0000u);
  EXPECT_EQ(space.msi_data(), 0x4041u);
}

TEST(ConfigSpaceTest, AccessShapes) {
  EXPECT_TRUE(ConfigSpace::valid_access(0x10, 4));
  EXPECT_TRUE(ConfigSpace::valid_access(0x0E, 2));
  EXPECT_TRUE(ConfigSpace::valid_access(0xFFF, 1));
  EXPECT_FALSE(ConfigSpace::valid_access(0x0E, 4));  // misaligned
  EXPECT_FALSE(ConfigSpace::valid_access(0x10, 8));
  EXPECT_FALSE(ConfigSpace::valid_access(0x1000, 4));
}

TEST(PcieConfigTest, DefaultsAreTheGeForce8800Gtx) {
  const PcieConfig c = PcieConfig::from_config(Config{});
  EXPECT_EQ(c.link.generation, 1u);  // PCIe 1.0
  EXPECT_EQ(c.link.lanes, 16u);
  EXPECT_EQ(c.link.max_payload_bytes, 128u);
  EXPECT_EQ(c.link.max_read_request_bytes, 512u);
  EXPECT_EQ(c.link.latency_ns, 250.0);
  EXPECT_EQ(c.max_outstanding_reads, 32u);
  EXPECT_EQ(c.vendor_id, 0x10DEu);
  EXPECT_EQ(c.device_id, 0x0191u);
  EXPECT_EQ(c.class_code, 0x030200u);
  EXPECT_EQ(c.bar1_bytes, 256 * kMiB);
  EXPECT_EQ(c.copy_engines, 2u);
}

TEST(PcieConfigTest, ReadsEveryParameter) {
  Config config;
  config.set("pcie.generation", 4, "test");
  config.set("pcie.lanes", 8, "test");
  config.set("pcie.max_payload_bytes", 512, "test");
  config.set("pcie.max_read_request_bytes", 2048, "test");
  config.set("pcie.latency_ns", 400.0, "test");
  config.set("pcie.max_outstanding_reads", 64, "test");
  config.set("pcie.vendor_id", 0x1AF4, "test");
  config.set("pcie.device_id", 0x1050, "test");
  config.set("pcie.class_code", 0x030000, "test");
  config.set("pcie.bar1_bytes", 512 * kMiB, "test");
  config.set("pcie.copy_engines", 4, "test");
  const PcieConfig c = PcieConfig::from_config(config);
  EXPECT_EQ(c.link.generation, 4u);
  EXPECT_EQ(c.link.lanes, 8u);
  EXPECT_EQ(c.link.max_payload_bytes, 512u);
  EXPECT_EQ(c.link.max_read_request_bytes, 2048u);
  EXPECT_EQ(c.link.latency_ns, 400.0);
  EXPECT_EQ(c.max_outstanding_reads, 64u);
  EXPECT_EQ(c.vendor_id, 0x1AF4u);
  EXPECT_EQ(c.device_id, 0x1050u);
  EXPECT_EQ(c.class_code, 0x030000u);
  EXPECT_EQ(c.bar1_bytes, 512 * kMiB);
  EXPECT_EQ(c.copy_engines, 4u);
}

TEST(PcieConfigTest, BadValuesAreRefusedNamingTheKey) {
  Config config;
  const auto refused = [&](const char* key, const nlohmann::json& value) {
    try {
      config.set(key, value, "test");
    } catch (const ConfigError& e) {
      return std::string(e.what()).find(key) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused("pcie.generation", 6));
  EXPECT_TRUE(refused("pcie.lanes", 12));
  EXPECT_TRUE(refused("pcie.max_payload_bytes", 100));
  EXPECT_TRUE(refused("pcie.max_read_request_bytes", 8192));
  EXPECT_TRUE(refused("pcie.bar1_bytes", 3 * kMiB));
  EXPECT_TRUE(refused("pcie.copy_engines", 0));
  EXPECT_TRUE(refused("pcie.vendor_id", 0xFFFF));
  // The same checks hold for a configuration built in code.
  PcieConfig c;
  c.bar1_bytes = 3 * kMiB;
  EXPECT_THROW(c.validate(), ConfigError);
}

}  // namespace
}  // namespace gpusoc::pcie
