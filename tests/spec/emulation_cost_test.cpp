// Spec sanity: a shape the emulator cannot finish within the kernel limit is a warning at load
// time, a group marked gpu_only is never estimated, and the shipped specs load without a warning.
// Nothing here grades or runs a kernel.
#include "grader/spec/emulation_cost.h"
#include "tests/spec/spec_fixture.h"

#include <cmath>

namespace cugrade::spec::testing {
namespace {

class EmulationCost : public SpecFixture {
protected:
  static nlohmann::json group(const std::string& name, nlohmann::json shapes) {
    return {{"name", name},
            {"visibility", "visible"},
            {"weight", 1},
            {"shapes", std::move(shapes)},
            {"distributions", {"real"}}};
  }

  /// The fixture's valid spec with `g` as its fourth group.
  static nlohmann::json with_group(nlohmann::json g) {
    auto spec = valid_spec();
    spec["tests"]["groups"].push_back(std::move(g));
    return spec;
  }
};

TEST_F(EmulationCost, AShapeEmulationCannotFinishIsAWarningThatSaysWhatToDo) {
  auto loaded = load_json(with_group(group("large", {{{"j", 4000}, {"k", 4000}, {"l", 4000}}})));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  // 4000^3 = 6.4e10 multiply-adds at matmul's pace of 5e7 a second: 1280 s, about 21 min.
  expect_contains(loaded->warnings[0],
                  {"matmul: group \"large\": 4000x4000x4000 needs about 6.4e10 multiply-adds: "
                   "about 21 min a run in emulation, 43 min for its 2 runs",
                   "each kernel has 60 s (limits.kernel_seconds)",
                   "lower it, or mark the group gpu-only (\"gpu_only\": true)"});
}

TEST_F(EmulationCost, AGpuOnlyGroupIsNeverEstimated) {
  auto large = group("large", {{{"j", 4000}, {"k", 4000}, {"l", 4000}}});
  large["gpu_only"] = true;
  auto loaded = load_json(with_group(large));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_TRUE(loaded->warnings.empty()) << loaded->warnings.front();
  EXPECT_TRUE(loaded->groups.back().gpu_only);
  EXPECT_FALSE(loaded->groups.front().gpu_only) << "gpu_only is off unless a group says so";
}

TEST_F(EmulationCost, TheLimitDecides) {
  // 1000^3 multiply-adds: 20 s a run, 40 s for 2 runs; warned about under a 30 s limit only.
  auto spec = with_group(group("medium", {{{"j", 1000}, {"k", 1000}, {"l", 1000}}}));
  auto under_limit = load_json(spec);
  ASSERT_TRUE(under_limit.ok()) << under_limit.error();
  EXPECT_TRUE(under_limit->warnings.empty()) << under_limit->warnings.front();
  spec["limits"]["kernel_seconds"] = 30;
  auto over_limit = load_json(spec);
  ASSERT_TRUE(over_limit.ok()) << over_limit.error();
  ASSERT_EQ(over_limit->warnings.size(), 1u);
  expect_contains(over_limit->warnings[0], {"1000x1000x1000 needs about 1.0e9 multiply-adds",
                                            "about 20 s a run", "40 s for its 2 runs"});
}

TEST_F(EmulationCost, ShapesThatFitAloneButNotTogetherGiveOneWarningForTheTotal) {
  // Four shapes of 30 s each (7.5e8 multiply-adds, 15 s a run, 2 runs): none over 60 s alone.
  nlohmann::json shapes = nlohmann::json::array();
  for (const int j : {750, 751, 752, 753})
    shapes.push_back({{"j", j}, {"k", 1000}, {"l", 1000}});
  auto loaded = load_json(with_group(group("many", shapes)));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  expect_contains(loaded->warnings[0],
                  {"matmul: the emulated cases need about", "per kernel in emulation",
                   "the longest: group \"many\", 753x1000x1000", "raise limits.kernel_seconds"});
}

TEST_F(EmulationCost, EveryDistributionAndRunCounts) {
  // 1000^3 multiply-adds: 20 s a run; 2 runs fit in 60 s, 2 distributions x 2 runs do not.
  auto g = group("medium", {{{"j", 1000}, {"k", 1000}, {"l", 1000}}});
  auto loaded = load_json(with_group(g));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_TRUE(loaded->warnings.empty()) << loaded->warnings.front();
  g["distributions"] = {"real", "integer"};
  loaded = load_json(with_group(g));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  expect_contains(loaded->warnings[0], {"for its 4 runs (2 distributions, 2 runs each)"});
}

TEST_F(EmulationCost, AHiddenGroupIsEstimatedWhenMerged) {
  auto spec = valid_spec();
  spec["tests"]["groups"].erase(2);
  write(m_root / "specs" / "matmul" / "assignment.json", spec.dump(2));
  write(m_root / "specs" / "matmul" / "hidden.json", R"({
    "schema": "cugrade.hidden/1", "assignment": "matmul",
    "groups": [{"name": "secret", "visibility": "hidden", "weight": 2,
                "shapes": [{"j": 3000, "k": 3000, "l": 3000}], "distributions": ["real"]}]})");
  const auto folder = (m_root / "specs" / "matmul").string();
  auto plain = load_assignment(folder, m_root);
  auto merged = load_assignment(folder, m_root, load_options{});
  ASSERT_TRUE(plain.ok()) << plain.error();
  ASSERT_TRUE(merged.ok()) << merged.error();
  EXPECT_TRUE(plain->warnings.empty()) << "check never reads the hidden file";
  ASSERT_EQ(merged->warnings.size(), 1u);
  expect_contains(merged->warnings[0], {"group \"secret\": 3000x3000x3000 needs about 2.7e10"});
}

TEST_F(EmulationCost, GpuOnlyMustBeTrueOrFalse) {
  auto g = group("large", {{{"j", 40}, {"k", 40}, {"l", 40}}});
  g["gpu_only"] = "yes";
  expect_contains(error_of(with_group(g)),
                  {"specs/broken.json: tests.groups[3].gpu_only: expected true or false, got "
                   "string \"yes\"; write \"gpu_only\": true"});
}

TEST_F(EmulationCost, EveryGroupGpuOnlyLeavesEmulationNothingToTest) {
  auto spec = valid_spec();
  for (auto& g : spec["tests"]["groups"])
    g["gpu_only"] = true;
  expect_contains(error_of(spec), {"specs/broken.json: tests.groups: every group is gpu_only",
                                   "leave at least one group without \"gpu_only\": true"});
}

// Every kind has a pace, and its estimate grows with the shape.
TEST(EmulationPace, EveryKindEstimatesLargerShapesAsLonger) {
  for (const problems::problem* p : problems::all()) {
    const auto pace = p->emulated_pace();
    EXPECT_GT(pace.units_per_second, 0) << p->name();
    EXPECT_GT(pace.flops_per_unit, 0) << p->name();
    EXPECT_FALSE(pace.unit.empty()) << p->name();
    problems::shape small, large;
    for (const auto& param : p->shape_params()) {
      small.*param.field = 100;
      large.*param.field = 10000;
    }
    const double a = emulated_seconds_per_run(p->id(), small);
    const double b = emulated_seconds_per_run(p->id(), large);
    EXPECT_TRUE(std::isfinite(a) && a > 0) << p->name();
    EXPECT_GT(b, a) << p->name();
  }
}

// The shipped assignments, hidden groups included, finish in emulation by the estimate.
class ShippedSpecCost : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedSpecCost, LoadsWithoutAWarning) {
  auto spec = load_assignment(GetParam(), CUGRADE_SOURCE_DIR, load_options{});
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_TRUE(spec->warnings.empty()) << spec->warnings.front();
}

INSTANTIATE_TEST_SUITE_P(Assignments, ShippedSpecCost,
                         ::testing::ValuesIn(known_assignments(CUGRADE_SOURCE_DIR)));

} // namespace
} // namespace cugrade::spec::testing
