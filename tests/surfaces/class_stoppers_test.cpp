// One student cannot stop a class (issue 36, item 3): a batch of 20, among them a reduction.cu
// linked to /dev/zero, a FIFO in its place, a 200 MB source, a repository with a submodule and a
// repository whose HEAD was edited by hand, finishes inside a 2 GiB memory cgroup with a row for
// every student, each of the five graded as the student's verdict, never "not gradable".
#include "grader/process/process.h"
#include "grader/sandbox/detail/memory_ceiling.h"
#include "tests/fetch/git_fixture.h"
#include "tests/surfaces/surfaces_support.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

namespace cugrade::surfaces {
namespace {

namespace fs = std::filesystem;
using fetch::testing::epoch;
using fetch::testing::test_repo;

constexpr std::size_t class_memory = std::size_t{2} << 30;

TEST(ClassOfTwenty, FinishesInTwoGigabytesWithARowForEveryStudent) {
  const auto ceiling = sandbox::memory_ceiling::create(class_memory, 4096);
  if (!ceiling) {
    GTEST_SKIP() << "this machine offers no writable memory cgroup to hold the batch in";
  }
  class_folder c(e2e::fresh_dir("surfaces-class"));
  open_to_everyone(c.root);
  for (int i = 0; i < 15; ++i) {
    c.add("good" + std::to_string(i), reference_source());
  }
  const auto place = [&](const std::string& student) {
    fs::create_directories(c.root / student);
    c.rows += student + "," + (c.root / student).string() + ",\n";
    return c.root / student / "reduction.cu";
  };
  fs::create_symlink("/dev/zero", place("zero"));
  ASSERT_EQ(::mkfifo(place("fifo").c_str(), 0644), 0);
  {
    std::ofstream big(place("big"), std::ios::binary);
    big.seekp((200 << 20) - 1);
    big.put('\n');
  }
  test_repo with_submodule(c.root / "submodule-repo");
  const std::string first = with_submodule.commit({{"reduction.cu", "// first"}},
                                                  epoch("2026-12-01T10:00:00Z"));
  with_submodule.add_submodule("vendor/cub", first, "https://example.invalid/cub.git");
  with_submodule.commit({{"reduction.cu", reference_source()}}, epoch("2026-12-02T10:00:00Z"));
  c.rows += "submodule," + with_submodule.workdir().string() + ",\n";
  test_repo broken(c.root / "broken-head-repo");
  broken.commit({{"reduction.cu", reference_source()}}, epoch("2026-12-01T10:00:00Z"));
  std::ofstream(broken.workdir() / ".git" / "HEAD") << "ref: refs/heads/\x1b]52;c;aGk=\x07\n";
  c.rows += "brokenhead," + broken.workdir().string() + ",\n";

  process::spawn_options o;
  const char* binary = std::getenv("CUGRADE_BINARY");
  o.argv = {binary != nullptr && *binary != '\0' ? binary : CUGRADE_BINARY,
            "batch", small_spec().string(), c.roster().string(), "--out",
            (c.root / "out").string(), "--backend", backend(), "--jobs", "2"};
  o.env_add = {{"XDG_CACHE_HOME", (c.root / "cache").string()}, {"NO_COLOR", "1"}};
  o.cgroup_procs_files = ceiling->procs_files();
  o.time_limit_seconds = 900;
  const auto run = process::run_process(o);
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_FALSE(run->timed_out) << "the batch never finished";
  EXPECT_FALSE(ceiling->exhausted()) << "the batch reached its 2 GiB ceiling (" << ceiling->kind()
                                     << ")";
  ASSERT_EQ(run->exit_code, 0) << run->stderr_text;

  const auto rows = csv_cells(c.root / "out" / "gradebook.csv");
  ASSERT_EQ(rows.size(), 21u) << text_of(c.root / "out" / "gradebook.csv");
  const auto& header = rows.front();
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) -
                                    header.begin());
  };
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(row_starting(rows, "good" + std::to_string(i)).at(column("score")), "20");
  }
  for (const std::string student : {"zero", "fifo", "big", "brokenhead"}) {
    SCOPED_TRACE(student);
    const auto row = row_starting(rows, student);
    ASSERT_FALSE(row.empty());
    EXPECT_EQ(row.at(column("gradable")), "true");
    EXPECT_EQ(row.at(column("score")), "0");
    const auto report = e2e::read_json(c.root / "out" / "reports" / (student + ".json"));
    EXPECT_EQ(report["build"]["status"], "error") << report["build"];
  }
  const auto submodule = row_starting(rows, "submodule");
  ASSERT_FALSE(submodule.empty());
  EXPECT_EQ(submodule.at(column("score")), "20");
  EXPECT_NE(e2e::read_json(c.root / "out" / "reports" / "submodule.json")["submission"]["notes"]
                .dump()
                .find("1 submodule vendor/cub left out"),
            std::string::npos);
  fs::remove_all(c.root);
}

} // namespace
} // namespace cugrade::surfaces
