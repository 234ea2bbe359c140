// Errors in what the fields say: names, problems, shapes, points, weights, policies.
#include "tests/spec/spec_fixture.h"

#include <utility>

namespace cugrade::spec::testing {
namespace {

using ValidationRules = SpecFixture;

TEST_F(ValidationRules, UnknownProblemSuggestsTheNearest) {
  auto spec = valid_spec();
  spec["problem"] = "matmull";
  std::string kinds;
  for (const auto& name : problems::names())
    kinds += (kinds.empty() ? "" : ", ") + name;
  expect_contains(error_of(spec), {"specs/broken.json: problem: \"matmull\" is not a problem",
                                   kinds, "did you mean \"matmul\"?"});
}

TEST_F(ValidationRules, MisspeltLauncherGivesTheDocumentedMessage) {
  auto spec = valid_spec();
  spec["kernels"][1]["name"] = "matmul_tiles";
  expect_contains(error_of(spec),
                  {"specs/broken.json: kernels[1].name: \"matmul_tiles\" is not a launcher of "
                   "problem matmul (expected one of: matmul_naive, matmul_tiled, matmul_dynamic); "
                   "did you mean \"matmul_tiled\"?"});
}

TEST_F(ValidationRules, UnlistedLauncherMustBeAdded) {
  auto spec = valid_spec();
  spec["kernels"].erase(2);
  expect_contains(error_of(spec), {"kernels: launcher \"matmul_dynamic\"", "is not listed",
                                   "add {\"name\": \"matmul_dynamic\", \"points\": 10}"});
}

TEST_F(ValidationRules, DuplicateKernelIsAnError) {
  auto spec = valid_spec();
  spec["kernels"].push_back({{"name", "matmul_naive"}, {"points", 1}});
  expect_contains(error_of(spec), {"kernels[3].name", "listed twice", "keep one entry"});
}

TEST_F(ValidationRules, NegativePointsAreAnError) {
  auto spec = valid_spec();
  spec["kernels"][2]["performance_points"] = -5;
  expect_contains(error_of(spec),
                  {"kernels[2].performance_points", "between 0 and", "\"performance_points\": 10"});
}

TEST_F(ValidationRules, PerformanceInEmulationIsExcludedOrCounted) {
  auto spec = valid_spec();
  spec["performance"] = {{"full_speedup", 1.0}, {"zero_speedup", 0.5}, {"in_emulation", "count"}};
  expect_contains(error_of(spec), {"performance.in_emulation", "\"count\" is not a choice",
                                   "\"excluded\"", "\"counted\""});
}

TEST_F(ValidationRules, UnknownDistributionSuggestsTheNearest) {
  auto spec = valid_spec();
  spec["tests"]["groups"][1]["distributions"][0] = "reals";
  expect_contains(error_of(spec), {"tests.groups[1].distributions[0]: \"reals\" is not a "
                                   "distribution of problem matmul",
                                   "real, integer", "did you mean \"real\"?"});
}

TEST_F(ValidationRules, ShapeKeyOfAnotherProblemIsRejected) {
  auto spec = valid_spec();
  spec["tests"]["groups"][1]["shapes"][0] = {{"j", 3}, {"k", 4}, {"n", 5}};
  const std::string error = error_of(spec);
  expect_contains(
      error, {"tests.groups[1].shapes[0].n: \"n\" is not a size of problem matmul", "j, k and l"});
  expect_contains(error, {"tests.groups[1].shapes[0]: size \"l\" is missing",
                          R"({"j": 37, "k": 41, "l": 43})"});
}

TEST_F(ValidationRules, ShapeSizeBelowOneIsRejected) {
  auto spec = valid_spec();
  spec["tests"]["groups"][1]["shapes"][0]["k"] = 0;
  expect_contains(error_of(spec), {"tests.groups[1].shapes[0].k: must be a whole number from 1",
                                   "got 0", "\"k\": 37"});
}

TEST_F(ValidationRules, FractionalShapeSizeIsRejected) {
  auto spec = valid_spec();
  spec["tests"]["groups"][2]["shapes"][0]["j"] = 2.5;
  expect_contains(error_of(spec),
                  {"tests.groups[2].shapes[0].j: expected a whole number", "no fraction"});
}

TEST_F(ValidationRules, UnknownShapeKeywordIsRejected) {
  auto spec = valid_spec();
  spec["tests"]["groups"][0]["shapes"] = "edges";
  expect_contains(error_of(spec),
                  {"tests.groups[0].shapes: string \"edges\" is not a keyword", "write \"edge\""});
}

TEST_F(ValidationRules, DuplicateGroupNameIsAnError) {
  auto spec = valid_spec();
  spec["tests"]["groups"][2]["name"] = "odd";
  expect_contains(error_of(spec),
                  {"tests.groups[2].name", "group \"odd\" is defined twice", "its own name"});
}

TEST_F(ValidationRules, CaseInTwoGroupsIsAnError) {
  auto spec = valid_spec();
  spec["tests"]["groups"][2]["shapes"][0] = {{"j", 19}, {"k", 23}, {"l", 29}};
  expect_contains(error_of(spec), {"tests.groups[2]: case 19x23x29/real is also in group \"odd\"",
                                   "remove it from one"});
}

TEST_F(ValidationRules, NegativeWeightIsAnError) {
  auto spec = valid_spec();
  spec["tests"]["groups"][1]["weight"] = -1;
  expect_contains(error_of(spec), {"tests.groups[1].weight", "between 0 and", "\"weight\": 1"});
}

TEST_F(ValidationRules, ZeroTotalWeightIsAnError) {
  auto spec = valid_spec();
  for (auto& group : spec["tests"]["groups"])
    group["weight"] = 0;
  expect_contains(error_of(spec), {"tests.groups: every group has weight 0",
                                   "give at least one group a weight above 0"});
}

TEST_F(ValidationRules, BadVisibilityListsGradescopeWords) {
  auto spec = valid_spec();
  spec["tests"]["groups"][2]["visibility"] = "hiden";
  expect_contains(error_of(spec),
                  {"tests.groups[2].visibility: \"hiden\" is not a Gradescope visibility",
                   "visible, hidden, after_due_date, after_published", "did you mean \"hidden\"?"});
}

TEST_F(ValidationRules, LatePenaltyAboveOneIsRejected) {
  auto spec = valid_spec();
  spec["late_policy"]["penalty_per_day"] = 1.5;
  expect_contains(error_of(spec), {"late_policy.penalty_per_day: 1.5 is out of range",
                                   "from 0 to 1", "\"penalty_per_day\": 0.1"});
}

TEST_F(ValidationRules, NegativeMaxPenaltyIsRejected) {
  auto spec = valid_spec();
  spec["late_policy"]["max_penalty"] = -0.5;
  expect_contains(error_of(spec), {"late_policy.max_penalty: -0.5 is out of range"});
}

TEST_F(ValidationRules, ZeroTimeLimitIsRejected) {
  auto spec = valid_spec();
  spec["limits"]["compile_seconds"] = 0;
  expect_contains(error_of(spec), {"limits.compile_seconds: 0 is out of range", "above 0",
                                   "\"compile_seconds\": 120"});
}

TEST_F(ValidationRules, SubmissionSizeLimitsAreReadAndBounded) {
  auto spec = valid_spec();
  spec["limits"]["source_bytes"] = 2048;
  spec["limits"]["submission_bytes"] = 1 << 20;
  spec["limits"]["repository_bytes"] = 8 << 20;
  spec["limits"]["fetch_seconds"] = 30;
  auto loaded = load_json(spec);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->lim.source_bytes, 2048u);
  EXPECT_EQ(loaded->lim.submission_bytes, 1u << 20);
  EXPECT_EQ(loaded->lim.repository_bytes, 8u << 20);
  EXPECT_DOUBLE_EQ(loaded->lim.fetch_seconds, 30.0);
  spec["limits"]["source_bytes"] = 10;
  expect_contains(error_of(spec), {"limits.source_bytes: 10 is out of range", "1024 (1 KiB)",
                                   "\"source_bytes\": 1048576"});
  spec["limits"]["source_bytes"] = 4 << 20;
  expect_contains(error_of(spec), {"limits.source_bytes: must be at most submission_bytes"});
}

TEST_F(ValidationRules, SubmissionSizeLimitsDefaultToTheDocumentedValues) {
  auto spec = valid_spec();
  spec.erase("limits");
  auto loaded = load_json(spec);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->lim.source_bytes, 1u << 20);
  EXPECT_EQ(loaded->lim.submission_bytes, 64u << 20);
  EXPECT_EQ(loaded->lim.repository_bytes, 256u << 20);
  EXPECT_DOUBLE_EQ(loaded->lim.fetch_seconds, 300.0);
}

