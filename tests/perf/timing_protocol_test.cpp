// What the runner and the grader agree on for timing: plan fields (old plans still read), the
// timing event, input sets and the fresh-contents set, file names, output digests.

#include "grader/process/temp_dir.h"
#include "harness/core/error.h"
#include "harness/protocol/protocol.h"
#include "harness/protocol/timing.h"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::protocol {
namespace {

namespace fs = std::filesystem;

TEST(TimingPlan, RoundTripsEveryField) {
  plan p;
  p.problem = problems::kind_named("reduction");
  p.launcher = "reduce_convergent";
  p.cases.push_back({"bench", {.n = 100}, "real_offset", 7});
  p.timing.enabled = true;
  p.timing.warmup_calls = 5;
  p.timing.target_rse = 0.002;
  p.timing.throttle_fraction = 0.8;
  p.timing.input_sets = 6;
  p.exact_buffers = true;
  p.time_limit_seconds = 12.5;
  const auto back = plan_from_json_text(to_json_text(p));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(back->timing.enabled);
  EXPECT_EQ(back->time_limit_seconds, 12.5);
  EXPECT_EQ(back->timing.warmup_calls, 5);
  EXPECT_EQ(back->timing.target_rse, 0.002);
  EXPECT_EQ(back->timing.throttle_fraction, 0.8);
  EXPECT_EQ(back->timing.input_sets, 6);
  EXPECT_TRUE(back->exact_buffers);
}

TEST(TimingPlan, AnOlderPlanGetsTheDocumentedDefaults) {
  const std::string text = R"({"problem": "histogram", "launcher": "h", "library": "x.so",
    "output_dir": "/tmp", "cases": [], "timing": {"enabled": true, "min_samples": 12}})";
  const auto p = plan_from_json_text(text);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->timing.min_samples, 12);
  EXPECT_EQ(p->timing.warmup_calls, 3);
  EXPECT_EQ(p->timing.target_rsd, 0.005);
  EXPECT_EQ(p->timing.target_rse, 0.001);
  EXPECT_EQ(p->timing.throttle_fraction, 0.9);
  EXPECT_EQ(p->timing.max_samples, 1000);
  EXPECT_EQ(p->timing.max_seconds, 5.0);
  EXPECT_EQ(p->timing.min_seconds, 0.0);
  EXPECT_EQ(p->timing.warmup_seconds, 0.1);
  EXPECT_EQ(p->timing.input_sets, 4);
  EXPECT_TRUE(p->timing.gate_launches);
  EXPECT_TRUE(p->timing.save_outputs); // a plan from before the field saves outputs
  EXPECT_FALSE(p->exact_buffers);
  EXPECT_EQ(p->time_limit_seconds, 0.0); // no watchdog: the grader's limit alone
}

TEST(TimingPlan, CarriesTheGateChoice) {
  plan p;
  p.problem = problems::kind_named("reduction");
  p.launcher = "reduce_convergent";
  p.output_dir = "/tmp";
  p.timing.enabled = true;
  p.timing.gate_launches = false;
  p.timing.save_outputs = false;
  const auto back = plan_from_json_text(to_json_text(p));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_FALSE(back->timing.gate_launches);
  EXPECT_FALSE(back->timing.save_outputs);
}

TEST(SanitizerPlan, CarriesEveryLauncherOfAPassInOrder) {
  plan p;
  p.problem = problems::kind_named("matmul");
  p.launcher = "matmul_naive";
  p.more_launchers = {"matmul_tiled", "matmul_dynamic"};
  p.output_dir = "/tmp";
  const auto back = plan_from_json_text(to_json_text(p));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(plan_launchers(*back),
            (std::vector<std::string>{"matmul_naive", "matmul_tiled", "matmul_dynamic"}));
  const auto older = plan_from_json_text(R"({"problem": "matmul", "launcher": "m",
    "library": "x.so", "output_dir": "/tmp", "cases": []})");
  ASSERT_TRUE(older.ok()) << older.error();
  EXPECT_EQ(plan_launchers(*older), std::vector<std::string>{"m"});
}

TEST(Plan, APlanWithoutItsKindIsRefusedWhenWritten) {
  plan p;
  p.launcher = "matmul_naive";
  p.output_dir = "/tmp";
  EXPECT_THROW((void)to_json_text(p), cugrade::error);
}

TEST(SanitizerPlan, ATimingPlanCarriesItsMoreLaunchers) {
  plan p;
  p.problem = problems::kind_named("matmul");
  p.launcher = "matmul_naive";
  p.more_launchers = {"matmul_tiled"};
  p.output_dir = "/tmp";
  p.timing.enabled = true;
  const auto back = plan_from_json_text(to_json_text(p));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(back->timing.enabled);
  EXPECT_EQ(plan_launchers(*back), (std::vector<std::string>{"matmul_naive", "matmul_tiled"}));
}

