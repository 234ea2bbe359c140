// Comparisons between a submission's kernels (kernel_comparison.h): a kernel at least 1.5 times
// the fastest other one on the same backend and shape has its costliest cause lead with the
// comparison; never without a cause, never across backends or shapes.
#include <gtest/gtest.h>

#include "grader/insight/kernel_comparison.h"

namespace {

using cugrade::insight::kernel_time;
using cugrade::reports::backend_kind;

cugrade::reports::kernel_report with_cause(const std::string& name) {
  cugrade::reports::kernel_report k;
  k.name = name;
  k.insights.push_back(
      {"bank_conflicts", "the kernel's shared loads have 2.0-way bank conflicts", "", 0.4});
  k.insights.push_back({"idle_lanes", "the working threads are spread", "", 0.2});
  return k;
}

TEST(KernelComparison, OnTheGpuSaysTheMeasuredTimesInMicroseconds) {
  const std::vector<kernel_time> profiled{
      {"reduce_interleaved", backend_kind::gpu, "n=8388608", 412.3},
      {"reduce_convergent", backend_kind::gpu, "n=8388608", 196.0}};
  auto slow = with_cause("reduce_interleaved");
  auto fast = with_cause("reduce_convergent");
  cugrade::insight::lead_with_comparisons(profiled, {&slow, &fast});
  EXPECT_EQ(slow.insights[0].message,
            "reduce_interleaved takes 2.1x the time of reduce_convergent on the same input (412.3 "
            "against 196.0 microseconds): the kernel's shared loads have 2.0-way bank conflicts");
  EXPECT_EQ(slow.insights[1].message, "the working threads are spread"); // the first only
  EXPECT_EQ(fast.insights[0].message, "the kernel's shared loads have 2.0-way bank conflicts");
}

TEST(KernelComparison, InEmulationSaysModelledMemoryTimeNotTime) {
  const std::vector<kernel_time> profiled{{"a", backend_kind::emu, "n=8", 300},
                                          {"b", backend_kind::emu, "n=8", 100},
                                          {"c", backend_kind::emu, "n=8", 200}};
  const auto lead = cugrade::insight::comparison_lead(profiled[0], profiled);
  ASSERT_TRUE(lead);
  // Against the fastest other kernel, b.
  EXPECT_EQ(*lead, "a's modelled memory time is 3.0x b's on the same input: ");
  EXPECT_EQ(lead->find("takes"), std::string::npos);
}

TEST(KernelComparison, UnderOneAndAHalfTimesSaysNothing) {
  const std::vector<kernel_time> profiled{{"a", backend_kind::gpu, "n=8", 149},
                                          {"b", backend_kind::gpu, "n=8", 100}};
  EXPECT_FALSE(cugrade::insight::comparison_lead(profiled[0], profiled));
  EXPECT_TRUE(cugrade::insight::comparison_lead({"a", backend_kind::gpu, "n=8", 150}, profiled));
  // The fastest kernel is never compared with a slower one.
  EXPECT_FALSE(cugrade::insight::comparison_lead(profiled[1], profiled));
}

TEST(KernelComparison, AKernelWithoutACauseGetsNoComparison) {
  const std::vector<kernel_time> profiled{{"a", backend_kind::gpu, "n=8", 400},
                                          {"b", backend_kind::gpu, "n=8", 100}};
  cugrade::reports::kernel_report a;
  a.name = "a";
  auto b = with_cause("b");
  cugrade::insight::lead_with_comparisons(profiled, {&a, &b});
  EXPECT_TRUE(a.insights.empty());
  EXPECT_EQ(b.insights[0].message, "the kernel's shared loads have 2.0-way bank conflicts");
}

TEST(KernelComparison, OnlyTheSameBackendAndShapeAreCompared) {
  const std::vector<kernel_time> profiled{{"a", backend_kind::gpu, "n=8", 400},
                                          {"b", backend_kind::emu, "n=8", 100},
                                          {"c", backend_kind::gpu, "n=16", 100}};
  EXPECT_FALSE(cugrade::insight::comparison_lead(profiled[0], profiled));
  // Alone on its backend and shape, with nothing measured (0), or alone altogether.
  EXPECT_FALSE(cugrade::insight::comparison_lead({"d", backend_kind::gpu, "n=8", 0}, profiled));
  EXPECT_FALSE(cugrade::insight::comparison_lead(profiled[0], {profiled[0]}));
}

} // namespace
