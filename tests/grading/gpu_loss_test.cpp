// A GPU that stops working during a grading: the verdicts it may have spoiled are not the
// student's (grader/core/gpu_loss.h), and the probe that asks waits outside other gradings'
// timed windows.
#include "grader/core/gpu_loss.h"

#include "grader/process/device_lock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <vector>

#include <unistd.h>

namespace cugrade::grader {
namespace {

using namespace std::chrono_literals;
using reports::kernel_status;

std::vector<reports::kernel_report> kernels(std::vector<std::pair<std::string, kernel_status>> s) {
  std::vector<reports::kernel_report> out;
  for (auto& [name, status] : s) {
    reports::kernel_report k;
    k.name = name;
    k.status = status;
    out.push_back(k);
  }
  return out;
}

// A probe that counts how often it was asked and answers `why` (empty: the GPU works).
struct fake_probe {
  std::string why;
  int asked = 0;
  std::function<std::string()> fn() {
    return [this] {
      ++asked;
      return why;
    };
  }
};

TEST(GpuLoss, VerdictsTheGpuCannotHaveCausedNeverAskTheGpu) {
  fake_probe dead{"no usable GPU: CUDA can use none"};
  using enum kernel_status;
  const auto out = gpu_lost_during_grading(
      kernels({{"a", passed}, {"b", failed}, {"c", build_error}, {"d", missing}, {"e", forbidden}}),
      dead.fn());
  EXPECT_FALSE(out.has_value());
  EXPECT_EQ(dead.asked, 0);
}

TEST(GpuLoss, AnErrorOnAWorkingGpuStandsAfterOneProbe) {
  fake_probe working{""};
  using enum kernel_status;
  EXPECT_FALSE(gpu_lost_during_grading(kernels({{"a", passed}, {"b", error}}), working.fn()));
  EXPECT_EQ(working.asked, 1);
}

TEST(GpuLoss, ALostGpuNamesTheProbesWordsAndTheKernelsWhoseVerdictsAreDropped) {
  fake_probe dead{"the NVIDIA driver lists 1 GPU but CUDA can use none: a GPU may need a reset"};
  using enum kernel_status;
  const auto out = gpu_lost_during_grading(
      kernels({{"matmul_naive", passed}, {"matmul_tiled", error}, {"matmul_dynamic", timeout}}),
      dead.fn());
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(dead.asked, 1);
  EXPECT_NE(out->find("the GPU stopped working during this grading (the NVIDIA driver lists 1 GPU "
                      "but CUDA can use none"),
            std::string::npos)
      << *out;
  EXPECT_NE(out->find("matmul_tiled (error), matmul_dynamic (timeout)"), std::string::npos) << *out;
  EXPECT_EQ(out->find("matmul_naive"), std::string::npos) << *out;
  EXPECT_NE(out->find("GPU Recovery Action"), std::string::npos) << *out;
}

// While another grading holds the GPU exclusively (its timed window), the probe waits; it runs
// once that grading lets go. This cugrade has no GPU runner, so the probe then fails at once.
TEST(GpuLoss, TheProbeWaitsWhileAnotherGradingTimesOnThatGpu) {
  protocol::device_identity gpu;
  gpu.uuid = "GPU-gpu-loss-test-" + std::to_string(::getpid());
  auto timing = process::device_lock::acquire(gpu.uuid, process::lock_mode::exclusive);
  ASSERT_TRUE(static_cast<bool>(timing)) << timing.error();
  layout l;
  l.bin_dir = ::testing::TempDir() + "/no-runners-here";
  auto probe = std::async(std::launch::async, [&] {
    return probe_gpu_beside_gradings(l, runners::run_context{}, gpu);
  });
  EXPECT_EQ(probe.wait_for(300ms), std::future_status::timeout)
      << "the probe ran inside another grading's exclusive hold";
  { auto released = std::move(*timing); } // the timing grading lets go
  ASSERT_EQ(probe.wait_for(10s), std::future_status::ready);
  const auto probed = probe.get();
  ASSERT_FALSE(static_cast<bool>(probed));
  EXPECT_NE(probed.error().find("built without the GPU backend"), std::string::npos)
      << probed.error();
}

} // namespace
} // namespace cugrade::grader