TEST_F(ValidationRules, DeadlineModeIsReadByName) {
  auto spec = valid_spec();
  for (const auto mode :
       {deadline_mode::last_on_time, deadline_mode::latest_with_penalty, deadline_mode::best_of}) {
    spec["late_policy"]["mode"] = to_string(mode);
    auto loaded = load_json(spec);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(loaded->late.mode, mode);
  }
  spec["late_policy"]["mode"] = "latest";
  expect_contains(error_of(spec), {"late_policy.mode: \"latest\" is not a deadline mode",
                                   "\"latest_with_penalty\"", "\"best_of\""});
}

TEST_F(ValidationRules, FullSpeedupMustExceedZeroSpeedup) {
  auto spec = valid_spec();
  spec["performance"] = {{"full_speedup", 0.5}, {"zero_speedup", 0.5}};
  expect_contains(error_of(spec), {"performance.full_speedup: must be above zero_speedup",
                                   "\"full_speedup\": 1.0, \"zero_speedup\": 0.5"});
}

TEST_F(ValidationRules, UnknownTolerancePolicyIsRejected) {
  auto spec = valid_spec();
  spec["tolerance"]["policy"] = "fp32";
  expect_contains(error_of(spec), {"tolerance.policy: \"fp32\" is not a tolerance policy",
                                   "did you mean \"fp32-any-order\"?"});
}

