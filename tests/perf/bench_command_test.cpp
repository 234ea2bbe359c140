// `cugrade bench`: the command's options and its refusal without a usable GPU, and the table and
// JSON it prints.

#include "grader/cli/commands.h"
#include "grader/perf/bench.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cugrade::cli {
command bench_command(); // listed in commands.h once the command table has it
}

namespace cugrade::perf {
namespace {

int run_command(std::vector<std::string> args) {
  CLI::App app;
  const auto cmd = cli::bench_command();
  CLI::App* sub = app.add_subcommand(cmd.name, cmd.summary);
  auto run = cmd.define(*sub);
  std::vector<const char*> argv{"cugrade"};
  for (const auto& a : args) {
    argv.push_back(a.c_str());
  }
  app.parse(static_cast<int>(argv.size()), argv.data());
  return run();
}

// This test binary has no GPU runner beside it, so the probe fails: the answer is exit 3 and a
// message, never a crash or a report.
TEST(BenchCommand, ExitsThreeWhenNoGpuRunnerIsUsable) {
  testing::internal::CaptureStderr();
  const int code = run_command({"bench", "histogram", "--format", "table,json"});
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, cli::exit_infrastructure);
  EXPECT_NE(err.find("bench needs a GPU"), std::string::npos) << err;
}

TEST(BenchCommand, RejectsAnUnknownFormat) {
  EXPECT_THROW(run_command({"bench", "histogram", "--format", "csv"}), CLI::ValidationError);
}

TEST(BenchCommand, ExitsTwoForAnUnknownAssignment) {
  testing::internal::CaptureStderr();
  const int code = run_command({"bench", "no-such-assignment"});
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, cli::exit_usage);
}

bench_result sample_result(bool self) {
  bench_result r;
  r.assignment = "histogram";
  r.problem = problems::kind_named("histogram");
  r.device = "NVIDIA H100 80GB HBM3";
  r.self_speedup = self;
  r.reference_library = "/cache/libhistogram.so";
  bench_row row;
  row.kernel = "histogram_privatized";
  row.tc = {
      "n=268435456/uniform", problems::kind_named("histogram"), {.n = 268435456}, "uniform", 77};
  row.entry.shape = "n=268435456";
  row.entry.distribution = "uniform";
  row.entry.median_ms = 0.125;
  row.entry.samples = 1000;
  row.entry.gbps = 2147.5;
  row.entry.roof_percent = 71.6;
  row.entry.library_ms = 0.1;
  row.entry.library_name = "CUB DeviceHistogram::HistogramEven";
  if (self) {
    row.entry.speedup = 1.004;
    row.entry.speedup_ci_low = 0.995;
    row.entry.speedup_ci_high = 1.013;
  }
  row.verified = true;
  r.rows.push_back(row);
  return r;
}

TEST(BenchOutput, TableShowsTimeRateRoofAndLibrary) {
  const auto t = bench_table(sample_result(false));
  for (const char* words : {"histogram_privatized", "n=268435456/uniform", "0.1250", "2147.5 GB/s",
                            "71.6", "0.1000 ms CUB DeviceHistogram::HistogramEven", "yes"}) {
    EXPECT_NE(t.find(words), std::string::npos) << words << "\n" << t;
  }
}

TEST(BenchOutput, JsonCarriesSeedsLibraryAndSelfSpeedups) {
  const auto j = nlohmann::json::parse(bench_json(sample_result(true)));
  EXPECT_EQ(j.at("schema"), "cugrade.bench/1");
  EXPECT_EQ(j.at("mode"), "self-speedup");
  EXPECT_EQ(j.at("reference_library"), "/cache/libhistogram.so");
  EXPECT_TRUE(j.at("all_good").get<bool>());
  const auto& row = j.at("rows").at(0);
  EXPECT_EQ(row.at("seed"), 77u);
  // The plan's shape fields, so a script can time the case again (scripts/gpu-evidence).
  EXPECT_EQ(row.at("dims"), (nlohmann::json{{"j", 0}, {"k", 0}, {"l", 0}, {"n", 268435456}}));
  EXPECT_EQ(row.at("speedup"), 1.004);
  EXPECT_TRUE(row.at("gflops").is_null());
}

TEST(BenchOutput, ASelfSpeedupMoreThanOnePercentFromOneIsNotGood) {
  auto r = sample_result(true);
  EXPECT_TRUE(r.all_good());
  r.rows[0].entry.speedup = 0.995; // within 1.00 +/- 0.01
  EXPECT_TRUE(r.all_good());
  r.rows[0].entry.speedup = 1.015;
  EXPECT_FALSE(r.all_good());
  auto unverified = sample_result(false);
  unverified.rows[0].verified = false;
  EXPECT_FALSE(unverified.all_good());
}

} // namespace
} // namespace cugrade::perf
