// `cugrade batch --slurm` against a real Slurm: tests/slurm/slurm-cluster starts a single-node
// cluster (slurmctld, slurmd, slurmdbd for sacct, munge, MariaDB) in a temporary folder. A
// 20-student class is graded in emulation as two array tasks; task 1 is killed with scancel
// once it has delivered a couple of reports; the same command then submits only the students
// left without a report, and the gradebook and reports equal a local batch of the same roster.
// The sacct states, the resubmission and the comparison are printed for the record. SKIPPED
// (exit 77 from the script, with its reason) only where Slurm cannot start.
#include "grader/batch/journal.h"
#include "grader/batch/roster.h"
#include "grader/process/process.h"
#include "tests/e2e/e2e_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;

const std::string spec_path = std::string(CUGRADE_SOURCE_DIR) + "/tests/batch/small_reduction.json";
const std::string cluster_script = std::string(CUGRADE_SOURCE_DIR) + "/tests/slurm/slurm-cluster";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

cli_result run(const std::vector<std::string>& argv,
               const std::vector<std::pair<std::string, std::string>>& env) {
  process::spawn_options o;
  o.argv = argv;
  o.env_add = env;
  o.time_limit_seconds = 600;
  const auto r = process::run_process(o);
  return r ? cli_result{r->shell_status(), r->stdout_text, r->stderr_text}
           : cli_result{-1, "", r.error()};
}

// The cluster, stopped whatever happens to the test.
class cluster {
public:
  explicit cluster(fs::path dir) : m_dir(std::move(dir)) {
    m_started = run({cluster_script, "start", m_dir.string()}, {});
  }
  ~cluster() { (void)run({cluster_script, "stop", m_dir.string()}, {}); }
  cluster(const cluster&) = delete;
  cluster& operator=(const cluster&) = delete;
  [[nodiscard]] const cli_result& started() const { return m_started; }
  [[nodiscard]] std::string conf() const { return (m_dir / "slurm.conf").string(); }

private:
  fs::path m_dir;
  cli_result m_started;
};

// The class: reference solutions, compile errors, missing launchers and an absent repository,
// spread over both shards.
fs::path write_class(const fs::path& root) {
  const auto reference = read_text(source_root() / "reference" / "reduction.cu");
  const auto compile = read_text(fixtures_dir() / "grade_compile_error" / "reduction.cu");
  const auto missing = read_text(fixtures_dir() / "grade_missing_launcher" / "reduction.cu");
  std::string rows = "student,repository\n";
  for (int i = 0; i < 20; ++i) {
    const auto student = "st" + std::to_string(i);
    if (i == 13) {
      rows += student + "," + (root / "nowhere").string() + "\n";
      continue;
    }
    const auto dir = root / student;
    fs::create_directories(dir);
    std::ofstream(dir / "reduction.cu") << (i % 7 == 3 ? compile : i % 5 == 4 ? missing : reference);
    rows += student + "," + dir.string() + "\n";
  }
  std::ofstream(root / "roster.csv") << rows;
  return root / "roster.csv";
}

// What the lead quotes: the lines about Slurm and the batch's own summary lines.
void print_record(const std::string& title, const cli_result& r) {
  std::cout << "===== " << title << " (exit " << r.exit_code << ")\n";
  std::istringstream in(r.err + r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("slurm:") || line.starts_with("cugrade batch") ||
        line.starts_with("gradebook:")) {
      std::cout << "  " << line << "\n";
    }
  }
}

// Students of `students` that have a delivery in `results`, and the job that delivered one.
std::size_t delivered(const fs::path& results, int first, int last, std::string& job) {
  std::size_t n = 0;
  for (int i = first; i <= last; ++i) {
    const auto file = results / ("st" + std::to_string(i) + ".json");
    std::error_code ec;
    if (fs::exists(file, ec)) {
      ++n;
      try {
        job = read_json(file)["job"].get<std::string>();
      } catch (const std::exception&) { // being renamed into place: look again later
      }
    }
  }
  return n;
}

std::set<std::string> shard_students(const fs::path& csv) {
  std::set<std::string> out;
  if (auto r = batch::load_roster(csv)) {
    for (const auto& e : r->entries) {
      out.insert(e.student);
    }
  }
  return out;
}

