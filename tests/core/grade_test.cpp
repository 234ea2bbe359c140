// grade() in-process: a stage that throws ends the grading with a written, not-gradable report,
// never the process.
#include "grader/core/grade.h"

#include "grader/sandbox/sandbox.h"
#include "harness/core/file_io.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace cugrade::grader {
namespace {

namespace fs = std::filesystem;

struct scratch {
  fs::path dir = fs::temp_directory_path() /
                 ("cugrade-grade-test-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
  scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir / "submission");
    std::ofstream(dir / "submission" / "matmul.cu") << "// nothing is built in these tests\n";
  }
  ~scratch() { fs::remove_all(dir); }
};

layout test_layout(const fs::path& cache) {
  layout l;
  l.root = CUGRADE_SOURCE_DIR;
  l.bin_dir = cache / "no-bin";
  l.lib_dir = cache / "no-lib";
  l.emu_include_dir = l.root / "harness" / "emu" / "include";
  l.cache_dir = cache;
  return l;
}

grade_options test_options(const scratch& s) {
  grade_options o;
  o.assignment = "matmul";
  o.submission = (s.dir / "submission").string();
  o.backend = "emu";
  o.out_dir = s.dir / "reports";
  o.formats = {"json"};
  o.student = "alice";
  o.chosen_backend = backend_choice{}; // emulation, no probe
  return o;
}

void expect_written_not_gradable(const grade_outcome& out, const scratch& s,
                                 const std::string& words) {
  EXPECT_EQ(out.exit, grade_exit::infrastructure);
  ASSERT_TRUE(out.report.has_value());
  EXPECT_FALSE(out.report->gradable);
  EXPECT_NE(out.report->infrastructure_error.find(words), std::string::npos)
      << out.report->infrastructure_error;
  auto text = read_file(s.dir / "reports" / "alice.json");
  ASSERT_TRUE(static_cast<bool>(text)) << "no report was written";
  const auto json = nlohmann::json::parse(*text);
  EXPECT_FALSE(json.at("gradable").get<bool>());
  EXPECT_NE(json.at("infrastructure_error").get<std::string>().find(words), std::string::npos);
}

TEST(Grade, AHookThatThrowsStillWritesANotGradableReport) {
  sandbox::set_mode(sandbox::mode::unconfined);
  scratch s;
  auto o = test_options(s);
  o.hooks.reached = [](grade_stage stage) {
    if (stage == grade_stage::fetched) {
      throw std::runtime_error("the journal is gone");
    }
  };
  expect_written_not_gradable(grade(o, test_layout(s.dir / "cache")), s, "the journal is gone");
}

TEST(Grade, AStageThatThrowsStillWritesANotGradableReport) {
  sandbox::set_mode(sandbox::mode::unconfined);
  scratch s;
  // The cache is a file, so the work folder under it cannot be made: create_directories throws.
  std::ofstream(s.dir / "cache-file") << "not a folder";
  const auto out = grade(test_options(s), test_layout(s.dir / "cache-file"));
  expect_written_not_gradable(out, s, "the grading stopped");
  // What the stages before it found is kept: the fetch ran, and its row is in the stage table.
  ASSERT_TRUE(out.report.has_value());
  const auto& stages = out.report->stages;
  EXPECT_TRUE(std::any_of(stages.begin(), stages.end(),
                          [](const reports::stage_timing& t) { return t.stage == "fetch"; }));
}

} // namespace
} // namespace cugrade::grader
