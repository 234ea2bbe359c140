// Performance on the GPU, end to end (label gpu): the reference graded on the GPU gets a verified
// performance entry with a speedup near 1 for every benchmark case and full marks, and every
// exploit fixture (tests/fixtures/exploit_*) gets the verdict its expect.json predicts, including
// the "performance" part:
//   "performance": {launcher: {"timed"?: false, "verified"?: bool, "points"?: number,
//                              "suspicious"?: bool, "hint"?: code, "message_contains"?: text or
//                              [texts], "note_contains"?: text}}
// and every fixture with a "sanitizer" part, graded with compute-sanitizer checks turned on:
//   "sanitizer": {"kernels": {launcher: {"status", "error_kind"?, "message_contains"?: text or
//   [texts]}}}
// Without a usable GPU every test reports SKIPPED.
//
// Runs from a device bundle too: programs are taken from the build tree when they are there, else
// from PATH (the bundle's env.sh puts its bin/ first), and data from $CUGRADE_ROOT when set.

#include "grader/process/process.h"
#include "harness/problems/problem.h"
#include "tests/e2e/e2e_support.h"
#include "tests/e2e/fixture_check.h"
#include "tests/e2e/insight_expect.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The build tree's program, or the one on PATH (a device bundle).
std::string program(const fs::path& built, const std::string& name) {
  if (fs::exists(built)) {
    return built.string();
  }
  const auto found = process::find_program(name);
  return found ? found->string() : built.string();
}

fs::path data_root() {
  const char* root = std::getenv("CUGRADE_ROOT");
  return root != nullptr && *root != '\0' ? fs::path(root) : fs::path(CUGRADE_SOURCE_DIR);
}

std::string no_gpu_reason() {
  const auto runner = program(CUGRADE_GPU_RUNNER, "cugrade-runner-gpu");
  if (!fs::exists(runner)) {
    return "no cugrade-runner-gpu (built without nvcc, and none on PATH)";
  }
  process::spawn_options opts;
  opts.argv = {runner, "--probe"};
  opts.time_limit_seconds = 60;
  const auto r = process::run_process(opts);
  return r && r->succeeded() ? ""
                             : "no usable GPU: " + (r ? r->stderr_text.substr(0, 200) : r.error());
}

cli_result run_grade(const std::vector<std::string>& args) {
  process::spawn_options opts;
  opts.argv = {program(CUGRADE_BINARY, "cugrade")};
  opts.argv.insert(opts.argv.end(), args.begin(), args.end());
  opts.env_add = {{"XDG_CACHE_HOME", (fs::temp_directory_path() / "cugrade-e2e-cache").string()},
                  {"NO_COLOR", "1"}};
  opts.time_limit_seconds = 1700;
  const auto r = process::run_process(opts);
  if (!r) {
    return {-1, "", r.error()};
  }
  return {r->shell_status(), r->stdout_text, r->stderr_text};
}

