// Performance entries (figures, plausibility, speedups), points and the A B B A order.

#include "grader/perf/benchmark_plan.h"
#include "grader/perf/comparison.h"
#include "grader/perf/performance_entries.h"

#include <gtest/gtest.h>

namespace cugrade::perf {
namespace {

roofline::device_roofline h100() {
  roofline::device_roofline r;
  r.device = "H100";
  r.copy_bandwidth_gbps = 3000;
  r.datasheet_bandwidth_gbps = 3352;
  r.fp32_peak_gflops = 66900;
  r.libraries = {{"matmul/2048x2048x2048/real", "cuBLAS SGEMM", 0.4, 50},
                 {"histogram/n=268435456/uniform", "CUB DeviceHistogram::HistogramEven", 0.1, 100}};
  return r;
}

pooled_samples constant(double ms, int n) {
  pooled_samples p;
  p.event_ms.assign(static_cast<std::size_t>(n), ms);
  p.host_ms.assign(static_cast<std::size_t>(n), ms + 0.02);
  p.clock_mhz.assign(static_cast<std::size_t>(n), 1980);
  return p;
}

TEST(AddRooflineFigures, GivesGflopsForMatmulAgainstTheFp32Peak) {
  reports::performance_entry e;
  e.median_ms = 2.0;
  const auto r = h100();
  const problems::test_case tc{
      "c", problems::kind_named("matmul"), {.j = 2048, .k = 2048, .l = 2048}, "real", 1};
  add_roofline_figures(e, problems::kind_named("matmul"), tc, &r);
  ASSERT_TRUE(e.gflops.has_value());
  EXPECT_NEAR(*e.gflops, 2.0 * 2048 * 2048 * 2048 / 2e-3 / 1e9, 1e-6);
  EXPECT_NEAR(*e.roof_percent, 100 * *e.gflops / 66900, 1e-9);
  EXPECT_EQ(e.library_ms, 0.4);
  EXPECT_EQ(e.library_name, "cuBLAS SGEMM");
  EXPECT_FALSE(e.gbps.has_value());
}

TEST(AddRooflineFigures, GivesGbpsForOthersAgainstTheCopyBandwidth) {
  reports::performance_entry e;
  e.median_ms = 0.2;
  const auto r = h100();
  const problems::test_case tc{
      "c", problems::kind_named("histogram"), {.n = 268435456}, "uniform", 1};
  add_roofline_figures(e, problems::kind_named("histogram"), tc, &r);
  ASSERT_TRUE(e.gbps.has_value());
  EXPECT_NEAR(*e.gbps, (268435456.0 + 1024) / 0.2e-3 / 1e9, 1e-6);
  EXPECT_NEAR(*e.roof_percent, 100 * *e.gbps / 3000, 1e-9);
  EXPECT_EQ(e.library_ms, 0.1);
}

TEST(MakeEntry, ReportsStatisticsAndASpeedupWithItsInterval) {
  const auto r = h100();
  const auto ref = constant(2.0, 30);
  entry_source s;
  s.problem = problems::kind_named("histogram");
  s.tc = {"n=268435456/uniform", problems::kind_named("histogram"), {.n = 268435456}, "uniform", 1};
  s.measured = constant(1.0, 40);
  s.reference = &ref;
  s.roof = &r;
  const auto e = make_entry(s);
  EXPECT_EQ(e.shape, "n=268435456");
  EXPECT_EQ(e.samples, 40u);
  EXPECT_EQ(e.median_ms, 1.0);
  EXPECT_EQ(e.reference_ms, 2.0);
  EXPECT_EQ(e.speedup, 2.0);
  EXPECT_EQ(e.speedup_ci_low, 2.0);
  EXPECT_EQ(e.speedup_ci_high, 2.0);
  EXPECT_EQ(e.sm_clock_mhz, 1980);
  EXPECT_FALSE(e.suspicious) << e.note;
}

TEST(MakeEntry, GivesNoSpeedupToATimeBelowTheFloor) {
  const auto r = h100();
  const auto ref = constant(0.1, 30);
  entry_source s;
  s.problem = problems::kind_named("histogram");
  s.tc = {"b", problems::kind_named("histogram"), {.n = 268435456}, "uniform", 1};
  s.measured = constant(0.005, 40); // 268 MB in 5 us would be 54 TB/s
  s.reference = &ref;
  s.roof = &r;
  const auto e = make_entry(s);
  EXPECT_TRUE(e.suspicious);
  EXPECT_FALSE(e.speedup.has_value());
  EXPECT_EQ(e.reference_ms, 0.1);
}

TEST(MakeEntry, SaysWhenTheLauncherWasTimedUngatedButStillRanksIt) {
  const auto r = h100();
  const auto ref = constant(2.0, 30);
  entry_source s;
  s.problem = problems::kind_named("histogram");
  s.tc = {"b", problems::kind_named("histogram"), {.n = 268435456}, "uniform", 1};
  s.measured = constant(2.0, 40);
  s.measured.ungated_note = "the launcher waits on the device inside the call";
  s.reference = &ref;
  s.roof = &r;
  const auto e = make_entry(s);
  EXPECT_FALSE(e.suspicious);
  EXPECT_EQ(e.speedup, 1.0);
  EXPECT_EQ(e.note, "timed ungated: the launcher waits on the device inside the call");
}

// Samples alternating around 1 ms with a relative spread of about `spread`.
pooled_samples spread_around_one(double spread, int n) {
  pooled_samples p = constant(1.0, n);
  for (int i = 0; i < n; ++i) {
    p.event_ms[static_cast<std::size_t>(i)] = i % 2 == 0 ? 1 - spread : 1 + spread;
  }
  return p;
}

TEST(MakeEntry, MarksSamplesThatSpreadMoreThanTheNoiseLimitNoisyAndGivesNoSpeedup) {
  const auto r = h100();
  const auto ref = constant(2.0, 30);
  entry_source s;
  s.problem = problems::kind_named("histogram");
  s.tc = {"b", problems::kind_named("histogram"), {.n = 268435456}, "uniform", 1};
  s.measured = spread_around_one(0.05, 40); // RSD about 5%
  s.reference = &ref;
  s.roof = &r;
  s.noisy_rsd = 0.02;
  const auto e = make_entry(s);
  EXPECT_TRUE(e.noisy);
  EXPECT_FALSE(e.speedup.has_value());
  EXPECT_NE(e.note.find("noisy"), std::string::npos) << e.note;
  s.measured = spread_around_one(0.005, 40); // RSD about 0.5%: fine
  const auto quiet = make_entry(s);
  EXPECT_FALSE(quiet.noisy);
  EXPECT_TRUE(quiet.speedup.has_value());
  s.noisy_rsd = 0; // no rule: never noisy
  s.measured = spread_around_one(0.05, 40);
  EXPECT_FALSE(make_entry(s).noisy);
}

TEST(ScorePerformance, ANoisyEntryEarnsNoMetricAndNoPoints) {
  reports::kernel_report k;
  k.score = 10;
  reports::performance_entry e;
  e.speedup = 1.0;
  e.noisy = true;
  k.performance = {e};
  spec::kernel_spec kernel;
  kernel.performance_points = 5;
  score_performance(k, kernel, spec::performance_curve{});
  EXPECT_FALSE(k.speedup_geomean.has_value());
  EXPECT_EQ(k.performance_score, 0);
  EXPECT_EQ(k.score, 10);
}

TEST(Pool, KeepsTheNoteOfAnUngatedRun) {
  launcher_run gated;
  launcher_run ungated;
  for (auto* run : {&gated, &ungated}) {
    case_run c;
    c.record = protocol::timing_record{};
    c.record->event_ms = {1.0};
    c.record->gated = run == &gated;
    c.record->note = run == &gated ? "" : "waits on the device";
    run->cases.push_back(c);
  }
  EXPECT_EQ(pool({gated, gated}, 0).ungated_note, "");
  const auto p = pool({gated, ungated}, 0);
  EXPECT_EQ(p.ungated_note, "waits on the device");
  EXPECT_EQ(p.event_ms.size(), 2u);
}

reports::kernel_report with_speedups(std::vector<std::optional<double>> speedups) {
  reports::kernel_report k;
  k.score = 15;
  for (const auto& s : speedups) {
    reports::performance_entry e;
    e.speedup = s;
    k.performance.push_back(e);
  }
  return k;
}

TEST(ScorePerformance, UsesTheCurveAtTheGeometricMean) {
  const spec::kernel_spec kernel{"k", 15, 5};
  const spec::performance_curve curve{1.0, 0.5};
  auto k = with_speedups({0.5, 1.125}); // geometric mean 0.75: half way along the curve
  score_performance(k, kernel, curve);
  ASSERT_TRUE(k.speedup_geomean.has_value());
  EXPECT_NEAR(*k.speedup_geomean, 0.75, 1e-12);
  EXPECT_NEAR(k.performance_score, 2.5, 1e-9);
  EXPECT_NEAR(k.score, 17.5, 1e-9);
  auto fast = with_speedups({3.0});
  score_performance(fast, kernel, curve);
  EXPECT_EQ(fast.performance_score, 5);
}

TEST(ScorePerformance, CountsASpeedupWithinTheProtocolsNoiseOfFullAsFull) {
  const spec::kernel_spec kernel{"k", 15, 5};
  auto k = with_speedups({0.985});
  score_performance(k, kernel, {1.0, 0.5});
  EXPECT_EQ(k.performance_score, 5);
  EXPECT_NEAR(*k.speedup_geomean, 0.985, 1e-12); // the metric itself is not rounded
  auto below = with_speedups({0.97});
  score_performance(below, kernel, {1.0, 0.5});
  EXPECT_NEAR(below.performance_score, 5 * 0.94, 1e-9);
}

TEST(ScorePerformance, GivesNothingWhenACaseHasNoSpeedup) {
  auto k = with_speedups({2.0, std::nullopt});
  score_performance(k, {"k", 15, 5}, {1.0, 0.5});
  EXPECT_FALSE(k.speedup_geomean.has_value());
  EXPECT_EQ(k.performance_score, 0);
  EXPECT_EQ(k.score, 15);
}

TEST(RoundOrder, MirrorsEverySecondPair) {
  EXPECT_EQ(round_order(2), (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(round_order(3), (std::vector<bool>{true, false, false, true, true, false}));
}

TEST(BenchmarkPlan, UsesTheDocumentedProtocolAndStableSeeds) {
  const auto t = default_timing_request();
  EXPECT_TRUE(t.enabled);
  EXPECT_EQ(t.warmup_calls, 3);
  EXPECT_EQ(t.warmup_seconds, 0.1);
  EXPECT_EQ(t.min_samples, 20); // 20 samples at RSD 0.3% give an RSE of 0.07% (timing.md)
  EXPECT_EQ(t.min_seconds, 0);
  EXPECT_EQ(t.target_rsd, 0.005);
  EXPECT_EQ(t.target_rse, 0.001);
  EXPECT_EQ(t.max_seconds, 5);
  const auto control = default_control_request();
  EXPECT_EQ(control.min_samples, 10);
  EXPECT_EQ(control.max_seconds, 2);
  EXPECT_EQ(control.target_rsd, t.target_rsd);
  EXPECT_EQ(t.max_samples, 1000);
  EXPECT_EQ(t.throttle_fraction, 0.9);
  EXPECT_EQ(t.input_sets, 4);
  spec::assignment_spec spec;
  spec.problem = problems::kind_named("reduction");
  spec.seed = 5;
  spec.benchmarks = {{{.n = 1000}, "real_offset"}, {{.n = 2000}, "ones"}};
  const auto cases = benchmark_cases(spec);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "n=1000/real_offset");
  EXPECT_EQ(benchmark_cases(spec)[1].seed, cases[1].seed);
  const auto plan = timing_plan(spec.problem, "reduce_convergent", "lib.so", "/tmp/x", cases, t);
  EXPECT_TRUE(plan.timing.enabled);
  EXPECT_EQ(plan.cases.size(), 2u);
  EXPECT_EQ(plan.cases[1].seed, cases[1].seed);
  EXPECT_GT(timing_time_limit(t, 2), 2 * t.max_seconds);
}

} // namespace
} // namespace cugrade::perf
