// The registry of problem kinds: every kind answers every question the rest of cugrade asks it,
// and the generic text forms (describe, parse_description, all_multiples_of) agree with its
// shape parameters.
#include "harness/problems/problem.h"

#include <gtest/gtest.h>

#include <set>

namespace cugrade::problems {
namespace {

TEST(Registry, NamesAreUniqueAndPlainAndFindTheirKind) {
  std::set<std::string> seen;
  for (const problem* p : all()) {
    const std::string name(p->name());
    EXPECT_TRUE(seen.insert(name).second) << name << " twice";
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string::npos) << name;
    EXPECT_EQ(&get(p->id()), p);
    EXPECT_EQ(kind_from_string(name), p->id());
  }
  EXPECT_EQ(names().size(), all().size());
}

TEST(Registry, EveryKindHasParametersShapesAndWords) {
  for (const problem* p : all()) {
    SCOPED_TRACE(std::string(p->name()));
    const auto params = p->shape_params();
    ASSERT_FALSE(params.empty());
    for (const auto& param : params) {
      EXPECT_FALSE(param.name.empty());
      EXPECT_NE(param.field, nullptr);
      EXPECT_GE(param.example, 1);
      EXPECT_GE(param.largest, param.example);
    }
    EXPECT_FALSE(p->shape_words().empty());
    EXPECT_FALSE(p->launchers().empty());
    EXPECT_FALSE(p->distributions().empty());
    EXPECT_FALSE(p->benchmark_cases().empty());
    const auto sanitizer = p->sanitizer_shapes();
    ASSERT_FALSE(sanitizer.empty());
    std::vector<case_template> templates;
    for (const auto& s : sanitizer) {
      templates.push_back({s, p->distributions().front()});
    }
    EXPECT_NO_THROW((void)make_cases(p->id(), templates, 1)); // valid shapes
    for (const auto topic : {advice_topic::boundary, advice_topic::race, advice_topic::barrier}) {
      EXPECT_GT(p->advice(topic).size(), 20u);
    }
  }
}

TEST(Registry, DescriptionsRoundTripOverEveryEdgeAndBenchmarkShape) {
  for (const problem* p : all()) {
    std::vector<shape> shapes = p->edge_shapes();
    for (const auto& b : p->benchmark_cases()) {
      shapes.push_back(b.dims);
    }
    for (const auto& s : shapes) {
      const std::string text = describe(p->id(), s);
      EXPECT_EQ(parse_description(p->id(), text), s) << text;
    }
  }
}

TEST(Registry, ParseDescriptionRefusesMalformedText) {
  for (const char* text : {"", "n=", "n=0", "n=-3", "n=12x", "m=5", "12"}) {
    EXPECT_FALSE(parse_description(kind::reduction, text).has_value()) << text;
  }
  for (const char* text : {"", "3x4", "3x4x", "3x0x5", "3x4x5x6", "n=5", "axbxc"}) {
    EXPECT_FALSE(parse_description(kind::matmul, text).has_value()) << text;
  }
  EXPECT_EQ(parse_description(kind::matmul, "3x4x5"), (shape{.j = 3, .k = 4, .l = 5}));
}

TEST(Registry, MultiplesLookAtEveryParameter) {
  EXPECT_TRUE(all_multiples_of(kind::matmul, {.j = 16, .k = 32, .l = 48}, 16));
  EXPECT_FALSE(all_multiples_of(kind::matmul, {.j = 16, .k = 32, .l = 47}, 16));
  EXPECT_TRUE(all_multiples_of(kind::histogram, {.n = 4096}, 16));
  EXPECT_FALSE(all_multiples_of(kind::histogram, {.n = 4097}, 16));
}

} // namespace
} // namespace cugrade::problems
