// The GPU's counters through the same rules as the emulator's profile (counter_profile.h): the
// kernel's totals become causes without a line, with the numbers ncu measured; occupancy counts
// registers; nothing is said where the counters show nothing lost.
#include <gtest/gtest.h>

#include "grader/insight/counter_profile.h"
#include "grader/insight/insight_rules.h"

namespace {

using cugrade::insight::counter_readings;
namespace problems = cugrade::problems;

const problems::shape reduction_shape{.n = 1 << 20};

counter_readings readings(std::map<std::string, double> sums,
                          std::map<std::string, double> widest = {}) {
  if (widest.empty()) {
    widest = {{"launch__block_size", 256},
              {"launch__grid_size", 4096},
              {"sm__maximum_warps_per_active_cycle_pct", 100},
              {"launch__occupancy_limit_blocks", 32},
              {"launch__occupancy_limit_warps", 8},
              {"launch__occupancy_limit_shared_mem", 32},
              {"launch__occupancy_limit_registers", 8}};
  }
  return {std::move(sums), std::move(widest), 1};
}

std::vector<cugrade::reports::insight> insights_for(const counter_readings& r,
                                                    const problems::shape& s = reduction_shape) {
  const auto& problem = problems::get(problems::kind_named("reduction"));
  return cugrade::insight::insights_of(
      cugrade::insight::profile_from_counters(problem, s, "reduce_convergent", r),
      {"reduction.cu", {}});
}

double metric(const std::vector<cugrade::reports::insight_metric>& ms, const std::string& name) {
  for (const auto& m : ms) {
    if (m.name == name) {
      return m.value;
    }
  }
  ADD_FAILURE() << "no metric " << name;
  return -1;
}

TEST(CounterProfile, StridedGlobalLoadsAreUncoalescedWithoutALine) {
  // 32 lanes of 4 bytes each request, 32 sectors each: one sector per lane.
  const auto r = readings({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1000},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32000},
                           {"sm__sass_data_bytes_mem_global_op_ld.sum", 128000}});
  const auto insights = insights_for(r);
  ASSERT_FALSE(insights.empty());
  EXPECT_EQ(insights.front().kind, "uncoalesced_access");
  EXPECT_TRUE(insights.front().location.empty());
  EXPECT_NE(insights.front().message.find("the kernel's global loads take 32.0 sectors"),
            std::string::npos)
      << insights.front().message;
  EXPECT_NE(insights.front().message.find("4.0 would do"), std::string::npos)
      << insights.front().message;
}

TEST(CounterProfile, ConflictedSharedLoadsAreBankConflicts) {
  const auto r = readings({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 100},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 400},
                           {"sm__sass_data_bytes_mem_global_op_ld.sum", 12800},
                           {"smsp__sass_inst_executed_op_shared_ld.sum", 1000},
                           {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 16000},
                           {"sm__sass_data_bytes_mem_shared_op_ld.sum", 128000}});
  const auto insights = insights_for(r);
  ASSERT_FALSE(insights.empty());
  EXPECT_EQ(insights.front().kind, "bank_conflicts");
  EXPECT_NE(insights.front().message.find("16.0-way"), std::string::npos)
      << insights.front().message;
}

TEST(CounterProfile, SharedWavefrontsAreTheAddressesCountNotTheL1sContention) {
  // A conflict-free store beside a grid-stride loop's loads: L1 counts 1.23 wavefronts a
  // request, the SASS-level count of the addresses 1.0. Without the SASS-level count, L1's.
  std::map<std::string, double> sums{{"smsp__sass_inst_executed_op_shared_st.sum", 1000},
                                     {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 1230},
                                     {"sm__sass_data_bytes_mem_shared_op_st.sum", 128000}};
  const auto& problem = problems::get(problems::kind_named("reduction"));
  const auto per_request = [&](const std::map<std::string, double>& s) {
    const auto m = cugrade::insight::profile_from_counters(problem, reduction_shape,
                                                           "reduce_convergent", readings(s));
    return metric(cugrade::insight::metrics_of(m), "shared_store_wavefronts_per_request");
  };
  EXPECT_DOUBLE_EQ(per_request(sums), 1.23);
  sums["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = 1000;
  EXPECT_DOUBLE_EQ(per_request(sums), 1.0);
}

TEST(CounterProfile, SaysNothingOfIdleLanesItCannotCount) {
  // 4,000 shared instructions carrying 32,000 words could be a quarter of the lanes each, or
  // broadcasts: the counters cannot tell, so no idle-lanes claim and no lanes metric.
  const auto r = readings({{"smsp__sass_inst_executed_op_shared_ld.sum", 4000},
                           {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 4000},
                           {"sm__sass_data_bytes_mem_shared_op_ld.sum", 32000}});
  const auto& problem = problems::get(problems::kind_named("reduction"));
  const auto m =
      cugrade::insight::profile_from_counters(problem, reduction_shape, "reduce_convergent", r);
  for (const auto& mm : cugrade::insight::metrics_of(m)) {
    EXPECT_NE(mm.name, "lanes_per_shared_request");
    EXPECT_NE(mm.name, "shared_requests_per_packed");
  }
  EXPECT_DOUBLE_EQ(metric(cugrade::insight::metrics_of(m), "shared_load_wavefronts_per_request"),
                   1.0);
  EXPECT_TRUE(insights_for(r).empty());
}

TEST(CounterProfile, GlobalAtomicsPerElementFromTheBytesAtomicsAsked) {
  const double n = 1 << 20;
  const auto r = readings({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", n / 32},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", n / 8},
                           {"sm__sass_data_bytes_mem_global_op_ld.sum", n * 4},
                           {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", n / 32},
                           {"sm__sass_data_bytes_mem_global_op_red.sum", n * 4}});
  const auto& problem = problems::get(problems::kind_named("reduction"));
  const auto m =
      cugrade::insight::profile_from_counters(problem, reduction_shape, "reduce_convergent", r);
  EXPECT_DOUBLE_EQ(metric(cugrade::insight::metrics_of(m), "global_atomics_per_element"), 1.0);
  const auto insights = insights_for(r);
  ASSERT_FALSE(insights.empty());
  EXPECT_EQ(insights.front().kind, "global_atomics");
}

TEST(CounterProfile, RegistersCanLimitOccupancy) {
  const auto r = readings({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 100},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 400},
                           {"sm__sass_data_bytes_mem_global_op_ld.sum", 12800}},
                          {{"launch__block_size", 256},
                           {"launch__grid_size", 4096},
                           {"launch__registers_per_thread", 255},
                           {"sm__maximum_warps_per_active_cycle_pct", 12.5},
                           {"launch__occupancy_limit_blocks", 32},
                           {"launch__occupancy_limit_warps", 8},
                           {"launch__occupancy_limit_shared_mem", 32},
                           {"launch__occupancy_limit_registers", 1}});
  const auto insights = insights_for(r);
  ASSERT_EQ(insights.size(), 1u);
  EXPECT_EQ(insights.front().kind, "low_occupancy");
  EXPECT_NE(insights.front().message.find("255 registers per thread"), std::string::npos)
      << insights.front().message;
}

