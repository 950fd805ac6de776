// The endpoint's and the copy engine's RegisterSpec tables agree with bar0_map.h, the HW/SW
// contract: every constant has a spec at its offset with the access its comment states, and no
// spec lacks a constant. The expected lists are transcribed from bar0_map.h.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/pcie/bar0_map.h"
#include "models/pcie/copy_engine.h"
#include "models/pcie/pcie_endpoint.h"

namespace gpusoc::pcie {
namespace {

struct Expected {
  uint32_t offset;
  const char* name;
  RegisterAccess access;
};

constexpr auto RO = RegisterAccess::ReadOnly;
constexpr auto RW = RegisterAccess::ReadWrite;
constexpr auto WO = RegisterAccess::WriteOnly;

void expect_agreement(const std::vector<RegisterSpec>& specs, const std::vector<Expected>& expected,
                      uint32_t window) {
  std::map<uint32_t, const RegisterSpec*> by_offset;
  for (const RegisterSpec& spec : specs) {
    EXPECT_TRUE(by_offset.emplace(spec.offset, &spec).second) << spec.name << " duplicated";
    EXPECT_LT(spec.offset, window) << spec.name << " outside the unit's window";
    EXPECT_STRNE(spec.description, "") << spec.name;
  }
  for (const Expected& e : expected) {
    const auto it = by_offset.find(e.offset);
    ASSERT_NE(it, by_offset.end()) << e.name << " has no spec";
    EXPECT_STREQ(it->second->name, e.name);
    EXPECT_EQ(it->second->access, e.access) << e.name;
  }
  EXPECT_EQ(specs.size(), expected.size()) << "a spec without a constant in bar0_map.h";
}

TEST(RegisterMapTest, EndpointRegistersMatchBar0Map) {
  expect_agreement(PcieEndpoint::register_specs(),
                   {{bar0::ID, "ID", RO},
                    {bar0::VERSION, "VERSION", RO},
                    {bar0::VRAM_BASE_LO, "VRAM_BASE_LO", RO},
                    {bar0::VRAM_BASE_HI, "VRAM_BASE_HI", RO},
                    {bar0::VRAM_SIZE_LO, "VRAM_SIZE_LO", RO},
                    {bar0::VRAM_SIZE_HI, "VRAM_SIZE_HI", RO},
                    {bar0::NUM_CHANNELS, "NUM_CHANNELS", RO},
                    {bar0::NUM_COPY_ENGINES, "NUM_COPY_ENGINES", RO},
                    {bar0::TEX_MAX_1D, "TEX_MAX_1D", RO},
                    {bar0::TEX_MAX_LINEAR, "TEX_MAX_LINEAR", RO},
                    {bar0::TEX_MAX_2D_WIDTH, "TEX_MAX_2D_WIDTH", RO},
                    {bar0::TEX_MAX_2D_HEIGHT, "TEX_MAX_2D_HEIGHT", RO},
                    {bar0::TEX_MAX_2D_LINEAR, "TEX_MAX_2D_LINEAR", RO},
                    {bar0::TEX_MAX_3D, "TEX_MAX_3D", RO},
                    {bar0::TEX_MAX_LAYERED, "TEX_MAX_LAYERED", RO},
                    {bar0::TEX_MAX_LAYERS, "TEX_MAX_LAYERS", RO},
                    {bar0::TEX_MAX_CUBE, "TEX_MAX_CUBE", RO},
                    {bar0::TEX_MAX_CUBE_LAYERS, "TEX_MAX_CUBE_LAYERS", RO},
                    {bar0::BAR1_WINDOW_LO, "BAR1_WINDOW_LO", RW},
                    {bar0::BAR1_WINDOW_HI, "BAR1_WINDOW_HI", RW},
                    {bar0::INTR_STATUS, "INTR_STATUS", RO},
                    {bar0::INTR_MASK, "INTR_MASK", RW},
                    {bar0::INTR_CLEAR, "INTR_CLEAR", WO},
                    {bar0::ERROR_STATUS, "ERROR_STATUS", RO},
                    {bar0::ERROR_CLEAR, "ERROR_CLEAR", WO},
                    {bar0::ERROR_OFFSET, "ERROR_OFFSET", RO}},
                   PcieEndpoint::kOwnRegisterBytes);
  EXPECT_EQ(PcieEndpoint::kOwnRegisterBytes, bar0::kCopyEngineBase);
  const RegisterSpec& id = PcieEndpoint::register_specs().front();
  EXPECT_EQ(id.reset, bar0::kId);
}

TEST(RegisterMapTest, CopyEngineRegistersMatchBar0Map) {
  expect_agreement(CopyEngine::register_specs(),
                   {{bar0::CE_STATUS, "CE_STATUS", RO},
                    {bar0::CE_COPIES, "CE_COPIES", RO},
                    {bar0::CE_BYTES_LO, "CE_BYTES_LO", RO},
                    {bar0::CE_BYTES_HI, "CE_BYTES_HI", RO},
                    {bar0::CE_BUSY_NS_LO, "CE_BUSY_NS_LO", RO},
                    {bar0::CE_BUSY_NS_HI, "CE_BUSY_NS_HI", RO}},
                   bar0::kCopyEngineStride);
}

TEST(RegisterMapTest, SixteenCopyEnginesFitBelowTheChannels) {
  EXPECT_LE(bar0::copy_engine_offset(16, 0), bar0::kChannelBase);
}

}  // namespace
}  // namespace gpusoc::pcie
