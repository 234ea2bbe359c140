// grade() in process, with the real build, sandbox and emulation runner: every way a grading can
// end (nothing to fetch, nothing to build, a compile error, a missing launcher, a kernel that
// spins, a runner that dies under it) and the order in which it calls its hooks.
#include "grader/core/grade.h"

#include "harness/core/file_io.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace cugrade::grader {
namespace {

namespace fs = std::filesystem;

// reduction.cu with both launchers of the contract; `convergent` is the second one's body.
std::string reduction_source(const std::string& convergent) {
  return R"(#include <cuda_runtime.h>
__global__ void block_sum(const float* in, long n, float* out) {
  __shared__ float partial[128];
  const unsigned t = threadIdx.x;
  float s = 0.0f;
  for (long i = blockIdx.x * 128L + t; i < n; i += 128L * gridDim.x) s += in[i];
  partial[t] = s;
  for (unsigned stride = 64; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) atomicAdd(out, partial[0]);
}
__global__ void spin(volatile int* flag) { while (*flag == 0) { } }
extern "C" void reduce_interleaved(const float* in, long n, float* out) {
  cudaMemset(out, 0, sizeof(float));
  block_sum<<<8, 128>>>(in, n, out);
}
)" + convergent;
}

const std::string convergent_passes =
    R"(extern "C" void reduce_convergent(const float* in, long n, float* out) {
  reduce_interleaved(in, n, out);
}
)";

struct scratch {
  fs::path dir = fs::temp_directory_path() /
                 ("cugrade-grade-paths-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
  scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir / "submission");
  }
  ~scratch() { fs::remove_all(dir); }
  void submit(const std::string& text) const {
    std::ofstream(dir / "submission" / "reduction.cu") << text;
  }
};

layout build_tree_layout(const fs::path& cache) {
  layout l;
  l.root = CUGRADE_SOURCE_DIR;
  l.bin_dir = CUGRADE_BIN_DIR;
  l.lib_dir = CUGRADE_LIB_DIR;
  l.emu_include_dir = l.root / "harness" / "emu" / "include";
  l.cache_dir = cache;
  return l;
}

// The hooks of one grading, in the order they were called.
struct hook_calls {
  std::vector<std::string> calls;
  void install(grade_options& o) {
    o.hooks.reached = [this](grade_stage s) {
      calls.emplace_back(s == grade_stage::fetched ? "fetched" : "built");
    };
    o.hooks.before_runs = [this] {
      calls.emplace_back("before_runs");
      return device_pin{};
    };
    o.hooks.after_runs = [this] { calls.emplace_back("after_runs"); };
  }
};

grade_options options_for(const scratch& s) {
  grade_options o;
  o.assignment = "reduction";
  o.submission = (s.dir / "submission").string();
  o.backend = "emu";
  o.chosen_backend = backend_choice{}; // emulation, no probe
  o.out_dir = s.dir / "reports";
  o.formats = {"json"};
  o.student = "alice";
  return o;
}

const reports::kernel_report& kernel(const grade_outcome& out, const std::string& name) {
  for (const auto& k : out.report->kernels) {
    if (k.name == name) {
      return k;
    }
  }
  throw std::runtime_error("the report has no kernel " + name);
}

// The report written to disk says what the returned one says.
void expect_written(const grade_outcome& out, const scratch& s) {
  auto text = read_file(s.dir / "reports" / "alice.json");
  ASSERT_TRUE(static_cast<bool>(text)) << "no report was written";
  const auto json = nlohmann::json::parse(*text);
  EXPECT_EQ(json.at("gradable").get<bool>(), out.report->gradable);
  EXPECT_EQ(json.at("kernels").size(), out.report->kernels.size());
}

TEST(GradePaths, ASubmissionThatDoesNotExistIsAUsageMistakeAndWritesNothing) {
  scratch s;
  auto o = options_for(s);
  o.submission = (s.dir / "no-such-folder").string();
  hook_calls hooks;
  hooks.install(o);
  const auto out = grade(o, build_tree_layout(s.dir / "cache"));
  EXPECT_EQ(out.exit, grade_exit::usage_error);
  EXPECT_NE(out.error.find("no-such-folder"), std::string::npos) << out.error;
  EXPECT_FALSE(out.report.has_value());
  EXPECT_FALSE(fs::exists(s.dir / "reports" / "alice.json"));
  EXPECT_TRUE(hooks.calls.empty());
}

TEST(GradePaths, AFolderWithoutTheContractFileGivesEveryKernelBuildError) {
  scratch s;
  std::ofstream(s.dir / "submission" / "reduce.cu") << "// the wrong file name\n";
  auto o = options_for(s);
  hook_calls hooks;
  hooks.install(o);
  const auto out = grade(o, build_tree_layout(s.dir / "cache"));
  EXPECT_EQ(out.exit, grade_exit::report_written);
  ASSERT_TRUE(out.report.has_value());
  EXPECT_TRUE(out.report->gradable);
  ASSERT_EQ(out.report->kernels.size(), 2U);
  for (const auto& k : out.report->kernels) {
    EXPECT_EQ(k.status, reports::kernel_status::build_error) << k.name;
    EXPECT_NE(k.message.find("reduction.cu"), std::string::npos) << k.message;
  }
  EXPECT_EQ(out.report->score.value_or(-1), 0.0);
  expect_written(out, s);
  EXPECT_EQ(hooks.calls, (std::vector<std::string>{"fetched"})) << "nothing was built";
}

