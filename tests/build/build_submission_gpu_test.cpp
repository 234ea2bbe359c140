// Building with the real nvcc (compiling only: nothing here runs on a GPU). Skipped, with the
// reason, where no CUDA toolkit is installed.

#include "tests/build/build_fixture.h"

using namespace cugrade::build;
using namespace cugrade::build::testing;

namespace {

class BuildSubmissionGpu : public build_test {
protected:
  void SetUp() override {
    m_nvcc = find_nvcc();
    if (!m_nvcc) {
      GTEST_SKIP() << "nvcc not found ($CUDACXX, /usr/local/cuda/bin/nvcc, PATH): the CUDA "
                      "toolkit is needed to test GPU builds";
    }
  }

  build_request gpu_request(const std::string& source_name) {
    build_request request = request_for(source_name, backend::gpu);
    request.tools.nvcc = *m_nvcc;
    return request;
  }

private:
  std::optional<std::filesystem::path> m_nvcc;
};

} // namespace

TEST_F(BuildSubmissionGpu, CompilesACorrectSubmissionWithEveryLauncher) {
  build_request request = gpu_request("matmul_ok.cu");
  request.tools.cuda_archs = {"80", "90"}; // the production architectures, PTX included
  const build_outcome outcome = build(request);
  ASSERT_TRUE(outcome.ok) << outcome.log;
  EXPECT_TRUE(std::filesystem::is_regular_file(outcome.library));
  EXPECT_TRUE(std::filesystem::is_regular_file(outcome.object));
  EXPECT_EQ(outcome.defined_launchers, matmul_launchers);
  EXPECT_TRUE(outcome.missing_launchers.empty());
  EXPECT_TRUE(outcome.forbidden_symbols.empty()) << outcome.forbidden_symbols.front();
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_GT(outcome.seconds, 0.0);
}

TEST_F(BuildSubmissionGpu, CompileErrorGivesATrimmedLogPointingAtTheLine) {
  const build_outcome outcome = build(gpu_request("matmul_compile_error.cu"));
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.log.find("matmul.cu:8: error: identifier \"sum\" is undefined"),
            std::string::npos)
      << outcome.log;
  EXPECT_EQ(outcome.log.find(scratch().string()), std::string::npos) << outcome.log;
  EXPECT_EQ(outcome.log.find("Remark"), std::string::npos) << outcome.log;
  EXPECT_TRUE(outcome.library.empty());
  EXPECT_TRUE(outcome.object.empty());
}

TEST_F(BuildSubmissionGpu, ReportsMissingLaunchersAndCxxLinkage) {
  const build_outcome outcome = build(gpu_request("matmul_linkage.cu"));
  EXPECT_TRUE(outcome.ok) << outcome.log;
  EXPECT_EQ(outcome.defined_launchers, std::vector<std::string>{"matmul_naive"});
  EXPECT_EQ(outcome.missing_launchers,
            (std::vector<std::string>{"matmul_tiled", "matmul_dynamic"}));
  ASSERT_EQ(outcome.notes.size(), 1u);
  EXPECT_TRUE(has_entry_starting(outcome.notes, "matmul_tiled is defined with C++ linkage"));
  EXPECT_NE(outcome.notes[0].find("declare it extern \"C\""), std::string::npos);
}

TEST_F(BuildSubmissionGpu, AllowsEverythingTheContractAllows) {
  build_request request = gpu_request("allowed_extras.cu");
  request.launchers = {"matmul_naive"};
  const build_outcome outcome = build(request);
  EXPECT_TRUE(outcome.ok) << outcome.log;
  for (const auto& entry : outcome.forbidden_symbols) {
    ADD_FAILURE() << "forbidden: " << entry;
  }
}

TEST_F(BuildSubmissionGpu, AcceptsPathsRelativeToTheCurrentDirectory) {
  build_request request = gpu_request("matmul_compile_error.cu");
  const auto previous = std::filesystem::current_path();
  std::filesystem::current_path(scratch());
  request.source = "submission/matmul.cu";
  request.work_dir = "work";
  const build_outcome outcome = build(request);
  std::filesystem::current_path(previous);
  EXPECT_NE(outcome.log.find("matmul.cu:8: error"), std::string::npos) << outcome.log;
}

TEST_F(BuildSubmissionGpu, TimeLimitStopsTheCompiler) {
  build_request request = gpu_request("matmul_ok.cu");
  request.time_limit_seconds = 0.05;
  const build_outcome outcome = build(request);
  EXPECT_FALSE(outcome.ok);
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_NE(outcome.log.find("time limit"), std::string::npos) << outcome.log;
}

TEST_F(BuildSubmissionGpu, MissingCompilerIsAnInfrastructureFailure) {
  build_request request = gpu_request("matmul_ok.cu");
  request.tools.nvcc = "/nonexistent/cuda/bin/nvcc";
  const auto outcome = build_submission(request);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("nvcc"), std::string::npos) << outcome.error();
}

TEST_F(BuildSubmissionGpu, UnwritableWorkDirIsAnInfrastructureFailure) {
  build_request request = gpu_request("matmul_ok.cu");
  request.work_dir = "/proc/cugrade-cannot-exist";
  const auto outcome = build_submission(request);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("/proc/cugrade-cannot-exist"), std::string::npos);
}
