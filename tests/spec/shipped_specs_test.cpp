// The specs shipped in assignments/ load, grade exactly their problem's launchers, and keep the
// emulated suite small.
#include "grader/spec/assignment_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace cugrade::spec {
namespace {

const std::filesystem::path project_root = CUGRADE_SOURCE_DIR;

class ShippedSpec : public ::testing::TestWithParam<std::string> {};

// Every problem kind ships an assignment of its own name, and every assignment is one of them.
TEST(ShippedSpecs, KnownAssignmentsAreTheProblemKinds) {
  auto kinds = problems::names();
  std::sort(kinds.begin(), kinds.end());
  EXPECT_EQ(known_assignments(project_root), kinds);
}

TEST_P(ShippedSpec, LoadsAndGradesExactlyTheLaunchers) {
  auto spec = load_assignment(GetParam(), project_root);
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->name, GetParam());
  EXPECT_EQ(problems::to_string(spec->problem), GetParam());
  EXPECT_EQ(spec->source_file, GetParam() + ".cu");
  std::vector<std::string> names;
  for (const auto& k : spec->kernels)
    names.push_back(k.name);
  EXPECT_EQ(names, problems::get(spec->problem).launchers());
  EXPECT_GT(spec->max_score(), 0.0);
  EXPECT_TRUE(std::filesystem::is_regular_file(spec->reference_dir / spec->source_file));
}

// Students need assignment.json for `cugrade check`: it holds no hidden group.
TEST_P(ShippedSpec, AssignmentJsonHoldsNoHiddenGroup) {
  auto spec = load_assignment(GetParam(), project_root);
  ASSERT_TRUE(spec.ok()) << spec.error();
  for (const auto& g : spec->groups)
    EXPECT_EQ(g.vis, visibility::visible) << g.name;
}

TEST_P(ShippedSpec, HasAHiddenGroupWithItsOwnShapes) {
  auto spec = load_assignment(GetParam(), project_root, load_options{});
  ASSERT_TRUE(spec.ok()) << spec.error();
  std::set<std::string> visible_shapes;
  for (const auto& g : spec->groups)
    if (g.vis == visibility::visible)
      for (const auto& c : g.cases)
        visible_shapes.insert(problems::describe(spec->problem, c.dims));
  const auto hidden = std::find_if(spec->groups.begin(), spec->groups.end(),
                                   [](const test_group& g) { return g.vis == visibility::hidden; });
  ASSERT_NE(hidden, spec->groups.end());
  for (const auto& c : hidden->cases)
    EXPECT_FALSE(visible_shapes.contains(problems::describe(spec->problem, c.dims)))
        << problems::describe(spec->problem, c.dims) << " is visible too";
}

// Cases outside the problem's own edge set stay small, so the emulated suite runs in seconds.
TEST_P(ShippedSpec, ExtraCasesStayModerate) {
  auto spec = load_assignment(GetParam(), project_root, load_options{});
  ASSERT_TRUE(spec.ok()) << spec.error();
  const auto edge = problems::get(spec->problem).edge_shapes();
  for (const auto& g : spec->groups)
    for (const auto& c : g.cases) {
      if (std::find(edge.begin(), edge.end(), c.dims) != edge.end())
        continue;
      const auto params = problems::get(spec->problem).shape_params();
      double work = 1;
      for (const auto& p : params)
        work *= double(c.dims.*p.field);
      EXPECT_LT(work, params.size() > 1 ? 60e6 : 5e6)
          << g.name << ": " << problems::describe(spec->problem, c.dims);
    }
}

INSTANTIATE_TEST_SUITE_P(Assignments, ShippedSpec,
                         ::testing::ValuesIn(known_assignments(project_root)));

} // namespace
} // namespace cugrade::spec