TEST_F(ValidationRules, ReferenceWithoutTheSourceIsRejected) {
  std::filesystem::create_directories(m_root / "solutions");
  auto spec = valid_spec();
  spec["reference"] = "solutions";
  expect_contains(error_of(spec), {"specs/broken.json: reference: directory \"solutions\"",
                                   "has no matmul.cu", "put the reference solution there"});
}

TEST_F(ValidationRules, MissingReferenceDirectoryIsRejected) {
  auto spec = valid_spec();
  spec["reference"] = "nowhere";
  expect_contains(error_of(spec), {"reference: directory \"nowhere\"", "does not exist"});
}

TEST_F(ValidationRules, SourceMustBeAPlainCudaFile) {
  auto spec = valid_spec();
  spec["source"] = "src/matmul.cpp";
  expect_contains(error_of(spec), {"source: \"src/matmul.cpp\" must be a plain file name ending "
                                   "in .cu"});
}

TEST_F(ValidationRules, BadDeadlineShowsTheFormat) {
  auto spec = valid_spec();
  spec["deadline"] = "2026-02-30T23:59:00Z";
  expect_contains(error_of(spec),
                  {"deadline: \"2026-02-30T23:59:00Z\" is not a date and time cugrade understands",
                   "2026-11-21T23:59:00Z", "2026-11-21 (the end of that day, UTC)"});
}

TEST_F(ValidationRules, DeadlineAcceptsTheFormsOfTheCommandLine) {
  // The spec and --deadline share one parser: a date alone is the end of that day, a time
  // without a zone is UTC.
  for (const auto& [text, utc] : {std::pair{"2026-12-01", "2026-12-01T23:59:59Z"},
                                  std::pair{"2026-12-01 18:30", "2026-12-01T18:30:00Z"},
                                  std::pair{"2026-12-01T23:59:00+0100", "2026-12-01T22:59:00Z"}}) {
    auto spec = valid_spec();
    spec["deadline"] = text;
    auto loaded = load_json(spec);
    ASSERT_TRUE(loaded.ok()) << text << ": " << loaded.error();
    EXPECT_EQ(loaded->deadline, utc) << text;
  }
}

TEST_F(ValidationRules, DeadlineWithOffsetIsStoredInUtc) {
  auto spec = valid_spec();
  spec["deadline"] = "2026-12-01T20:00:00-05:00";
  auto loaded = load_json(spec);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->deadline, "2026-12-02T01:00:00Z");
}

TEST_F(ValidationRules, NameMustMatchItsFolder) {
  auto spec = valid_spec();
  spec["name"] = "matmul2";
  write(m_root / "assignments" / "matmul" / "assignment.json", spec.dump(2));
  auto loaded = load_assignment("matmul", m_root);
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"assignments/matmul/assignment.json: name: \"matmul2\" "
                                   "differs from the folder name \"matmul\"",
                                   "rename one"});
}

TEST_F(ValidationRules, EmptyBenchmarkListIsRejected) {
  auto spec = valid_spec();
  spec["benchmark"]["cases"] = nlohmann::json::array();
  expect_contains(error_of(spec), {"benchmark.cases: is an empty list", "write \"default\""});
}

} // namespace
} // namespace cugrade::spec::testing
