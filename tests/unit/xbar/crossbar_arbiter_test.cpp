// The arbiters by hand: round-robin's pointer moving past each winner, and iSLIP's pointers
// desynchronizing under full load (1, 2, 3, then 4 matches per cycle on a 4x4 switch with
// every input requesting every output), moving only for first-iteration matches.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "models/common/error.h"
#include "models/xbar/crossbar.h"

namespace gpusoc::xbar {
namespace {

constexpr uint32_t kNone = CrossbarArbiter::kNone;
using Matching = std::vector<std::pair<uint32_t, uint32_t>>;

std::unique_ptr<CrossbarArbiter> arbiter(const std::string& name, uint32_t n,
                                         uint32_t iterations = 1) {
  PolicyChoice choice(name);
  if (name == "islip") choice.settings.set("xbar.islip_iterations", iterations);  // its own
  return crossbar_arbiters().make(choice, n, n);
}

// One cycle of a switch where every input requests every output, as sorted (input, output).
Matching all_request_all(CrossbarArbiter& a, uint32_t n) {
  std::vector<CrossbarRequest> requests, granted;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t o = 0; o < n; ++o) requests.push_back({i, o});
  }
  a.match_requests(requests, granted);
  Matching m;
  for (const CrossbarRequest& g : granted) m.emplace_back(g.input, g.output);
  std::sort(m.begin(), m.end());
  return m;
}

TEST(CrossbarArbiter, RoundRobinMovesEachOutputsPointerPastItsWinner) {
  auto rr = arbiter("rr", 4);
  EXPECT_STREQ(rr->name(), "rr");
  EXPECT_FALSE(rr->virtual_output_queues());
  const std::vector<uint32_t> wants{0, 0, 1, kNone};
  const std::vector<uint8_t> free{1, 1, 1, 1};
  std::vector<uint32_t> grant;
  rr->match(wants, free, grant);
  EXPECT_EQ(grant, (std::vector<uint32_t>{0, kNone, 1, kNone}));  // pointers at 0
  rr->match(wants, free, grant);
  EXPECT_EQ(grant, (std::vector<uint32_t>{kNone, 0, 1, kNone}));  // output 0's pointer at 1
  rr->match(wants, free, grant);
  EXPECT_EQ(grant, (std::vector<uint32_t>{0, kNone, 1, kNone}));  // at 2: wraps to input 0
  rr->match(wants, std::vector<uint8_t>{0, 1, 1, 1}, grant);      // output 0 not free
  EXPECT_EQ(grant, (std::vector<uint32_t>{kNone, kNone, 1, kNone}));
}

TEST(CrossbarArbiter, IslipPointersDesynchronizeIntoAFullMatching) {
  auto islip = arbiter("islip", 4);
  EXPECT_TRUE(islip->virtual_output_queues());
  // Cycle 1: every output grants input 0, which accepts output 0.
  EXPECT_EQ(all_request_all(*islip, 4), (Matching{{0, 0}}));
  // Grant pointers (1,0,0,0), accept pointers (1,0,0,0): output 0 grants input 1, the others
  // input 0, which accepts output 1.
  EXPECT_EQ(all_request_all(*islip, 4), (Matching{{0, 1}, {1, 0}}));
  EXPECT_EQ(all_request_all(*islip, 4), (Matching{{0, 2}, {1, 1}, {2, 0}}));
  for (int cycle = 0; cycle < 8; ++cycle) {
    EXPECT_EQ(all_request_all(*islip, 4).size(), 4u) << "cycle " << cycle + 4;
  }
}

TEST(CrossbarArbiter, IslipMovesPointersOnlyForFirstIterationMatches) {
  auto islip = arbiter("islip", 4, 4);
  // Four iterations find a full matching at once (input k and output k in iteration k + 1)...
  EXPECT_EQ(all_request_all(*islip, 4), (Matching{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
  // ...but only (0, 0) moved pointers: grant (1,0,0,0), accept (1,0,0,0). Iteration 1 gives
  // (0, 1) and (1, 0), then outputs 2 and 3 both grant input 2, which takes 2; input 3 gets 3.
  EXPECT_EQ(all_request_all(*islip, 4), (Matching{{0, 1}, {1, 0}, {2, 2}, {3, 3}}));
}

TEST(CrossbarArbiter, UnknownNamesAreConfigErrorsListingTheKnownOnes) {
  EXPECT_EQ(crossbar_arbiters().names(), (std::vector<std::string>{"rr", "islip"}));
  try {
    arbiter("pim", 2);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("pim"), std::string::npos) << what;
    EXPECT_NE(what.find("rr, islip"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gpusoc::xbar
