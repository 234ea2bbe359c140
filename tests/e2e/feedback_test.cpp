// End-to-end: what students and TAs read (issue 12). Compiler errors at the student's line,
// three kinds of failure with three exits, no report overwritten, one maximum score, the fetch
// notes in every format, check --kernel/--all, whole numbers and plain words. Runs in emulation.

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/fixture_check.h"
#include "tests/fetch/git_fixture.h"
#include "tests/surfaces/terminal_controls.h"

#include <fstream>
#include <gtest/gtest.h>
#include <regex>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string fixture_file(const std::string& fixture, const std::string& file) {
  return text_of(fixtures_dir() / fixture / file);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every file of a folder with its bytes, to show that nothing was written or changed.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    files[entry.path().filename().string()] = text_of(entry.path());
  }
  return files;
}

void put_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

TEST(Feedback, CheckShowsTheCompilerErrorAtTheStudentsLine) {
  const auto r =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_compile_error").string(),
                   "--backend", "emu"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "reduction.cu:8: error: expected ';'")) << r.out;
  EXPECT_TRUE(contains(r.out, "     8 |   atomicAdd(result, s)")) << r.out;
  expect_no_internal_names(r.out + r.err, "check's output");
}

TEST(Feedback, CheckShowsAWrongLaunchInTheStudentsWords) {
  const auto r =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_wrong_launch_args").string(),
                   "--backend", "emu"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "reduction.cu:20: error: this kernel launch passes")) << r.out;
  expect_no_internal_names(r.out + r.err, "check's output");
}

// The contract allows debug output; check shows it with the failing case it belongs to, escaped,
// and says how much was cut (issue 39, item 1).
TEST(Feedback, CheckShowsAFailingCasesDebugOutput) {
  const auto r =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_debug_output").string(),
                   "--backend", "emu", "--kernel", "reduce_convergent", "--all"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "  | launching ")) << r.out;
  // The kernel's lines may follow the launcher's unterminated escape on its line.
  EXPECT_TRUE(contains(r.out, "block 0 partial sum ")) << r.out;
  EXPECT_TRUE(contains(r.out, "\\x1b]0;owned by a student\\x07")) << r.out;
  // How much was cut shows where a listed case wrote more than 4 KiB (expect.json's
  // output_capped checks the cap itself, whichever case comes first in its group).
  const auto controls = surfaces::terminal_controls_in(r.out);
  EXPECT_TRUE(controls.empty()) << controls.front();
  // Passing cases show nothing: the output is for what failed.
  EXPECT_FALSE(contains(r.out, "n = 1\n")) << r.out;
}

TEST(Feedback, WarningsAreNotesNotFailures) {
  const auto r =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_warnings_only").string(),
                   "--backend", "emu", "--kernel", "reduce_interleaved"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "compiler warning")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduction.cu:14: warning:")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduction.cu:23: warning:")) << r.out;
}

class UsageMistake : public testing::Test {
protected:
  void SetUp() override {
    repo.commit({{"reduction.cu", fixture_file("grade_missing_launcher", "reduction.cu")}},
                fetch::testing::epoch("2026-11-01T10:00:00Z"));
    const auto r = grade({repo.workdir().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    before = snapshot(out);
    ASSERT_TRUE(before.contains("s1.json"));
  }
  void TearDown() override { fs::remove_all(out); }

  // Grades `submission` as student s1 into `out`, with `extra` options.
  cli_result grade(const std::vector<std::string>& submission_and_extra,
                   const std::string& backend = "emu") {
    std::vector<std::string> args{"grade",
                                  "reduction",
                                  submission_and_extra.front(),
                                  "--backend",
                                  backend,
                                  "--out",
                                  out.string(),
                                  "--student",
                                  "s1",
                                  "--kernel",
                                  "reduce_interleaved"};
    args.insert(args.end(), submission_and_extra.begin() + 1, submission_and_extra.end());
    return run_cugrade(args);
  }

  void expect_usage_error(const cli_result& r, const std::string& named) {
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, named)) << r.err;
    EXPECT_FALSE(contains(r.out + r.err, "NOT GRADABLE")) << r.out << r.err;
    EXPECT_EQ(snapshot(out), before) << "a usage mistake changed or wrote a report";
  }

