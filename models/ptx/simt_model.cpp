// The SIMT models (simt_model.h) and their catalog.
#include "models/ptx/simt_model.h"

#include "models/common/param.h"

namespace gpusoc::ptx {
namespace {

const Param<uint64_t> kDeadlockInstructions{
    "sm.simt_deadlock_instructions", 1000000, "instructions",
    "stack model: warp instructions one path of a warp may run while another path of it waits "
    "without a turn before the launch fails with a SIMT deadlock (0: never)",
    Range{0, 1e15}};

class StackModel : public SimtModel {
 public:
  explicit StackModel(uint64_t deadlock_instructions) : deadlock_(deadlock_instructions) {}
  const char* name() const override { return "stack"; }
  bool yields_on_backward_branch() const override { return false; }
  uint64_t deadlock_instructions() const override { return deadlock_; }

 private:
  uint64_t deadlock_;
};

// Any path may wait for another, which runs when the spinner yields: no deadlock to report.
class IndependentModel : public SimtModel {
 public:
  const char* name() const override { return "independent"; }
  bool yields_on_backward_branch() const override { return true; }
  uint64_t deadlock_instructions() const override { return 0; }
};

constexpr SimtModelRegistry::Entry kStack{
    "stack",
    "reconvergence stack, pre-Volta",
    [](const PolicySettings& settings) -> std::unique_ptr<SimtModel> {
      return std::make_unique<StackModel>(settings.get(kDeadlockInstructions));
    },
    {&kDeadlockInstructions}};
constexpr SimtModelRegistry::Entry kIndependent{
    "independent", "independent thread scheduling, Volta and later",
    [](const PolicySettings&) -> std::unique_ptr<SimtModel> {
      return std::make_unique<IndependentModel>();
    }};

}  // namespace

SimtModelRegistry& simt_models() {
  static SimtModelRegistry registry("sm.simt_model", "SIMT model", {kStack, kIndependent});
  return registry;
}

std::shared_ptr<const SimtModel> make_simt_model(const PolicyChoice& choice) {
  return simt_models().make(choice);
}

std::shared_ptr<const SimtModel> default_simt_model() {
  static const std::shared_ptr<const SimtModel> stack = std::make_shared<StackModel>(0);
  return stack;
}

}  // namespace gpusoc::ptx