TEST(GradePaths, ACompileErrorIsBuildErrorAndNoRunnerIsAskedFor) {
  scratch s;
  s.submit(reduction_source(convergent_passes) + "this is not C++\n");
  auto o = options_for(s);
  hook_calls hooks;
  hooks.install(o);
  const auto out = grade(o, build_tree_layout(s.dir / "cache"));
  EXPECT_EQ(out.exit, grade_exit::report_written);
  ASSERT_TRUE(out.report.has_value());
  for (const auto& k : out.report->kernels) {
    EXPECT_EQ(k.status, reports::kernel_status::build_error) << k.name;
  }
  EXPECT_EQ(out.report->build.status, reports::build_status::error);
  EXPECT_NE(out.report->build.log.find("reduction.cu"), std::string::npos) << out.report->build.log;
  expect_written(out, s);
  EXPECT_EQ(hooks.calls, (std::vector<std::string>{"fetched", "built"}));
}

TEST(GradePaths, AMissingLauncherIsMissingAndTheOtherStillPasses) {
  scratch s;
  s.submit(reduction_source("")); // no reduce_convergent
  auto o = options_for(s);
  const auto out = grade(o, build_tree_layout(s.dir / "cache"));
  ASSERT_TRUE(out.report.has_value());
  EXPECT_EQ(kernel(out, "reduce_interleaved").status, reports::kernel_status::passed);
  const auto& missing = kernel(out, "reduce_convergent");
  EXPECT_EQ(missing.status, reports::kernel_status::missing);
  EXPECT_NE(missing.message.find("reduce_convergent"), std::string::npos) << missing.message;
  EXPECT_EQ(missing.score, 0);
  EXPECT_GT(kernel(out, "reduce_interleaved").score, 0);
  expect_written(out, s);
}

TEST(GradePaths, AKernelThatSpinsTimesOutAtItsLimitAndTheOtherStillPasses) {
  scratch s;
  s.submit(reduction_source(R"(extern "C" void reduce_convergent(const float* in, long n, float* out) {
  int* flag = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  spin<<<1, 1>>>(flag);
  cudaDeviceSynchronize();
}
)"));
  auto o = options_for(s);
  o.kernel_timeout_seconds = 2;
  const auto out = grade(o, build_tree_layout(s.dir / "cache"));
  ASSERT_TRUE(out.report.has_value());
  EXPECT_TRUE(out.report->gradable);
  EXPECT_EQ(kernel(out, "reduce_interleaved").status, reports::kernel_status::passed);
  const auto& spun = kernel(out, "reduce_convergent");
  EXPECT_EQ(spun.status, reports::kernel_status::timeout);
  EXPECT_NE(spun.message.find("2"), std::string::npos) << "the limit applied: " << spun.message;
  expect_written(out, s);
}

TEST(GradePaths, APassingGradingCallsEachHookOnceInOrder) {
  scratch s;
  s.submit(reduction_source(convergent_passes));
  auto o = options_for(s);
  hook_calls hooks;
  hooks.install(o);
  const auto out = grade(o, build_tree_layout(s.dir / "cache"));
  ASSERT_TRUE(out.report.has_value());
  for (const auto& k : out.report->kernels) {
    EXPECT_EQ(k.status, reports::kernel_status::passed) << k.name << ": " << k.message;
  }
  EXPECT_EQ(out.report->score.value_or(-1), out.report->max_score);
  // after_runs marks the end of the GPU's timed runs: emulation has none.
  EXPECT_EQ(hooks.calls, (std::vector<std::string>{"fetched", "built", "before_runs"}));
  expect_written(out, s);
}

// The machine fails, not the student: a runner killed under the grading (the OOM killer, a TA's
// kill -9) gives a not-gradable report, never a zero.
TEST(GradePaths, ARunnerThatIsKilledMakesTheGradingNotGradableNotAZero) {
  scratch s;
  s.submit(reduction_source(convergent_passes));
  const fs::path dying = s.dir / "dying-bin";
  fs::create_directories(dying);
  {
    std::ofstream(dying / "cugrade-runner-emu") << "#!/bin/sh\nkill -9 $$\n";
  }
  fs::permissions(dying / "cugrade-runner-emu", fs::perms::owner_all);
  auto l = build_tree_layout(s.dir / "cache");
  l.bin_dir = dying;
  auto o = options_for(s);
  const auto out = grade(o, l);
  ASSERT_TRUE(out.report.has_value());
  expect_written(out, s);
  EXPECT_FALSE(out.report->gradable) << "a killed runner is the machine's fault";
  EXPECT_FALSE(out.report->score.has_value());
  EXPECT_NE(out.report->infrastructure_error.find("runner"), std::string::npos)
      << out.report->infrastructure_error;
}

} // namespace
} // namespace cugrade::grader