  fetch::testing::temp_dir tmp;
  fetch::testing::test_repo repo{tmp.path() / "alice"};
  fs::path out = fresh_dir("usage");
  std::map<std::string, std::string> before;
};

TEST_F(UsageMistake, BadDeadlineExitsTwoAndLeavesTheReport) {
  expect_usage_error(grade({repo.workdir().string(), "--deadline", "2026/11/20"}), "2026/11/20");
}

TEST_F(UsageMistake, UnknownCommitExitsTwoAndLeavesTheReport) {
  expect_usage_error(grade({repo.workdir().string(), "--commit", "no-such-branch"}),
                     "no-such-branch");
}

TEST_F(UsageMistake, MissingPathExitsTwoAndLeavesTheReport) {
  expect_usage_error(grade({(tmp.path() / "nobody").string()}), "nobody");
}

TEST_F(UsageMistake, UnknownKernelAndZeroTimeoutExitTwo) {
  expect_usage_error(grade({repo.workdir().string(), "--kernel", "reduce_fast"}), "reduce_fast");
  // (--kernel is repeatable: reduce_interleaved and reduce_fast are both asked for.)
  expect_usage_error(grade({repo.workdir().string(), "--kernel-timeout", "0"}), "--kernel-timeout");
}

TEST_F(UsageMistake, NotGradableIsWrittenBesideAGradableReport) {
  if (gpu_unavailable_reason().empty()) {
    GTEST_SKIP() << "a GPU is usable here, so --backend gpu cannot fail for want of one";
  }
  const auto r = grade({repo.workdir().string()}, "gpu");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "kept the gradable report")) << r.err;
  EXPECT_EQ(text_of(out / "s1.json"), before.at("s1.json"));
  const json beside = read_json(out / "s1.not-gradable.json");
  ASSERT_TRUE(beside.is_object()) << r.err;
  EXPECT_FALSE(beside.at("gradable").get<bool>());
  EXPECT_TRUE(contains(beside.at("infrastructure_error").get<std::string>(), "no NVIDIA GPU found"))
      << beside.at("infrastructure_error");
}

