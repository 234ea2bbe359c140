// Nsight Compute's counters read back (grader/perf/kernel_counters.h): tables ncu 2025.3.1
// wrote on an H200 (tests/perf/data/ncu_*_h200.csv, the references profiled on their profile
// shapes), malformed tables, and the words of a machine that restricts the counters.

#include "grader/perf/kernel_counters.h"
#include "harness/core/file_io.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::perf {
namespace {

namespace fs = std::filesystem;

fs::path data(const std::string& name) {
  return fs::path(CUGRADE_PERF_TEST_DATA) / name;
}

fs::path written(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("cugrade-counters-" + name);
  std::ofstream(p) << text;
  return p;
}

TEST(KernelCounters, ReadsEveryLaunchOfTheCallAndSumsThem) {
  const auto c = read_counters_csv(data("ncu_scan_kogge_stone_h200.csv"));
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->launches.size(), 3u); // the sections, the section sums, the additions
  EXPECT_NE(c->launches[0].kernel.find("kogge_stone_section_scan"), std::string::npos);
  EXPECT_NE(c->launches[2].kernel.find("add_earlier_sections"), std::string::npos);
  // "8,192" + "8" + "10,080": ncu groups thousands with commas.
  EXPECT_DOUBLE_EQ(c->sums().at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                   8192 + 8 + 10080);
  // The widest launch (64 blocks of 1,024) stands for the kernel's configuration.
  ASSERT_NE(c->widest(), nullptr);
  EXPECT_EQ(c->widest(), &c->launches[0]);
  EXPECT_DOUBLE_EQ(c->widest()->values.at("launch__block_size"), 1024);
}

TEST(KernelCounters, ReadsTheSectionedHistogramAsMeasured) {
  const auto c = read_counters_csv(data("ncu_histogram_sectioned_h200.csv"));
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->launches.size(), 1u);
  const auto sums = c->sums();
  EXPECT_DOUBLE_EQ(sums.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 8192);
  EXPECT_DOUBLE_EQ(sums.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 16384);
  EXPECT_DOUBLE_EQ(sums.at("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"), 8192);
  EXPECT_FALSE(sums.contains("no_such_metric.sum")); // a metric no launch has is not summed
}

TEST(KernelCounters, LeavesOutValuesThatAreNotNumbers) {
  const auto p = written("na.csv", "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\","
                                   "\"Metric Value\"\n"
                                   "\"0\",\"k\",\"a.sum\",\"\",\"n/a\"\n"
                                   "\"0\",\"k\",\"b.sum\",\"\",\"1,024.5\"\n");
  const auto c = read_counters_csv(p);
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->launches.size(), 1u);
  EXPECT_FALSE(c->launches[0].values.contains("a.sum"));
  EXPECT_DOUBLE_EQ(c->launches[0].values.at("b.sum"), 1024.5);
  fs::remove(p);
}

TEST(KernelCounters, ATableWithoutNcusColumnsIsAnErrorNamingTheFile) {
  const auto p = written("nocols.csv", "==PROF== Connected to process 1\nnot,a,table\n");
  const auto c = read_counters_csv(p);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().find(p.string()), std::string::npos) << c.error();
  EXPECT_NE(c.error().find("Metric Name"), std::string::npos) << c.error();
  fs::remove(p);
  const auto q = written("badquote.csv", "\"ID\",\"Metric Name\n\"0\",\"x");
  const auto d = read_counters_csv(q);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().find(q.string()), std::string::npos) << d.error();
  fs::remove(q);
}

TEST(KernelCounters, RecognisesCountersRestrictedToAdministrators) {
  const auto text = read_file(data("ncu_restricted.txt"));
  ASSERT_TRUE(text);
  EXPECT_TRUE(counters_restricted(*text));
  EXPECT_FALSE(counters_restricted(*read_file(data("ncu_histogram_sectioned_h200.csv"))));
  // The fix names the driver's setting and NVIDIA's page.
  EXPECT_NE(counters_permission_fix().find("NVreg_RestrictProfilingToAdminUsers=0"),
            std::string::npos);
  EXPECT_NE(counters_permission_fix().find("ERR_NVGPUCTRPERM"), std::string::npos);
}

TEST(KernelCounters, AsksForWhatTheRulesRead) {
  const auto& names = counter_metric_names();
  for (const char* wanted :
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "sm__sass_data_bytes_mem_global_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "launch__occupancy_limit_registers",
        "sm__sass_data_bytes_mem_global_op_red.sum"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), wanted), names.end()) << wanted;
  }
}

} // namespace
} // namespace cugrade::perf