TEST(CounterProfile, CoalescedAndFullyOccupiedSaysNothing) {
  // What the H200 measured for the convergent reference reduction on 2^22 floats.
  const auto r = readings({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 131072},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 524288},
                           {"sm__sass_data_bytes_mem_global_op_ld.sum", 16777216},
                           {"smsp__sass_inst_executed_op_shared_ld.sum", 21648},
                           {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 21648},
                           {"sm__sass_data_bytes_mem_shared_op_ld.sum", 21648 * 128 * 0.8},
                           {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 528},
                           {"sm__sass_data_bytes_mem_global_op_red.sum", 528 * 4}});
  EXPECT_TRUE(insights_for(r, {.n = 1 << 22}).empty());
}

TEST(CounterProfile, TilesNotReusedAreExcessTrafficOfTheKernelsGlobalAccesses) {
  // matmul_tiled at 128^3 with every tile reloaded for each of its 16 steps: 16x the 34,816
  // sectors 16x16 tiles move, every load coalesced.
  const double sectors = 16 * 34816;
  const auto r = readings({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", sectors / 4},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", sectors},
                           {"sm__sass_data_bytes_mem_global_op_ld.sum", sectors * 32}});
  const auto& matmul = problems::get(problems::kind_named("matmul"));
  const problems::shape shape{.j = 128, .k = 128, .l = 128};
  const auto insights = cugrade::insight::insights_of(
      cugrade::insight::profile_from_counters(matmul, shape, "matmul_tiled", r), {"matmul.cu", {}});
  ASSERT_EQ(insights.size(), 1u);
  EXPECT_EQ(insights.front().kind, "excess_traffic");
  EXPECT_TRUE(insights.front().location.empty());
  EXPECT_EQ(insights.front().message.find("matmul_tiled moves 90.7x the minimum global bytes "
                                          "where 16x16 tiles move 5.7x: data loaded"),
            0u)
      << insights.front().message;
  // The same sectors from scattered addresses, the bytes asked for no more than the tiles':
  // uncoalesced, not excess.
  const auto scattered = readings({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 8704},
                                   {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", sectors},
                                   {"sm__sass_data_bytes_mem_global_op_ld.sum", 34816 * 32}});
  const auto told = cugrade::insight::insights_of(
      cugrade::insight::profile_from_counters(matmul, shape, "matmul_tiled", scattered),
      {"matmul.cu", {}});
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told.front().kind, "uncoalesced_access");
}

TEST(CounterProfile, MeasuredOnlyMetricsComeFromTheWidestLaunchAndTheSums) {
  auto r = readings({{"smsp__inst_executed.sum", 1000},
                     {"smsp__thread_inst_executed.sum", 24000},
                     {"dram__bytes_read.sum", 4.0 * (1 << 20)},
                     {"dram__bytes_write.sum", 0},
                     {"gpu__time_duration.sum", 12500}});
  r.widest_launch["sm__warps_active.avg.pct_of_peak_sustained_active"] = 87.5;
  r.widest_launch["launch__registers_per_thread"] = 26;
  const auto& problem = problems::get(problems::kind_named("reduction"));
  const auto ms = cugrade::insight::measured_only_metrics(problem, reduction_shape, r);
  EXPECT_DOUBLE_EQ(metric(ms, "achieved_occupancy"), 0.875);
  EXPECT_DOUBLE_EQ(metric(ms, "registers_per_thread"), 26);
  EXPECT_DOUBLE_EQ(metric(ms, "lanes_per_instruction"), 24);
  EXPECT_DOUBLE_EQ(metric(ms, "kernel_microseconds"), 12.5);
  EXPECT_NEAR(metric(ms, "dram_bytes_per_minimum"), 1.0, 0.01);
}

} // namespace