TEST(Feedback, SiblingFoldersNeverOverwriteEachOtherSilently) {
  const fetch::testing::temp_dir tmp;
  const auto alice = tmp.path() / "coll" / "alice" / "hw";
  const auto bob = tmp.path() / "coll" / "bob" / "hw";
  const auto other_alice = tmp.path() / "other" / "alice" / "hw";
  put_file(alice / "reduction.cu", fixture_file("grade_missing_launcher", "reduction.cu"));
  put_file(bob / "reduction.cu", fixture_file("grade_compile_error", "reduction.cu"));
  put_file(other_alice / "reduction.cu", fixture_file("grade_compile_error", "reduction.cu"));
  const auto out = fresh_dir("siblings");
  for (const auto& dir : {alice, bob}) {
    const auto r = run_cugrade({"grade", "reduction", dir.string(), "--backend", "emu", "--out",
                                out.string(), "--kernel", "reduce_interleaved"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const json a = read_json(out / "alice-hw.json");
  const json b = read_json(out / "bob-hw.json");
  ASSERT_TRUE(a.is_object() && b.is_object());
  EXPECT_EQ(a.at("submission").at("source"), alice.string());
  EXPECT_GT(a.at("score").get<double>(), b.at("score").get<double>());
  // Another folder whose id is also alice-hw: refused, naming both, until --force.
  const std::string kept = text_of(out / "alice-hw.json");
  const std::vector<std::string> args{"grade",      "reduction", other_alice.string(),
                                      "--backend",  "emu",       "--out",
                                      out.string(), "--kernel",  "reduce_interleaved"};
  const auto refused = run_cugrade(args);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_TRUE(contains(refused.err, alice.string()) && contains(refused.err, other_alice.string()))
      << refused.err;
  EXPECT_EQ(text_of(out / "alice-hw.json"), kept);
  auto forced_args = args;
  forced_args.push_back("--force");
  EXPECT_EQ(run_cugrade(forced_args).exit_code, 0);
  EXPECT_EQ(read_json(out / "alice-hw.json").at("submission").at("source"), other_alice.string());
  fs::remove_all(out);
}

// A copy of the matmul spec with performance.in_emulation set, its reference kept absolute.
fs::path matmul_spec_counting_performance(const fs::path& dir) {
  json spec = read_json(source_root() / "assignments" / "matmul" / "assignment.json");
  spec["performance"]["in_emulation"] = "counted";
  spec["reference"] = (source_root() / "reference").string();
  put_file(dir / "assignment.json", spec.dump(2));
  return dir / "assignment.json";
}

TEST(Feedback, OneMaximumForPassingFailingAndSourcelessSubmissions) {
  const fetch::testing::temp_dir tmp;
  fs::create_directories(tmp.path() / "empty");
  const std::vector<fs::path> submissions{source_root() / "reference",
                                          fixtures_dir() / "emu_tiled_no_boundary_check",
                                          tmp.path() / "empty"};
  const auto counted = matmul_spec_counting_performance(tmp.path() / "spec");
  for (const auto& [spec, maximum] :
       std::vector<std::pair<std::string, double>>{{"matmul", 15}, {counted.string(), 20}}) {
    for (const auto& submission : submissions) {
      SCOPED_TRACE(spec + " on " + submission.string());
      const auto out = fresh_dir("max");
      const auto r = run_cugrade({"grade", spec, submission.string(), "--backend", "emu", "--out",
                                  out.string(), "--student", "s", "--kernel", "matmul_tiled"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const json report = read_json(out / "s.json");
      EXPECT_DOUBLE_EQ(report.at("max_score").get<double>(), maximum);
      const json kernel = kernel_named(report, "matmul_tiled");
      EXPECT_DOUBLE_EQ(kernel.at("max_score").get<double>(), maximum);
      EXPECT_EQ(kernel.value("performance_note", ""),
                "not measured in emulation (needs a GPU): its 5 performance points come from the "
                "GPU grading");
      EXPECT_TRUE(schema_errors(report).empty()) << testing::PrintToString(schema_errors(report));
      for (const char* format : {".txt", ".gradescope.json", ".junit.xml"}) {
        EXPECT_TRUE(contains(text_of(out / (std::string("s") + format)),
                             "not measured in emulation (needs a GPU)"))
            << format;
      }
      fs::remove_all(out);
    }
  }
}

TEST(Feedback, FetchNotesReachEveryFormat) {
  const fetch::testing::temp_dir tmp;
  fetch::testing::test_repo repo(tmp.path() / "carol");
  const std::string good = fixture_file("grade_missing_launcher", "reduction.cu");
  repo.commit({{"reduction.cu", good}}, fetch::testing::epoch("2026-11-01T10:00:00Z"));
  repo.commit({{"reduction.cu", good + "\n// later\n"}},
              fetch::testing::epoch("2026-11-03T10:00:00Z"));
  repo.write_file("notes.txt", "forgot to commit this");
  const auto out = fresh_dir("notes");
  const auto r = run_cugrade({"grade", "reduction", repo.workdir().string(), "--backend", "emu",
                              "--deadline", "2026-11-02T00:00:00Z", "--out", out.string(),
                              "--student", "carol", "--kernel", "reduce_interleaved"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = read_json(out / "carol.json");
  const std::string notes = report.at("submission").at("notes").dump();
  const std::string newer = "1 newer commit ignored, the newest committed 2026-11-03T10:00:00Z";
  EXPECT_TRUE(contains(notes, newer)) << notes;
  EXPECT_TRUE(contains(notes, "1 uncommitted change")) << notes;
  for (const char* format : {".txt", ".gradescope.json", ".junit.xml"}) {
    const std::string text = text_of(out / (std::string("carol") + format));
    EXPECT_TRUE(contains(text, newer)) << format << "\n" << text;
    EXPECT_TRUE(contains(text, "1 uncommitted change")) << format << "\n" << text;
  }
  EXPECT_TRUE(contains(text_of(out / "carol.txt"), "deadline: 2026-11-02T00:00:00Z, on time"))
      << text_of(out / "carol.txt");
  fs::remove_all(out);
}

TEST(Feedback, CheckAllListsEveryFailingTestOfOneKernelWithWholeNumbers) {
  const auto dir = (fixtures_dir() / "grade_histogram_bins_not_cleared").string();
  const auto few = run_cugrade(
      {"check", "histogram", dir, "--backend", "emu", "--kernel", "histogram_interleaved"});
  EXPECT_EQ(few.exit_code, 1) << few.err;
  // Cases that fail alike are one line and a list of the others' names (cut at 8 without --all).
  EXPECT_TRUE(contains(few.out, "more failing tests (cugrade check --all lists them)") ||
              contains(few.out, " more)\n"))
      << few.out;
  const auto all = run_cugrade({"check", "histogram", dir, "--backend", "emu", "--kernel",
                                "histogram_interleaved", "--all"});
  EXPECT_EQ(all.exit_code, 1) << all.err;
  EXPECT_FALSE(contains(all.out, "more failing tests")) << all.out;
  EXPECT_FALSE(contains(all.out, "histogram_sectioned")) << "--kernel checks one launcher only";
  EXPECT_FALSE(contains(all.out, " more)\n")) << "--all cuts no list of names:\n" << all.out;
  const std::regex case_name(R"(n=[0-9]+/)");
  const auto named = std::distance(std::sregex_iterator(all.out.begin(), all.out.end(), case_name),
                                   std::sregex_iterator());
  EXPECT_GT(named, 3) << all.out;
  EXPECT_FALSE(std::regex_search(all.out, std::regex(R"(expected [0-9.]+e\+)"))) << all.out;
  expect_no_internal_names(all.out + all.err, "check's output");
}

TEST(Feedback, ATimeoutNamesTheLauncherTheKernelAndTheLine) {
  const auto r =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_infinite_loop").string(),
                   "--backend", "emu", "--kernel", "reduce_convergent", "--kernel-timeout", "4"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "reduce_convergent (the launcher and its kernels) did not finish"))
      << r.out;
  // The spinning loop of the fixture is lines 19-20 of reduction.cu.
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(kernel spin, block \(0,0,0\), thread )"
                                                  R"(\(0,0,0\): stopped by the time limit at )"
                                                  R"(reduction\.cu:(19|20) \(in spin)")))
      << r.out;
  expect_no_internal_names(r.out + r.err, "check's output");
}

TEST(Feedback, AFailedBuildShowsTheWarningsItCounts) {
  const fetch::testing::temp_dir tmp;
  put_file(tmp.path() / "reduction.cu",
           "extern \"C\" void reduce_interleaved(const float* input, long n, float* result) {\n"
           "  n == 8;\n"
           "  missing_call(input, n, result);\n"
           "}\n");
  const auto r = run_cugrade({"check", "reduction", tmp.path().string(), "--backend", "emu"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "1 compiler warning")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduction.cu:3: error:")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduction.cu:2: warning: statement has no effect")) << r.out;
}

TEST(Feedback, ALongWaitSaysWhatItIsWaitingFor) {
  const auto r =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_infinite_loop").string(),
                   "--backend", "emu", "--kernel", "reduce_convergent", "--kernel-timeout", "13"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex(R"(cugrade: still waiting after 1[0-9] s for: .*reduce_convergent)")))
      << r.err;
}

TEST(Feedback, NoGpuIsSaidPlainly) {
  if (gpu_unavailable_reason().empty()) {
    GTEST_SKIP() << "a GPU is usable here";
  }
  const auto doctor = run_cugrade({"doctor"});
  EXPECT_TRUE(contains(doctor.out, "no NVIDIA GPU found")) << doctor.out;
  const auto check =
      run_cugrade({"check", "reduction", (fixtures_dir() / "grade_missing_launcher").string(),
                   "--kernel", "reduce_interleaved"});
  EXPECT_TRUE(contains(check.err, "no NVIDIA GPU found")) << check.err;
  for (const auto& text : {doctor.out + doctor.err, check.out + check.err}) {
    EXPECT_FALSE(contains(text, "cudaErrorInsufficientDriver")) << text;
    expect_no_internal_names(text, "the output");
  }
}

} // namespace
} // namespace cugrade::e2e
