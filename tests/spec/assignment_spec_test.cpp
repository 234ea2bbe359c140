#include "tests/spec/spec_fixture.h"

#include "harness/core/sha256.h"

#include <cmath>

namespace cugrade::spec::testing {
namespace {

TEST(LatePenaltyFraction, IsZeroWhenOnTime) {
  const late_policy policy{0.1, 0.5, 0};
  EXPECT_DOUBLE_EQ(late_penalty_fraction(policy, 0), 0.0);
  EXPECT_DOUBLE_EQ(late_penalty_fraction(policy, -2), 0.0);
}

TEST(LatePenaltyFraction, GrowsPerDay) {
  EXPECT_DOUBLE_EQ(late_penalty_fraction({0.1, 0.5, 0}, 3), 0.3);
  EXPECT_DOUBLE_EQ(late_penalty_fraction({0.25, 1.0, 0}, 1), 0.25);
}

TEST(LatePenaltyFraction, IsCappedAtMaxPenalty) {
  EXPECT_DOUBLE_EQ(late_penalty_fraction({0.1, 0.5, 0}, 9), 0.5);
  EXPECT_DOUBLE_EQ(late_penalty_fraction({0.4, 1.0, 0}, 3), 1.0);
}

TEST(ExplainLatePenalty, ShowsTheArithmeticAndThePolicy) {
  EXPECT_EQ(explain_late_penalty({0.1, 0.5, 15}, 1, 4.0),
            "1 day late x 10% a day = -4.00 (policy: 10% a day, at most 50%, 15 min grace)");
  EXPECT_EQ(explain_late_penalty({0.1, 0.5, 0}, 3, 12.0),
            "3 days late x 10% a day = -12.00 (policy: 10% a day, at most 50%)");
}

TEST(ExplainLatePenalty, SaysWhenTheCapApplies) {
  EXPECT_EQ(explain_late_penalty({0.1, 0.5, 0}, 9, 20.0),
            "9 days late x 10% a day = 90%, capped at 50% = -20.00 (policy: 10% a day, at most "
            "50%)");
}

TEST(ExplainLatePenalty, IsEmptyWhenNothingWasDeducted) {
  EXPECT_EQ(explain_late_penalty({0.1, 0.5, 0}, 0, 0.0), "");
  EXPECT_EQ(explain_late_penalty({0.1, 0.5, 0}, 2, 0.0), ""); // a zero score loses nothing
}

TEST(PerformanceFraction, IsLinearBetweenTheEnds) {
  const performance_curve curve{1.0, 0.5};
  EXPECT_DOUBLE_EQ(performance_fraction(curve, 0.4), 0.0);
  EXPECT_DOUBLE_EQ(performance_fraction(curve, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(performance_fraction(curve, 0.75), 0.5);
  EXPECT_DOUBLE_EQ(performance_fraction(curve, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(performance_fraction(curve, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(performance_fraction(curve, std::nan("")), 0.0);
}

TEST(Visibility, RoundTripsGradescopeWords) {
  for (const auto& word : visibility_words())
    EXPECT_EQ(to_string(visibility_from_string(word).value()), word);
  EXPECT_EQ(visibility_from_string("secret"), std::nullopt);
  EXPECT_EQ(visibility_words().size(), 4u);
}

using SpecModel = SpecFixture;

TEST_F(SpecModel, ScoresAddUp) {
  auto loaded = load_json(valid_spec());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_DOUBLE_EQ(loaded->max_score(), 50.0); // 10 + 15 + 5 + 15 + 5
  EXPECT_DOUBLE_EQ(loaded->total_weight(), 4.0);
  ASSERT_NE(loaded->find_kernel("matmul_tiled"), nullptr);
  EXPECT_DOUBLE_EQ(loaded->find_kernel("matmul_tiled")->performance_points, 5.0);
  EXPECT_EQ(loaded->find_kernel("matmul_tiles"), nullptr);
}

TEST_F(SpecModel, GroupsCrossShapesWithDistributions) {
  auto loaded = load_json(valid_spec());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const auto& odd = loaded->groups.at(1);
  ASSERT_EQ(odd.cases.size(), 2u);
  EXPECT_EQ(odd.cases[0].dims, (problems::shape{.j = 19, .k = 23, .l = 29}));
  EXPECT_EQ(odd.cases[0].distribution, "real");
  EXPECT_EQ(odd.cases[1].distribution, "integer");
  EXPECT_EQ(loaded->groups.at(2).vis, visibility::hidden);
  const auto& definition = problems::get(problems::kind_named("matmul"));
  EXPECT_EQ(loaded->groups.at(0).cases.size(),
            definition.edge_shapes().size() * definition.distributions().size());
}

TEST_F(SpecModel, OmittedOptionalFieldsTakeDefaults) {
  auto spec = valid_spec();
  for (const char* key : {"title", "reference", "benchmark", "performance", "tolerance", "limits",
                          "late_policy", "deadline"})
    spec.erase(key);
  auto loaded = load_json(spec);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->title, "matmul");
  EXPECT_EQ(loaded->reference_dir, m_root / "reference");
  EXPECT_EQ(loaded->benchmarks.size(),
            problems::get(problems::kind_named("matmul")).benchmark_cases().size());
  EXPECT_EQ(loaded->tolerance_policy, "fp32-any-order");
  EXPECT_DOUBLE_EQ(loaded->lim.compile_seconds, 120.0);
  EXPECT_DOUBLE_EQ(loaded->late.max_penalty, 0.0);
  EXPECT_EQ(loaded->deadline, std::nullopt);
}

TEST_F(SpecModel, ExplicitBenchmarkCasesAreRead) {
  auto spec = valid_spec();
  spec["benchmark"]["cases"] = nlohmann::json::parse(
      R"([{"shape": {"j": 512, "k": 256, "l": 128}, "distribution": "integer"}])");
  auto loaded = load_json(spec);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->benchmarks.size(), 1u);
  EXPECT_EQ(loaded->benchmarks[0].dims, (problems::shape{.j = 512, .k = 256, .l = 128}));
  EXPECT_EQ(loaded->benchmarks[0].distribution, "integer");
}

TEST_F(SpecModel, Sha256IsStableAndFollowsTheBytes) {
  const std::string text = valid_spec().dump(2);
  auto first = load_text(text);
  auto again = load_text(text);
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_EQ(first->spec_sha256, again->spec_sha256);
  EXPECT_EQ(first->spec_sha256, sha256_hex(text));
  EXPECT_EQ(first->spec_sha256.size(), 64u);
  auto changed = load_text(text + "\n"); // same meaning, other bytes
  ASSERT_TRUE(changed.ok());
  EXPECT_NE(changed->spec_sha256, first->spec_sha256);
}

TEST_F(SpecModel, LoadsByNameFolderOrFile) {
  const auto file = m_root / "assignments" / "matmul" / "assignment.json";
  write(file, valid_spec().dump(2));
  for (const std::string& how :
       {std::string("matmul"), (m_root / "assignments/matmul").string(), file.string()}) {
    auto loaded = load_assignment(how, m_root);
    ASSERT_TRUE(loaded.ok()) << how << ": " << loaded.error();
    EXPECT_EQ(loaded->spec_path, file) << how;
  }
}

TEST_F(SpecModel, UnknownAssignmentNameSuggestsAKnownOne) {
  write(m_root / "assignments" / "matmul" / "assignment.json", valid_spec().dump(2));
  auto loaded = load_assignment("matmal", m_root);
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"no assignment called \"matmal\"", "did you mean \"matmul\"?"});
}

TEST_F(SpecModel, EmptyNameListsTheKnownAssignments) {
  write(m_root / "assignments" / "matmul" / "assignment.json", valid_spec().dump(2));
  auto loaded = load_assignment("", m_root);
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"no assignment given", "matmul"});
}

TEST_F(SpecModel, KnownAssignmentsListsFoldersWithSpecs) {
  write(m_root / "assignments" / "b" / "assignment.json", "{}");
  write(m_root / "assignments" / "a" / "assignment.json", "{}");
  std::filesystem::create_directories(m_root / "assignments" / "no_spec");
  EXPECT_EQ(known_assignments(m_root), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(known_assignments(m_root / "nowhere").empty());
}

} // namespace
} // namespace cugrade::spec::testing
