// The refresh policies a memory controller chooses by name (memory.controller.refresh), and their
// catalog (models/common/registry.h).
//   all_bank: REF to every bank of a rank at once, every tREFI (JEDEC's default).
//   per_bank: REFpb to one bank at a time, the banks in turn, every tREFI / banks, so that the
//             other banks keep serving (HBM2, GDDR6, LPDDR); the device must have it (tRFCpb).
#include <fmt/format.h>

#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {
namespace {

class AllBankRefresh : public RefreshPolicy {
 public:
  const char* name() const override { return "all_bank"; }
  bool per_bank() const override { return false; }
  uint64_t interval(const DramTiming& t) const override { return t.tREFI; }
};

class PerBankRefresh : public RefreshPolicy {
 public:
  const char* name() const override { return "per_bank"; }
  std::string unsupported(const DramTiming& t) const override {
    return t.tRFCpb == 0 ? fmt::format("{} has no per-bank refresh (tRFCpb 0)", t.name)
                         : std::string();
  }
  bool per_bank() const override { return true; }
  uint64_t interval(const DramTiming& t) const override { return t.tREFI / t.banks(); }
};

constexpr RefreshPolicyRegistry::Entry kAllBank{
    "all_bank", "REF to every bank of a rank every tREFI",
    [](const PolicySettings&) -> std::unique_ptr<RefreshPolicy> {
      return std::make_unique<AllBankRefresh>();
    }};
constexpr RefreshPolicyRegistry::Entry kPerBank{
    "per_bank", "REFpb to one bank at a time, in turn, every tREFI / banks (needs tRFCpb)",
    [](const PolicySettings&) -> std::unique_ptr<RefreshPolicy> {
      return std::make_unique<PerBankRefresh>();
    }};

}  // namespace

RefreshPolicyRegistry& refresh_policies() {
  static RefreshPolicyRegistry registry("memory.controller.refresh", "refresh policy",
                                        {kAllBank, kPerBank});
  return registry;
}

}  // namespace gpusoc::mempart
