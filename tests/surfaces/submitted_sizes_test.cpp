// What a submission's files can cost the grader (issue 36, item 3): a source linked to /dev/zero,
// a FIFO in its place, a 200 MB source or a submission of 70 MB are refused at once, as the
// student's verdict, and reading them costs the grader neither memory nor time.
#include "grader/process/process.h"
#include "tests/surfaces/surfaces_support.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>

namespace cugrade::surfaces {
namespace {

namespace fs = std::filesystem;

struct sized_grading {
  process::process_result run;
  nlohmann::json report;
};

// The real cugrade, measured: its wall time and its peak resident memory.
sized_grading grade_sized(const fs::path& folder, const fs::path& out) {
  process::spawn_options o;
  o.argv = {CUGRADE_BINARY, "grade", small_spec().string(), folder.string(), "--backend",
            backend(),      "--out", out.string(),          "--student",     "s"};
  if (const char* binary = std::getenv("CUGRADE_BINARY"); binary != nullptr && *binary != '\0') {
    o.argv[0] = binary; // a device bundle's
  }
  o.env_add = {{"XDG_CACHE_HOME", (fs::temp_directory_path() / "cugrade-e2e-cache").string()},
               {"NO_COLOR", "1"}};
  o.time_limit_seconds = 120;
  auto run = process::run_process(o);
  if (!run) {
    ADD_FAILURE() << run.error();
    return {};
  }
  return {*run, e2e::read_json(out / "s.json")};
}

void expect_build_error(const sized_grading& g, const std::string& message) {
  EXPECT_FALSE(g.run.timed_out) << "the grading never finished";
  EXPECT_EQ(g.run.exit_code, 0) << g.run.stderr_text;
  EXPECT_EQ(g.report["gradable"], true);
  EXPECT_EQ(g.report["build"]["status"], "error");
  EXPECT_NE(g.report["build"]["log"].get<std::string>().find(message), std::string::npos)
      << g.report["build"];
  for (const auto& k : g.report["kernels"]) {
    EXPECT_EQ(k["status"], "build_error") << k;
  }
}

class SubmittedSize : public ::testing::Test {
protected:
  void SetUp() override {
    fs::create_directories(folder);
    open_to_everyone(root);
  }
  void TearDown() override { fs::remove_all(root); }
  fs::path root = e2e::fresh_dir("surfaces-sizes");
  fs::path folder = root / "submission";
  fs::path out = root / "out";
};

TEST_F(SubmittedSize, SourceLinkedToDevZeroIsRefusedAtOnce) {
  fs::create_symlink("/dev/zero", folder / "reduction.cu");
  const auto g = grade_sized(folder, out);
  expect_build_error(g, "reduction.cu is a symbolic link");
  EXPECT_LT(g.run.wall_seconds, 30.0);
  EXPECT_LT(g.run.max_rss_kb, 256 * 1024);
}

TEST_F(SubmittedSize, FifoSourceIsRefusedWithoutWaitingForAWriter) {
  ASSERT_EQ(::mkfifo((folder / "reduction.cu").c_str(), 0644), 0);
  const auto g = grade_sized(folder, out);
  expect_build_error(g, "reduction.cu is a FIFO (named pipe), not a regular file");
  EXPECT_LT(g.run.wall_seconds, 30.0);
}

TEST_F(SubmittedSize, TwoHundredMegabyteSourceIsRefusedWithoutBeingRead) {
  {
    std::ofstream big(folder / "reduction.cu", std::ios::binary);
    big << "// padding\n";
    big.seekp((200 << 20) - 1);
    big.put('\n'); // sparse: the disk holds almost nothing of it
  }
  const auto g = grade_sized(folder, out);
  expect_build_error(g, "reduction.cu is 200 MiB; the limit is 1 MiB");
  EXPECT_LT(g.run.max_rss_kb, 256 * 1024) << "the grader read the source into memory";
}

TEST_F(SubmittedSize, SubmissionOverItsTotalNamesTheLargeFile) {
  std::ofstream(folder / "reduction.cu") << reference_source();
  {
    std::ofstream big(folder / "frames.bin", std::ios::binary);
    big.seekp((70 << 20) - 1);
    big.put('x');
  }
  const auto g = grade_sized(folder, out);
  expect_build_error(g, "more than 64 MiB of files");
  EXPECT_NE(g.report["build"]["log"].get<std::string>().find("frames.bin alone is 70 MiB"),
            std::string::npos);
}

TEST_F(SubmittedSize, MisplacedSourceIsNamedOnce) {
  fs::create_directories(folder / "nest");
  std::ofstream(folder / "nest" / "reduction.cu") << reference_source();
  const auto g = grade_sized(folder, out);
  expect_build_error(g, "found nest/reduction.cu: move it to the root of your repository");
}

} // namespace
} // namespace cugrade::surfaces
