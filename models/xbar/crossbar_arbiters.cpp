// The crossbar arbiters, chosen by name: "rr" (round-robin per output over inputs' oldest
// packets) and "islip" (McKeown's iSLIP over virtual output queues). Both work on the sparse
// request list, so a cycle costs O(requests), and allocate nothing after construction.
#include <memory>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/xbar/crossbar.h"

namespace gpusoc::xbar {
namespace {

constexpr uint32_t kNone = CrossbarArbiter::kNone;

// How far `index` lies past the priority pointer, cyclically among `n` ports.
inline uint32_t distance(uint32_t index, uint32_t pointer, uint32_t n) {
  return index >= pointer ? index - pointer : index + n - pointer;
}
inline uint32_t past(uint32_t index, uint32_t n) {
  return index + 1 == n ? 0 : index + 1;
}

// Keeps, per output, the requesting input nearest its priority pointer: the grant step both
// arbiters share. `best` is kNone everywhere between calls; `touched` lists what was set.
class OutputGrants {
 public:
  OutputGrants(uint32_t inputs, uint32_t outputs) : inputs_(inputs), best_(outputs, kNone) {
    touched_.reserve(outputs);
  }
  void offer(uint32_t input, uint32_t output, uint32_t pointer) {
    uint32_t& best = best_[output];
    if (best == kNone) {
      touched_.push_back(output);
      best = input;
    } else if (distance(input, pointer, inputs_) < distance(best, pointer, inputs_)) {
      best = input;
    }
  }
  const std::vector<uint32_t>& outputs() const { return touched_; }
  uint32_t best(uint32_t output) const { return best_[output]; }
  void clear() {
    for (uint32_t o : touched_) best_[o] = kNone;
    touched_.clear();
  }

 private:
  uint32_t inputs_;
  std::vector<uint32_t> best_;
  std::vector<uint32_t> touched_;
};

// Each output grants the requesting input at or after its pointer, which then moves one past
// the granted input. Inputs offer one packet each, so every grant is a match.
class RoundRobinArbiter final : public CrossbarArbiter {
 public:
  RoundRobinArbiter(uint32_t inputs, uint32_t outputs)
      : inputs_(inputs), pointer_(outputs, 0), grants_(inputs, outputs) {}
  const char* name() const override { return "rr"; }
  void match_requests(const std::vector<CrossbarRequest>& requests,
                      std::vector<CrossbarRequest>& granted) override {
    for (const CrossbarRequest& r : requests) grants_.offer(r.input, r.output, pointer_[r.output]);
    for (uint32_t o : grants_.outputs()) {
      const uint32_t i = grants_.best(o);
      granted.push_back({i, o});
      pointer_[o] = past(i, inputs_);
    }
    grants_.clear();
  }

 private:
  uint32_t inputs_;
  std::vector<uint32_t> pointer_;
  OutputGrants grants_;
};

// iSLIP (McKeown, IEEE/ACM ToN 1999): each iteration, every unmatched output grants the
// unmatched input nearest its grant pointer among those requesting it, and every input
// receiving grants accepts the output nearest its accept pointer. Pointers move one past the
// matched partner only for matches accepted in the first iteration, which is what
// desynchronizes them and gives 100% throughput under uniform load.
class IslipArbiter final : public CrossbarArbiter {
 public:
  IslipArbiter(uint32_t inputs, uint32_t outputs, uint32_t iterations)
      : inputs_(inputs),
        outputs_(outputs),
        iterations_(iterations),
        grant_pointer_(outputs, 0),
        accept_pointer_(inputs, 0),
        input_matched_(inputs, 0),
        output_matched_(outputs, 0),
        accepted_(inputs, kNone),
        grants_(inputs, outputs) {
    accepting_.reserve(inputs);
  }
  const char* name() const override { return "islip"; }
  bool virtual_output_queues() const override { return true; }

  void match_requests(const std::vector<CrossbarRequest>& requests,
                      std::vector<CrossbarRequest>& granted) override {
    const size_t first = granted.size();
    for (uint32_t iteration = 0; iteration < iterations_; ++iteration) {
      for (const CrossbarRequest& r : requests) {
        if (!input_matched_[r.input] && !output_matched_[r.output]) {
          grants_.offer(r.input, r.output, grant_pointer_[r.output]);
        }
      }
      if (grants_.outputs().empty()) break;
      for (uint32_t o : grants_.outputs()) accept(grants_.best(o), o);
      grants_.clear();
      for (uint32_t i : accepting_) {
        const uint32_t o = accepted_[i];
        accepted_[i] = kNone;
        input_matched_[i] = output_matched_[o] = 1;
        granted.push_back({i, o});
        if (iteration == 0) {
          grant_pointer_[o] = past(i, inputs_);
          accept_pointer_[i] = past(o, outputs_);
        }
      }
      accepting_.clear();
    }
    for (size_t k = first; k < granted.size(); ++k) {
      input_matched_[granted[k].input] = output_matched_[granted[k].output] = 0;
    }
  }

 private:
  void accept(uint32_t input, uint32_t output) {
    uint32_t& choice = accepted_[input];
    if (choice == kNone) {
      accepting_.push_back(input);
      choice = output;
    } else if (distance(output, accept_pointer_[input], outputs_) <
               distance(choice, accept_pointer_[input], outputs_)) {
      choice = output;
    }
  }

  uint32_t inputs_, outputs_, iterations_;
  std::vector<uint32_t> grant_pointer_, accept_pointer_;
  std::vector<uint8_t> input_matched_, output_matched_;
  std::vector<uint32_t> accepted_;   // per input: the grant it accepts so far, or kNone
  std::vector<uint32_t> accepting_;  // inputs with a grant this iteration
  OutputGrants grants_;
};

const Param<uint32_t> kIslipIterations{
    "xbar.islip_iterations", 1, "",
    "request-grant-accept iterations per cycle of the islip arbiter", Range{1, 64}};

constexpr ArbiterRegistry::Entry kRoundRobin{
    "rr", "round-robin per output over each input's oldest packet, with head-of-line blocking",
    [](const PolicySettings&, uint32_t inputs,
       uint32_t outputs) -> std::unique_ptr<CrossbarArbiter> {
      return std::make_unique<RoundRobinArbiter>(inputs, outputs);
    }};
constexpr ArbiterRegistry::Entry kIslip{"islip",
                                        "iSLIP over virtual output queues",
                                        [](const PolicySettings& settings, uint32_t inputs,
                                           uint32_t outputs) -> std::unique_ptr<CrossbarArbiter> {
                                          return std::make_unique<IslipArbiter>(
                                              inputs, outputs, settings.get(kIslipIterations));
                                        },
                                        {&kIslipIterations}};

}  // namespace

ArbiterRegistry& crossbar_arbiters() {
  static ArbiterRegistry registry("xbar.arbiter", "crossbar arbiter", {kRoundRobin, kIslip});
  return registry;
}

void CrossbarArbiter::match(const std::vector<uint32_t>& wants, const std::vector<uint8_t>& free,
                            std::vector<uint32_t>& grant) {
  std::vector<CrossbarRequest> requests;
  for (uint32_t i = 0; i < wants.size(); ++i) {
    if (wants[i] != kNone && free[wants[i]]) requests.push_back({i, wants[i]});
  }
  std::vector<CrossbarRequest> granted;
  match_requests(requests, granted);
  grant.assign(wants.size(), kNone);
  for (const CrossbarRequest& g : granted) grant[g.input] = g.output;
}

}  // namespace gpusoc::xbar