void grade_through_slurm(const fs::path& root, const cluster& slurm) {
  const std::vector<std::pair<std::string, std::string>> env{
      {"SLURM_CONF", slurm.conf()}, {"XDG_CACHE_HOME", (root / "cache").string()},
      {"NO_COLOR", "1"}};
  const auto roster = write_class(root);
  const std::vector<std::string> batch{CUGRADE_BINARY, "batch", spec_path, roster.string(),
                                       "--backend", "emu"};
  auto local_args = batch;
  local_args.insert(local_args.end(), {"--out", (root / "local").string(), "--jobs", "2"});
  const auto local = run(local_args, env);
  ASSERT_EQ(local.exit_code, 0) << local.err;

  auto cluster_args = batch;
  cluster_args.insert(cluster_args.end(), {"--out", (root / "out").string(), "--slurm",
                                           "--shard-size", "10", "--jobs", "1", "--poll-seconds",
                                           "1"});
  cli_result first;
  std::thread submitter([&] { first = run(cluster_args, env); });
  // Task 1 grades st10..st19: cancel it once it has delivered two of them.
  std::string job;
  const auto results = root / "out" / "slurm" / "results";
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (delivered(results, 10, 19, job) < 2 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_FALSE(job.empty()) << "no report of task 1 arrived";
  const auto cancel = run({"scancel", job + "_1"}, env);
  std::cout << "===== scancel " << job << "_1 (exit " << cancel.exit_code << ")\n";
  submitter.join();
  print_record("first run, task 1 cancelled", first);
  EXPECT_EQ(cancel.exit_code, 0) << cancel.err;
  ASSERT_EQ(first.exit_code, 3) << first.err;
  EXPECT_NE(first.err.find("slurm: job " + job + " task 0 COMPLETED (exit 0:0"), std::string::npos)
      << first.err;
  EXPECT_NE(first.err.find("slurm: job " + job + " task 1 CANCELLED"), std::string::npos)
      << first.err;
  EXPECT_NE(first.err.find("run the same command again to submit only them"), std::string::npos)
      << first.err;

  const auto second = run(cluster_args, env);
  print_record("the same command again", second);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const auto resubmitted = shard_students(root / "out" / "slurm" / "submission-2" / "shard-0.csv");
  EXPECT_FALSE(fs::exists(root / "out" / "slurm" / "submission-2" / "shard-1.csv"));
  ASSERT_FALSE(resubmitted.empty());
  std::cout << "resubmitted (" << resubmitted.size() << "):";
  for (const auto& s : resubmitted) {
    std::cout << " " << s;
    const int index = std::stoi(s.substr(2));
    EXPECT_GE(index, 10) << s << " was in task 0, which completed";
  }
  std::cout << "\n";
  EXPECT_LE(resubmitted.size(), 8u); // two of task 1's ten had arrived before scancel
  EXPECT_NE(second.err.find(std::to_string(20 - resubmitted.size()) + " already written, 0 to "
                            "write from the journal, " + std::to_string(resubmitted.size()) +
                            " to grade"),
            std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find(" task 0 COMPLETED (exit 0:0"), std::string::npos) << second.err;

  const auto expected_book = read_text(root / "local" / "gradebook.csv");
  const auto book = read_text(root / "out" / "gradebook.csv");
  EXPECT_EQ(book, expected_book);
  const auto expected_reports = reports_without_times(root / "local");
  EXPECT_EQ(reports_without_times(root / "out"), expected_reports);
  std::cout << "gradebook comparison: " << (root / "out" / "gradebook.csv").string() << " vs "
            << (root / "local" / "gradebook.csv").string() << ": "
            << (book == expected_book ? "identical" : "DIFFERENT") << " ("
            << std::count(book.begin(), book.end(), '\n') - 1 << " students); reports without "
            << "times: " << (reports_without_times(root / "out") == expected_reports ? "identical" : "DIFFERENT")
            << " (" << expected_reports.size() << " files)\n"
            << book;
  auto j = batch::journal::open(root / "out");
  ASSERT_TRUE(j.ok()) << j.error();
  for (const auto& e : (*j)->all()) { // nobody graded twice, nobody lost
    EXPECT_EQ(e.gradings, 1) << e.student;
    EXPECT_EQ(e.state, batch::student_state::written) << e.student;
  }
  j->reset();
  const auto third = run(cluster_args, env);
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_NE(third.err.find("20 already written, 0 to write from the journal, 0 to grade"),
            std::string::npos)
      << third.err;
  EXPECT_EQ(third.err.find("submitted job"), std::string::npos) << third.err;
}

// The submitter is killed (SIGKILL, by the batch's test seam) after journaling 3 reports while
// its job runs on; the same command collects that job instead of submitting again.
void reattach_after_the_submitter_died(const fs::path& root, const cluster& slurm) {
  const std::vector<std::pair<std::string, std::string>> env{
      {"SLURM_CONF", slurm.conf()}, {"XDG_CACHE_HOME", (root / "cache").string()},
      {"NO_COLOR", "1"}};
  const std::vector<std::string> args{CUGRADE_BINARY, "batch",   spec_path,
                                      (root / "roster.csv").string(), "--backend", "emu",
                                      "--out",        (root / "again").string(), "--slurm",
                                      "--shard-size", "10",      "--jobs",  "1",
                                      "--poll-seconds", "1"};
  auto killed_env = env;
  killed_env.emplace_back("CUGRADE_BATCH_KILL_AFTER", "written:3");
  const auto killed = run(args, killed_env);
  print_record("submitter killed after 3 reports", killed);
  ASSERT_EQ(killed.exit_code, 128 + 9) << killed.err;
  const auto resumed = run(args, env);
  print_record("the same command again", resumed);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("of an earlier run is not collected yet; collecting it first"),
            std::string::npos)
      << resumed.err;
  EXPECT_NE(resumed.err.find("20 already written, 0 to write from the journal, 0 to grade"),
            std::string::npos)
      << resumed.err;
  EXPECT_EQ(resumed.err.find("submitted job"), std::string::npos) << resumed.err;
  EXPECT_EQ(read_text(root / "again" / "gradebook.csv"),
            read_text(root / "local" / "gradebook.csv"));
  auto j = batch::journal::open(root / "again");
  ASSERT_TRUE(j.ok()) << j.error();
  for (const auto& e : (*j)->all()) {
    EXPECT_EQ(e.gradings, 1) << e.student;
  }
  std::cout << "reattached: the earlier job collected, gradebook identical to the local batch\n";
}