TEST(TimingEvent, RoundTripsThroughTheEventLog) {
  const process::temp_dir tmp("cugrade-timing-event");
  const auto& dir = tmp.path();
  timing_record t;
  t.case_index = 1;
  t.event_ms = {1.5, 1.6};
  t.host_ms = {1.55, 1.65};
  t.sm_clock_mhz = {1980, 1975};
  t.sample_sets = {0, 1};
  t.gated = true;
  t.dropped_throttled = 3;
  t.max_sm_clock_mhz = 1980;
  t.warmup_calls = 4;
  t.stop_reason = "rsd";
  t.checks = {{0, 10.5, 12.5, 0, 0, false}, {1, 3, 4, 2, 1, true}};
  t.saved = {{0, "first", "timed-1-set-0-first.bin"}, {4, "fresh", "timed-1-set-4-fresh.bin"}};
  t.input_modified = true;
  t.verified_calls = 2;
  t.note = "n";
  {
    event_writer w(dir / events_file_name);
    w.timing(t);
  }
  const auto log = read_events(dir / events_file_name);
  ASSERT_EQ(log.timings.size(), 1u);
  const auto& r = log.timings[0];
  EXPECT_EQ(r.event_ms, t.event_ms);
  EXPECT_EQ(r.host_ms, t.host_ms);
  EXPECT_EQ(r.sm_clock_mhz, t.sm_clock_mhz);
  EXPECT_EQ(r.sample_sets, t.sample_sets);
  EXPECT_TRUE(r.gated);
  EXPECT_EQ(r.dropped_throttled, 3);
  EXPECT_EQ(r.max_sm_clock_mhz, 1980);
  EXPECT_EQ(r.warmup_calls, 4);
  EXPECT_EQ(r.stop_reason, "rsd");
  EXPECT_EQ(r.checks, t.checks);
  EXPECT_EQ(r.saved, t.saved);
  EXPECT_TRUE(r.input_modified);
  EXPECT_EQ(r.note, "n");
}

TEST(InputSets, AreDistinctAndTheFreshSetIsNegated) {
  const auto& problem = problems::get(problems::kind_named("reduction"));
  const problems::test_case tc{
      "b", problems::kind_named("reduction"), {.n = 1000}, "real_offset", 99};
  const auto set0 = input_set_inputs(problem, tc, 0, 4);
  const auto set1 = input_set_inputs(problem, tc, 1, 4);
  EXPECT_EQ(set0[0].bytes, problem.generate(tc)[0].bytes);
  EXPECT_NE(set0[0].bytes, set1[0].bytes);
  auto plain4 = tc;
  plain4.seed = input_set_seed(tc.seed, 4);
  const auto expected = problem.generate(plain4);
  const auto fresh = input_set_inputs(problem, tc, 4, 4);
  for (std::size_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(fresh[0].as<float>()[i], -expected[0].as<float>()[i]) << "element " << i;
  }
}

TEST(InputSets, NegateOnlyTheFirstFloatInputOfAMatmul) {
  const auto& problem = problems::get(problems::kind_named("matmul"));
  const problems::test_case tc{
      "b", problems::kind_named("matmul"), {.j = 3, .k = 4, .l = 5}, "real", 5};
  auto plain = tc;
  plain.seed = input_set_seed(tc.seed, 2);
  const auto expected = problem.generate(plain);
  const auto fresh = input_set_inputs(problem, tc, 2, 2);
  EXPECT_EQ(fresh[0].as<float>()[0], -expected[0].as<float>()[0]);
  EXPECT_EQ(fresh[1].bytes, expected[1].bytes);
}

// What a runner makes on the device from input_set_recipes is what the grader checks against:
// input_set_inputs, set by set, the fresh set included.
TEST(InputSets, RecipesMakeTheSameInputsEverySetAndOnlyForMatmul) {
  const auto& problem = problems::get(problems::kind_named("matmul"));
  const problems::test_case tc{
      "b", problems::kind_named("matmul"), {.j = 70, .k = 1000, .l = 90}, "real", 5};
  for (int set = 0; set <= 4; ++set) {
    const auto recipes = input_set_recipes(problem, tc, set, 4);
    const auto inputs = input_set_inputs(problem, tc, set, 4);
    ASSERT_TRUE(recipes.has_value());
    ASSERT_EQ(recipes->size(), inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      std::vector<float> made((*recipes)[i].count);
      problems::fill_on_host((*recipes)[i], made);
      ASSERT_EQ(made.size() * sizeof(float), inputs[i].bytes.size());
      EXPECT_EQ(std::memcmp(made.data(), inputs[i].bytes.data(), inputs[i].bytes.size()), 0)
          << "set " << set << " input " << i;
    }
  }
  const problems::test_case r{
      "r", problems::kind_named("reduction"), {.n = 1000}, "real_offset", 99};
  EXPECT_FALSE(input_set_recipes(problems::get(r.problem), r, 0, 4).has_value());
}

TEST(TimedOutputs, NameTheCaseTheSetAndTheRole) {
  EXPECT_EQ(timed_output_file_name(2, 3, output_role::last), "timed-2-set-3-last.bin");
  EXPECT_EQ(output_role_from_string("fresh"), output_role::fresh);
  EXPECT_EQ(output_role_from_string("last"), output_role::last);
  EXPECT_EQ(to_string(output_role::first), "first");
}

TEST(OutputDigest, SumsValuesAndCountsPoisonAndNonFinite) {
  std::vector<std::uint32_t> words{0x3f800000u, 0xc0000000u, problems::output_poison_word,
                                   0x7fc00000u};
  const auto d = digest_of(problems::element_type::f32,
                           reinterpret_cast<const std::byte*>(words.data()), words.size());
  EXPECT_EQ(d.sum, -1.0);
  EXPECT_EQ(d.abs_sum, 3.0);
  EXPECT_EQ(d.poison_words, 1u);
  EXPECT_EQ(d.non_finite, 1u);
  std::vector<std::uint32_t> counts{4, 5, problems::output_poison_word};
  const auto c = digest_of(problems::element_type::u32,
                           reinterpret_cast<const std::byte*>(counts.data()), counts.size());
  EXPECT_EQ(c.sum, 9.0);
  EXPECT_EQ(c.poison_words, 1u);
}

} // namespace
} // namespace cugrade::protocol
