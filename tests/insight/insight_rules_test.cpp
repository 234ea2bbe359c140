// The insight rules on profiles whose costs are known: a cause is said at its line when it wastes
// at least a tenth of the modelled memory time, causes come costliest first, and a kernel that
// wastes nothing measurable is told nothing.
#include <gtest/gtest.h>

#include "grader/insight/insight_rules.h"

namespace {

using cugrade::insight::memory_profile;
using cugrade::protocol::access_record;
using cugrade::protocol::launch_record;

launch_record launch(std::vector<access_record> accesses, unsigned threads = 256,
                     std::uint64_t shared = 0) {
  return {"k", "k.cu", {64, 1, 1}, {threads, 1, 1}, shared, 0, 0, std::move(accesses)};
}

memory_profile profile_of(const std::vector<launch_record>& launches) {
  const auto& problem = cugrade::problems::get(cugrade::problems::kind_named("reduction"));
  return cugrade::insight::summarise(problem, {.n = 1 << 20}, "k", launches);
}

const cugrade::insight::source_context source{
    "k.cu", {"line one", "  out[i] = in[i * 32]; // strided", "  tile[t][0] += 1;"}};

std::vector<std::string> kinds(const std::vector<cugrade::reports::insight>& insights) {
  std::vector<std::string> out;
  for (const auto& i : insights) {
    out.push_back(i.kind);
  }
  return out;
}

TEST(InsightRules, CoalescedLoadsAndPackedLanesSayNothing) {
  const auto m =
      profile_of({launch({{2, "global", "load", 1000, 4000, 4000, 32000, 128000, 1000},
                          {3, "shared", "load", 1000, 1000, 1000, 32000, 128000, 1000}})});
  EXPECT_TRUE(cugrade::insight::insights_of(m, source).empty());
}

TEST(InsightRules, AStridedLoadIsUncoalescedAtItsLineQuotingIt) {
  const auto m =
      profile_of({launch({{2, "global", "load", 1000, 32000, 4000, 32000, 128000, 1000}})});
  const auto insights = cugrade::insight::insights_of(m, source);
  ASSERT_EQ(kinds(insights), std::vector<std::string>{"uncoalesced_access"});
  EXPECT_EQ(insights[0].location, "k.cu:2");
  EXPECT_NE(insights[0].message.find("32.0 sectors"), std::string::npos) << insights[0].message;
  EXPECT_NE(insights[0].message.find("`out[i] = in[i * 32];`"), std::string::npos)
      << insights[0].message;
  EXPECT_NEAR(insights[0].cost_share, 28000.0 / 32000.0, 1e-9);
}

TEST(InsightRules, CausesComeCostliestFirstAndSmallOnesAreNotSaid) {
  // Of 40,400 units of modelled time: the strided loads waste 28,000, the 16-way conflicts
  // 15,000 x 0.5, and the stores twice their ideal only 400 (under a tenth: not said).
  const auto m = profile_of({launch({{2, "global", "load", 1000, 32000, 4000, 32000, 1, 1000},
                                     {3, "shared", "load", 1000, 16000, 1000, 32000, 1, 1000},
                                     {1, "global", "store", 100, 800, 400, 3200, 1, 100}})});
  const auto insights = cugrade::insight::insights_of(m, source);
  EXPECT_EQ(kinds(insights), (std::vector<std::string>{"uncoalesced_access", "bank_conflicts"}));
  ASSERT_EQ(insights.size(), 2u);
  EXPECT_NEAR(insights[1].cost_share, 7500.0 / 40800.0, 1e-9);
  EXPECT_NE(insights[1].message.find("16.0-way"), std::string::npos) << insights[1].message;
}

TEST(InsightRules, SpreadLanesAreIdleLanesPackedOnesAreNot) {
  const auto spread =
      profile_of({launch({{3, "shared", "load", 4000, 4000, 4000, 32000, 1, 1000}})});
  EXPECT_EQ(kinds(cugrade::insight::insights_of(spread, source)),
            std::vector<std::string>{"idle_lanes"});
  // The same few lanes per request, in the fewest warps they fit (a convergent tree's tail).
  const auto packed =
      profile_of({launch({{3, "shared", "load", 1000, 1000, 1000, 8000, 1, 1000}})});
  EXPECT_TRUE(cugrade::insight::insights_of(packed, source).empty());
}

TEST(InsightRules, GlobalAtomicsWithoutPrivateCopiesAreSaid) {
  // One atomic per element of the 2^20 inputs, none in shared memory.
  const auto m =
      profile_of({launch({{2, "global", "atomic", 32768, 32768, 32768, 1 << 20, 1, 32768},
                          {2, "global", "load", 32768, 131072, 131072, 1 << 20, 1, 32768}})});
  EXPECT_EQ(kinds(cugrade::insight::insights_of(m, source)),
            std::vector<std::string>{"global_atomics"});
  // With a shared copy per block, the global merge is no longer the cause.
  const auto privatised =
      profile_of({launch({{3, "shared", "atomic", 32768, 32768, 32768, 1 << 20, 1, 32768},
                          {2, "global", "atomic", 64, 64, 64, 16384, 1, 64},
                          {2, "global", "load", 32768, 131072, 131072, 1 << 20, 1, 32768}})});
  EXPECT_TRUE(cugrade::insight::insights_of(privatised, source).empty());
}

TEST(InsightRules, SharedMemoryThatLeavesFewWarpsIsLowOccupancy) {
  const auto occupancy = cugrade::insight::occupancy_of(64, 48 * 1024);
  EXPECT_EQ(occupancy.blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(occupancy.fraction, 8.0 / 64);
  EXPECT_EQ(occupancy.limit, cugrade::insight::occupancy_limit::shared_memory);
  const auto m = profile_of({launch({}, 64, 48 * 1024)});
  EXPECT_EQ(kinds(cugrade::insight::insights_of(m, source)),
            std::vector<std::string>{"low_occupancy"});
  EXPECT_EQ(cugrade::insight::occupancy_of(256, 0).fraction, 1.0);
}

// matmul at 128^3 moves at least 196,608 bytes (6,144 sectors); 16x16 tiles move 17/3 of it.
memory_profile matmul_profile(const std::string& kernel, std::uint64_t sectors,
                              std::uint64_t ideal_sectors) {
  const auto& problem = cugrade::problems::get(cugrade::problems::kind_named("matmul"));
  const std::uint64_t requests = ideal_sectors / 4;
  return cugrade::insight::summarise(
      problem, {.j = 128, .k = 128, .l = 128}, kernel,
      {launch({{2, "global", "load", requests, sectors, ideal_sectors, requests * 32, 1, 1}})});
}

constexpr std::uint64_t tiled_sectors = 6144 * 17 / 3; // 34,816

TEST(InsightRules, TilesReloadedForEveryStepAreExcessTraffic) {
  // Every tile loaded 16 times over, each load coalesced: 16x what the tiles move.
  const auto m = matmul_profile("matmul_tiled", 16 * tiled_sectors, 16 * tiled_sectors);
  const auto insights = cugrade::insight::insights_of(m, source);
  ASSERT_EQ(kinds(insights), std::vector<std::string>{"excess_traffic"});
  EXPECT_EQ(insights[0].message.find("matmul_tiled moves 90.7x the minimum global bytes where "
                                     "16x16 tiles move 5.7x, the most by the access at k.cu:2 "
                                     "(`out[i] = in[i * 32];`): data loaded into the tiles is "
                                     "not reused"),
            0u)
      << insights[0].message;
  EXPECT_EQ(insights[0].location, "k.cu:2");
  EXPECT_NEAR(insights[0].cost_share, 15.0 / 16.0, 1e-9);
}

TEST(InsightRules, TrafficUnderTwiceTheTechniquesIsNotExcess) {
  const auto m = matmul_profile("matmul_tiled", tiled_sectors * 19 / 10, tiled_sectors * 19 / 10);
  EXPECT_TRUE(cugrade::insight::insights_of(m, source).empty());
}

TEST(InsightRules, SectorsLostToScatteredAddressesAreNotExcessTraffic) {
  // 16x the tiles' sectors, but the threads asked for no more bytes than the tiles need: the
  // waste is uncoalesced access, said once.
  const auto m = matmul_profile("matmul_tiled", 16 * tiled_sectors, tiled_sectors);
  EXPECT_EQ(kinds(cugrade::insight::insights_of(m, source)),
            std::vector<std::string>{"uncoalesced_access"});
}

TEST(InsightRules, NoExcessTrafficWithoutTheTechniquesTraffic) {
  // A kernel the problem knows nothing of: no expectation, nothing said of its traffic.
  const auto m = matmul_profile("my_matmul", 16 * tiled_sectors, 16 * tiled_sectors);
  EXPECT_FALSE(m.expected);
  EXPECT_TRUE(cugrade::insight::insights_of(m, source).empty());
}

TEST(InsightRules, MetricsSayTheIdealBesideTheValue) {
  const auto m =
      profile_of({launch({{2, "global", "load", 1000, 32000, 4000, 32000, 128000, 1000}})});
  const auto metrics = cugrade::insight::metrics_of(m);
  const auto it = std::find_if(metrics.begin(), metrics.end(), [](const auto& x) {
    return x.name == "global_load_sectors_per_request";
  });
  ASSERT_NE(it, metrics.end());
  EXPECT_DOUBLE_EQ(it->value, 32.0);
  EXPECT_EQ(it->ideal, 4.0);
}

} // namespace
