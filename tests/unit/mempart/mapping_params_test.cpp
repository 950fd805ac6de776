// memory.mapping.* joined with a DRAM preset: the 8800 GTX's six 64-bit GDDR3 partitions (two x32
// chips each) add up to its 768 MB, and a malformed layout is one error naming its key.
#include <gtest/gtest.h>

#include <string>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/mempart/mapping_params.h"

namespace gpusoc::mempart {
namespace {

TEST(MappingParams, TheTeslaPartitionsAddUpToItsMemory) {
  Config config;
  const DramTiming& gddr3 = dram_preset("GDDR3");
  const AddressMappingConfig m = mapping_from_config(config, gddr3, 6, 2, 0x200000000);
  EXPECT_EQ(m.partitions, 6u);
  EXPECT_EQ(m.channels, 2u);
  EXPECT_EQ(m.interleave_bytes, 256u);
  EXPECT_TRUE(m.xor_hash);
  const std::vector<std::string> layout{"bank_group", "channel", "column", "bank", "row"};
  EXPECT_EQ(m.layout, layout);
  // Each x32 chip is 512 Mbit: banks x rows x (columns x 4 bytes).
  const uint64_t chip_bytes = uint64_t(gddr3.banks()) * gddr3.rows * gddr3.columns * 4;
  EXPECT_EQ(chip_bytes, 64u << 20);
  const AddressMapping mapping(m);
  EXPECT_EQ(mapping.capacity_bytes(), 12 * chip_bytes);  // 768 MB
  EXPECT_EQ(mapping.map(0x200000000 + 256).partition != mapping.map(0x200000000).partition, true);
}

TEST(MappingParams, SettingsReachTheMapping) {
  Config config;
  config.apply_set("memory.mapping.interleave_bytes=512");
  config.apply_set("memory.mapping.xor_hash=false");
  config.apply_set("memory.mapping.layout=column, bank, bank_group, row, channel");
  const AddressMappingConfig m = mapping_from_config(config, dram_preset("HBM2"), 32, 2, 0);
  EXPECT_EQ(m.interleave_bytes, 512u);
  EXPECT_FALSE(m.xor_hash);
  const std::vector<std::string> layout{"column", "bank", "bank_group", "row", "channel"};
  EXPECT_EQ(m.layout, layout);
}

TEST(MappingParams, ASplitLayoutReachesTheMapping) {
  Config config;
  config.apply_set("memory.mapping.layout=channel, column : 1, bank_group, column, bank, row");
  const AddressMappingConfig m = mapping_from_config(config, dram_preset("HBM2"), 32, 2, 0);
  const std::vector<std::string> layout{"channel", "column : 1", "bank_group", "column", "bank",
                                        "row"};
  EXPECT_EQ(m.layout, layout);
  const AddressMapping mapping(m);
  EXPECT_EQ(mapping.map(64).column, 1u);      // the second burst of pseudo-channel 0
  EXPECT_EQ(mapping.map(128).bank_group, 1u);  // then the next bank group
}

TEST(MappingParams, AMalformedLayoutIsOneErrorNamingTheKey) {
  Config config;
  config.apply_set("memory.mapping.layout=column,bank,bank");
  try {
    mapping_from_config(config, dram_preset("GDDR5"), 8, 1, 0);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("memory.mapping.layout"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpusoc::mempart