json grade_on_gpu(const std::string& assignment, const std::string& dir, const std::string& name,
                  const std::vector<std::string>& more = {}) {
  const auto out = fresh_dir("perf-" + name);
  std::vector<std::string> args{"grade",      assignment,  dir,  "--backend", "gpu", "--out",
                                out.string(), "--student", name, "--format",  "json"};
  args.insert(args.end(), more.begin(), more.end());
  const auto r = run_grade(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json report = read_json(out / (name + ".json"));
  EXPECT_TRUE(report.is_object()) << r.err;
  if (report.is_object()) {
    EXPECT_TRUE(schema_errors(report).empty()) << testing::PrintToString(schema_errors(report));
  }
  std::filesystem::remove_all(out);
  return report;
}

std::string hint_text(const json& kernel) {
  std::string text;
  for (const auto& h : kernel.value("diagnosis", json::array())) {
    text += h.value("code", "") + ": " + h.value("message", "") + "\n";
  }
  return text;
}

bool timed_calls_failed(const json& kernel) {
  const std::string text = hint_text(kernel);
  return text.find("of a timed call") != std::string::npos ||
         text.find("benchmark run of") != std::string::npos;
}

void check_status(const json& kernel, const json& want) {
  EXPECT_EQ(kernel.value("status", ""), want.value("status", "passed")) << kernel.dump(2);
  if (want.contains("forbidden_contains")) {
    EXPECT_NE(kernel.value("forbidden_symbols", json::array())
                  .dump()
                  .find(want.at("forbidden_contains").get<std::string>()),
              std::string::npos);
  }
}

void check_performance(const json& kernel, const json& want) {
  const json entries = kernel.value("performance", json::array());
  const std::string hints = hint_text(kernel);
  if (!want.value("timed", true)) {
    EXPECT_TRUE(entries.empty()) << entries.dump(2);
  }
  if (want.contains("verified")) {
    EXPECT_EQ(!timed_calls_failed(kernel), want.at("verified").get<bool>()) << hints;
    if (want.at("verified").get<bool>()) {
      EXPECT_FALSE(entries.empty());
    }
  }
  if (want.contains("points")) {
    EXPECT_DOUBLE_EQ(kernel.value("performance_score", -1.0), want.at("points").get<double>());
  }
  if (want.contains("hint")) {
    EXPECT_NE(hints.find(want.at("hint").get<std::string>() + ":"), std::string::npos) << hints;
  }
  if (want.contains("message_contains")) {
    expect_message_parts(hints, want.at("message_contains"));
  }
  std::string notes;
  bool suspicious = false;
  for (const auto& e : entries) {
    suspicious = suspicious || e.value("suspicious", false);
    notes += e.value("note", "") + "\n";
    if (e.value("suspicious", false)) {
      EXPECT_FALSE(e.contains("speedup")) << e.dump(2);
    }
  }
  if (want.contains("suspicious")) {
    EXPECT_EQ(suspicious, want.at("suspicious").get<bool>()) << entries.dump(2);
  }
  if (want.contains("note_contains")) {
    EXPECT_NE(notes.find(want.at("note_contains").get<std::string>()), std::string::npos) << notes;
  }
}

// Fixtures whose expect.json holds `part`.
std::vector<std::string> fixtures_with(const std::string& part) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(data_root() / "tests" / "fixtures")) {
    const auto expect = read_json(entry.path() / "expect.json");
    if (expect.is_object() && expect.contains(part)) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

class ExploitOnGpu : public testing::TestWithParam<std::string> {};

TEST_P(ExploitOnGpu, IsCaught) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const auto dir = data_root() / "tests" / "fixtures" / GetParam();
  const json expect = read_json(dir / "expect.json");
  ASSERT_TRUE(expect.is_object());
  const json report = grade_on_gpu(expect.at("assignment"), dir.string(), GetParam());
  ASSERT_TRUE(report.is_object());
  const json kernels = expect.value("kernels", json::object());
  const json performance = expect.value("performance", json::object());
  for (const auto& kernel : report.at("kernels")) {
    const std::string name = kernel.at("name");
    SCOPED_TRACE(GetParam() + ": " + name);
    check_status(kernel, kernels.contains(name)
                             ? kernels.at(name)
                             : json{{"status", expect.value("others", "passed")}});
    if (performance.contains(name)) {
      check_performance(kernel, performance.at(name));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ExploitOnGpu, testing::ValuesIn(fixtures_with("performance")),
                         [](const testing::TestParamInfo<std::string>& p) { return p.param; });

// The shipped spec of `assignment` with compute-sanitizer checks on and one small benchmark case
// (timing is not what these tests are about), written to `dir`.
fs::path sanitized_spec(const std::string& assignment, const fs::path& dir) {
  json spec = read_json(data_root() / "assignments" / assignment / "assignment.json");
  spec["sanitizer"] = {{"enabled", true}};
  const auto& problem = problems::get(problems::kind_named(spec.at("problem").get<std::string>()));
  json shape = json::object();
  for (const auto& p : problem.shape_params()) {
    shape[p.name] = problem.sanitizer_shapes().back().*p.field;
  }
  json small = json::object();
  small["shape"] = shape;
  small["distribution"] = problem.benchmark_cases()[0].distribution;
  spec["benchmark"] = {{"cases", json::array({small})}};
  const auto path = dir / (assignment + "-sanitized.json");
  std::ofstream(path) << spec.dump(2);
  return path;
}

class SanitizerOnGpu : public testing::TestWithParam<std::string> {};

TEST_P(SanitizerOnGpu, NamesTheKindAndTheLine) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const auto dir = data_root() / "tests" / "fixtures" / GetParam();
  const json expect = read_json(dir / "expect.json");
  const auto spec_dir = fresh_dir("sanitized-spec");
  const json report = grade_on_gpu(sanitized_spec(expect.at("assignment"), spec_dir).string(),
                                   dir.string(), GetParam());
  ASSERT_TRUE(report.is_object());
  const json wanted = expect.at("sanitizer").at("kernels");
  for (const auto& kernel : report.at("kernels")) {
    const std::string name = kernel.at("name");
    if (!wanted.contains(name)) {
      continue;
    }
    SCOPED_TRACE(GetParam() + ": " + name);
    const auto& want = wanted.at(name);
    EXPECT_EQ(kernel.value("status", ""), want.at("status")) << hint_text(kernel);
    if (want.contains("error_kind")) {
      EXPECT_EQ(kernel.value("error_kind", ""), want.at("error_kind")) << hint_text(kernel);
    }
    if (want.contains("message_contains")) {
      expect_message_parts(hint_text(kernel), want.at("message_contains"));
    }
    std::cout << "[ FINDING  ] " << kernel.value("message", "") << "\n";
  }
  fs::remove_all(spec_dir);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SanitizerOnGpu, testing::ValuesIn(fixtures_with("sanitizer")),
                         [](const testing::TestParamInfo<std::string>& p) { return p.param; });

// Insights on the GPU (docs/insight.md): each insight fixture graded on the GPU gets its causes
// from Nsight Compute's counters ("insight_gpu" in its expect.json where the GPU's words differ
// from emulation's, else "insight"), the report names the tool and its metrics, and the stage
// table has the insight's time per kernel.
class InsightOnGpu : public testing::TestWithParam<std::string> {};

TEST_P(InsightOnGpu, NamesTheFixturesCauseFromTheCounters) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const auto dir = data_root() / "tests" / "fixtures" / GetParam();
  const json expect = read_json(dir / "expect.json");
  // --perf: every kernel that passes, timed or not (the lectures' first forms carry no
  // performance points, and they are the fixtures' subjects).
  const json report = grade_on_gpu(expect.at("assignment"), dir.string(), GetParam(), {"--perf"});
  ASSERT_TRUE(report.is_object());
  const json wanted =
      expect.contains("insight_gpu") ? expect.at("insight_gpu") : expect.at("insight");
  for (const auto& [name, want] : wanted.items()) {
    SCOPED_TRACE(GetParam() + ": " + name);
    const json kernel = kernel_named(report, name);
    ASSERT_TRUE(kernel.contains("profile")) << kernel.dump(2);
    const json& profile = kernel.at("profile");
    if (profile.value("note", "").find("ERR_NVGPUCTRPERM") != std::string::npos) {
      GTEST_SKIP() << "this machine restricts the GPU's counters: " << profile.at("note");
    }
    EXPECT_EQ(profile.at("backend"), "gpu") << profile.dump(2);
    EXPECT_EQ(profile.at("tool").get<std::string>().rfind("Nsight Compute", 0), 0u)
        << profile.dump(2);
    EXPECT_FALSE(profile.value("counters", json::array()).empty()) << profile.dump(2);
    expect_insights(kernel, want);
    const auto stages = report.at("stages");
    EXPECT_TRUE(std::any_of(stages.begin(), stages.end(), [&](const json& st) {
      return st.at("stage") == "insight" && st.value("kernel", "") == name;
    })) << stages.dump();
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, InsightOnGpu, testing::ValuesIn(fixtures_with("insight")),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

TEST(SanitizerOnGpu, FindsNothingInTheReference) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  for (const auto& assignment : assignment_names()) {
    SCOPED_TRACE(assignment);
    const auto spec_dir = fresh_dir("sanitized-spec");
    const json report = grade_on_gpu(sanitized_spec(assignment, spec_dir).string(),
                                     (data_root() / "reference").string(), "reference");
    ASSERT_TRUE(report.is_object());
    for (const auto& k : report.at("kernels")) {
      EXPECT_EQ(k.value("status", ""), "passed") << k.value("name", "") << ": " << hint_text(k);
    }
    fs::remove_all(spec_dir);
  }
}

class ReferencePerformanceOnGpu : public testing::TestWithParam<std::string> {};

// Kernels with performance points are timed against the reference (themselves here): verified,
// plausible, speedups near 1, full performance points; the others are not timed.
TEST_P(ReferencePerformanceOnGpu, IsVerifiedWithSpeedupsNearOneAndFullMarks) {
  if (const auto why = no_gpu_reason(); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const json report = grade_on_gpu(GetParam(), (data_root() / "reference").string(), "reference");
  ASSERT_TRUE(report.is_object());
  EXPECT_DOUBLE_EQ(report.value("score", -1.0), report.value("max_score", -2.0));
  for (const auto& k : report.at("kernels")) {
    SCOPED_TRACE(k.value("name", ""));
    EXPECT_EQ(k.value("status", ""), "passed");
    EXPECT_FALSE(timed_calls_failed(k)) << hint_text(k);
    const json entries = k.value("performance", json::array());
    if (k.value("performance_max", 0.0) == 0) {
      EXPECT_TRUE(entries.empty()) << "only kernels with performance points are timed";
      continue;
    }
    ASSERT_FALSE(entries.empty()) << k.dump(2).substr(0, 3000);
    EXPECT_DOUBLE_EQ(k.value("performance_score", -1.0), k.value("performance_max", -2.0));
    for (const auto& e : entries) {
      EXPECT_FALSE(e.value("suspicious", true)) << e.dump(2);
      ASSERT_TRUE(e.contains("speedup")) << e.dump(2);
      EXPECT_NEAR(e.at("speedup").get<double>(), 1.0, 0.05) << e.dump(2);
      EXPECT_TRUE(e.contains("library_ms")) << e.dump(2);
      EXPECT_TRUE(e.contains("roof_percent")) << e.dump(2);
      std::cout << "[ PERF     ] " << k.value("name", "") << " " << e.value("shape", "") << "/"
                << e.value("distribution", "") << ": median " << e.value("median_ms", 0.0)
                << " ms, speedup " << e.value("speedup", 0.0) << " ["
                << e.value("speedup_ci_low", 0.0) << ", " << e.value("speedup_ci_high", 0.0)
                << "], " << e.value("samples", 0) << " samples, library "
                << e.value("library_ms", 0.0) << " ms\n";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Assignments, ReferencePerformanceOnGpu,
                         testing::ValuesIn(assignment_names()));

} // namespace
} // namespace cugrade::e2e