TEST(SlurmCluster, ScancelledTaskIsResubmittedAndTheGradebookEqualsALocalBatch) {
  const auto root = fresh_dir("slurm");
  {
    const cluster slurm(root / "cluster"); // stopped before its folder goes
    if (slurm.started().exit_code == 77) {
      GTEST_SKIP() << slurm.started().err;
    }
    ASSERT_EQ(slurm.started().exit_code, 0) << slurm.started().err << slurm.started().out;
    grade_through_slurm(root, slurm);
    if (!HasFailure()) {
      reattach_after_the_submitter_died(root, slurm);
    }
  }
  if (!HasFailure()) {
    fs::remove_all(root);
  }
}

} // namespace
} // namespace cugrade::e2e

namespace cugrade::e2e {
namespace {

// A cluster without job accounting (sacct answers at once that it is disabled); where sacct is
// not installed at all the same words follow "cannot run sacct".
TEST(SlurmCommand, WithoutJobAccountingNothingIsSubmitted) {
  const auto root = fresh_dir("slurm-no-sacct");
  const auto roster = write_class(root);
  std::ofstream(root / "slurm.conf") << "ClusterName=noaccounting\nSlurmctldHost=localhost\n"
                                        "AccountingStorageType=accounting_storage/none\n"
                                        "NodeName=localhost CPUs=1\n"
                                        "PartitionName=p Nodes=ALL Default=YES\n";
  const auto r = run({CUGRADE_BINARY, "batch", spec_path, roster.string(), "--out",
                      (root / "out").string(), "--backend", "emu", "--slurm"},
                     {{"SLURM_CONF", (root / "slurm.conf").string()}});
  print_record("a cluster without accounting", r);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("nothing was submitted: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the cluster needs job accounting"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(root / "out" / "slurm" / "submission-1")) << r.err;
  fs::remove_all(root);
}

TEST(SlurmCommand, ClusterOptionsNeedSlurmAndGpusAreSlurmsChoice) {
  const auto root = fresh_dir("slurm-usage");
  const auto roster = write_class(root);
  const std::vector<std::string> base{CUGRADE_BINARY, "batch", spec_path, roster.string(),
                                      "--out", (root / "out").string()};
  auto partition = base;
  partition.insert(partition.end(), {"--partition", "gpu"});
  const auto r = run(partition, {});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--partition is an option of --slurm; add --slurm"), std::string::npos)
      << r.err;
  auto gpus = base;
  gpus.insert(gpus.end(), {"--slurm", "--gpus", "0,1"});
  const auto g = run(gpus, {});
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_NE(g.err.find("use --gpus-per-task"), std::string::npos) << g.err;
  EXPECT_FALSE(fs::exists(root / "out"));
  fs::remove_all(root);
}

} // namespace
} // namespace cugrade::e2e
