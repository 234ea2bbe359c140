// The registry of problem kinds: every kind answers every question the rest of cugrade asks it,
// and the generic text forms (describe, parse_description, all_multiples_of) agree with its
// shape parameters.
#include "harness/problems/problem.h"

#include "harness/core/error.h"

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
    EXPECT_EQ(find_kind(name).value(), p->id());
  }
  EXPECT_EQ(names().size(), all().size());
}

TEST(Registry, EveryRegisteredNameRoundTrips) {
  for (const std::string& name : names()) {
    const auto k = find_kind(name);
    ASSERT_TRUE(k) << name;
    EXPECT_EQ(to_string(*k), name);
    EXPECT_EQ(kind_named(name), *k);
    EXPECT_EQ(get(*k).name(), name);
    EXPECT_TRUE(k->registered());
  }
}

TEST(Registry, NoTwoProblemsShareANameOrAKind) {
  const auto& problems = all();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    for (std::size_t j = i + 1; j < problems.size(); ++j) {
      EXPECT_NE(problems[i]->name(), problems[j]->name());
      EXPECT_NE(problems[i]->id(), problems[j]->id());
    }
  }
}

TEST(Registry, AnUnknownNameIsRefusedNamingTheKnownKinds) {
  for (const char* typo : {"matmull", "Matmul", "", "convolution "}) {
    const auto k = find_kind(typo);
    ASSERT_FALSE(k) << typo;
    EXPECT_NE(k.error().find("unknown problem kind \"" + std::string(typo) + "\""),
              std::string::npos)
        << k.error();
    for (const std::string& name : names()) {
      EXPECT_NE(k.error().find(name), std::string::npos) << k.error();
    }
    EXPECT_THROW((void)kind_named(typo), cugrade::error);
  }
}

TEST(Registry, NoKindIsNoneOfTheRegisteredOnesAndIsRefusedWhereUsed) {
  const kind none;
  EXPECT_FALSE(none.registered());
  for (const problem* p : all()) {
    EXPECT_NE(none, p->id());
  }
  EXPECT_THROW((void)get(none), cugrade::error);
  EXPECT_THROW((void)to_string(none), cugrade::error);
  const test_case without_kind{
      .name = "n=7/uniform", .problem = kind{}, .dims = {.n = 7}, .distribution = "uniform"};
  EXPECT_THROW((void)get(kind_named("histogram")).generate(without_kind), cugrade::error);
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
    EXPECT_FALSE(parse_description(kind_named("reduction"), text).has_value()) << text;
  }
  for (const char* text : {"", "3x4", "3x4x", "3x0x5", "3x4x5x6", "n=5", "axbxc"}) {
    EXPECT_FALSE(parse_description(kind_named("matmul"), text).has_value()) << text;
  }
  EXPECT_EQ(parse_description(kind_named("matmul"), "3x4x5"), (shape{.j = 3, .k = 4, .l = 5}));
}

TEST(Registry, MultiplesLookAtEveryParameter) {
  EXPECT_TRUE(all_multiples_of(kind_named("matmul"), {.j = 16, .k = 32, .l = 48}, 16));
  EXPECT_FALSE(all_multiples_of(kind_named("matmul"), {.j = 16, .k = 32, .l = 47}, 16));
  EXPECT_TRUE(all_multiples_of(kind_named("histogram"), {.n = 4096}, 16));
  EXPECT_FALSE(all_multiples_of(kind_named("histogram"), {.n = 4097}, 16));
}

} // namespace
} // namespace cugrade::problems
