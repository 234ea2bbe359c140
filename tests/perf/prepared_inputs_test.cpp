// Benchmark inputs prepared before a timing runner's gate opens (harness/runner/prepared_inputs.h):
// the same bytes as generated in the hold, every set of every case within the budget, the
// fresh-contents set only where outputs are saved, nothing for a plan that does not time.

#include "harness/protocol/timing.h"
#include "harness/runner/prepared_inputs.h"

#include <gtest/gtest.h>

namespace cugrade::runner {
namespace {

const problems::shape small{.n = 4099};
const problems::shape larger{.n = 9001};

protocol::plan timing_plan(bool save_outputs) {
  protocol::plan p;
  p.problem = problems::kind::histogram;
  p.launcher = "histogram_private";
  p.cases.push_back({"small/uniform", small, "uniform", 7});
  p.cases.push_back({"larger/uniform", larger, "uniform", 8});
  p.timing.enabled = true;
  p.timing.input_sets = 4;
  p.timing.save_outputs = save_outputs;
  return p;
}

problems::test_case case_of(const protocol::plan& p, std::size_t i) {
  const auto& c = p.cases.at(i);
  return {c.name, p.problem, c.dims, c.distribution, c.seed};
}

TEST(PreparedInputs, HoldEverySetOfEveryCaseAsTheHoldWouldGenerateIt) {
  const auto p = timing_plan(true);
  const auto& problem = problems::get(p.problem);
  const auto prepared = prepared_inputs::prepare(problem, p);
  EXPECT_EQ(prepared.sets(), 2u * 5u); // four sets and the fresh-contents set per case
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < p.cases.size(); ++i) {
    const auto tc = case_of(p, i);
    for (int set = 0; set <= 4; ++set) {
      const auto* found = prepared.find(tc, set);
      ASSERT_NE(found, nullptr) << tc.name << " set " << set;
      const auto generated = protocol::input_set_inputs(problem, tc, set, 4);
      ASSERT_EQ(found->size(), generated.size());
      for (std::size_t b = 0; b < generated.size(); ++b) {
        EXPECT_EQ((*found)[b].bytes, generated[b].bytes) << tc.name << " set " << set;
        bytes += generated[b].bytes.size();
      }
    }
    EXPECT_EQ(prepared.find(tc, 5), nullptr);
  }
  EXPECT_EQ(prepared.bytes(), bytes);
}

TEST(PreparedInputs, AControlRoundGetsNoFreshContentsSet) {
  const auto p = timing_plan(false);
  const auto prepared = prepared_inputs::prepare(problems::get(p.problem), p);
  EXPECT_EQ(prepared.sets(), 2u * 4u);
  EXPECT_NE(prepared.find(case_of(p, 0), 3), nullptr);
  EXPECT_EQ(prepared.find(case_of(p, 0), 4), nullptr);
}

TEST(PreparedInputs, StopAtTheBudgetInTheOrderTheRunnerNeedsThem) {
  const auto p = timing_plan(true);
  const auto& problem = problems::get(p.problem);
  const auto one_set = protocol::input_set_inputs(problem, case_of(p, 0), 0, 4)[0].bytes.size();
  const auto prepared = prepared_inputs::prepare(problem, p, 2 * one_set + 1);
  EXPECT_EQ(prepared.sets(), 2u);
  EXPECT_LE(prepared.bytes(), 2 * one_set + 1);
  EXPECT_NE(prepared.find(case_of(p, 0), 0), nullptr);
  EXPECT_NE(prepared.find(case_of(p, 0), 1), nullptr);
  EXPECT_EQ(prepared.find(case_of(p, 0), 2), nullptr);
  EXPECT_EQ(prepared.find(case_of(p, 1), 0), nullptr);
  EXPECT_EQ(prepared_inputs::prepare(problem, p, 0).sets(), 0u);
}

TEST(PreparedInputs, ACaseRepeatedForFurtherLaunchersIsPreparedOnce) {
  auto p = timing_plan(true);
  p.more_launchers = {"histogram_global"};
  const auto once = prepared_inputs::prepare(problems::get(p.problem), p);
  // The runner repeats the cases for each further launcher (runner.cpp); the copies are equal.
  const auto cases = p.cases;
  p.cases.insert(p.cases.end(), cases.begin(), cases.end());
  const auto repeated = prepared_inputs::prepare(problems::get(p.problem), p);
  EXPECT_EQ(repeated.sets(), once.sets());
  EXPECT_EQ(repeated.bytes(), once.bytes());
  EXPECT_NE(repeated.find(case_of(p, 2), 4), nullptr);
}

TEST(PreparedInputs, NothingForAPlanThatDoesNotTime) {
  auto p = timing_plan(true);
  p.timing.enabled = false;
  const auto prepared = prepared_inputs::prepare(problems::get(p.problem), p);
  EXPECT_EQ(prepared.sets(), 0u);
  EXPECT_EQ(prepared.bytes(), 0u);
}

TEST(PreparedInputs, ACaseDiffersBySeedOrShape) {
  const auto p = timing_plan(true);
  const auto prepared = prepared_inputs::prepare(problems::get(p.problem), p);
  auto other_seed = case_of(p, 0);
  other_seed.seed += 1;
  EXPECT_EQ(prepared.find(other_seed, 0), nullptr);
  auto other_shape = case_of(p, 0);
  other_shape.dims.n += 1;
  EXPECT_EQ(prepared.find(other_shape, 0), nullptr);
}

} // namespace
} // namespace cugrade::runner
