// The instructor's hidden groups live in a file of their own, merged by grade and batch and never
// read by check.
#include "tests/spec/spec_fixture.h"

#include <algorithm>

namespace cugrade::spec::testing {
namespace {

class HiddenGroups : public SpecFixture {
protected:
  void SetUp() override {
    SpecFixture::SetUp();
    nlohmann::json spec = valid_spec();
    spec["tests"]["groups"].erase(2); // the public spec keeps no hidden group
    write(m_root / "specs" / "matmul" / "assignment.json", spec.dump(2));
  }

  static nlohmann::json hidden_file() {
    return nlohmann::json::parse(R"({
      "schema": "cugrade.hidden/1",
      "assignment": "matmul",
      "groups": [{"name": "secret", "visibility": "hidden", "weight": 2,
                  "shapes": [{"j": 1, "k": 1000, "l": 1}], "distributions": ["real"]}]
    })");
  }

  void write_beside(const nlohmann::json& hidden) {
    write(m_root / "specs" / "matmul" / "hidden.json", hidden.dump(2));
  }

  result<assignment_spec> load(const load_options& options) {
    return load_assignment((m_root / "specs" / "matmul").string(), m_root, options);
  }

  std::string error_of(const load_options& options) {
    auto loaded = load(options);
    EXPECT_FALSE(loaded.ok());
    return loaded.ok() ? std::string() : loaded.error();
  }
};

load_options loading(hidden_tests hidden, std::filesystem::path file = {}, bool reference = true) {
  load_options o;
  o.hidden = hidden;
  o.hidden_file = std::move(file);
  o.require_reference = reference;
  return o;
}

bool has_group(const assignment_spec& spec, const std::string& name) {
  return std::any_of(spec.groups.begin(), spec.groups.end(),
                     [&](const test_group& g) { return g.name == name; });
}

TEST_F(HiddenGroups, AreMergedFromTheFileBesideTheSpec) {
  write_beside(hidden_file());
  auto plain = load(loading(hidden_tests::none));
  auto merged = load(loading(hidden_tests::beside_spec));
  ASSERT_TRUE(plain.ok()) << plain.error();
  ASSERT_TRUE(merged.ok()) << merged.error();
  EXPECT_FALSE(has_group(*plain, "secret"));
  ASSERT_TRUE(has_group(*merged, "secret"));
  EXPECT_EQ(merged->groups.back().vis, visibility::hidden);
  EXPECT_EQ(merged->groups.back().cases.at(0).dims, (problems::shape{.j = 1, .k = 1000, .l = 1}));
  EXPECT_DOUBLE_EQ(merged->total_weight(), plain->total_weight() + 2);
  EXPECT_NE(merged->spec_sha256, plain->spec_sha256) << "a report names both files";
}

TEST_F(HiddenGroups, EverythingWorksWithoutTheFile) {
  auto loaded = load(loading(hidden_tests::beside_spec));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->groups.size(), 2u);
}

TEST_F(HiddenGroups, CheckNeverReadsTheFile) {
  write(m_root / "specs" / "matmul" / "hidden.json", "{ not json");
  EXPECT_TRUE(load(loading(hidden_tests::none)).ok());
  expect_contains(error_of(loading(hidden_tests::beside_spec)), {"hidden.json", "invalid JSON"});
}

TEST_F(HiddenGroups, ComeFromAGivenFileAnywhere) {
  write(m_root / "private" / "matmul-hidden.json", hidden_file().dump());
  auto loaded = load(loading(hidden_tests::from_file, m_root / "private" / "matmul-hidden.json"));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_TRUE(has_group(*loaded, "secret"));
  expect_contains(error_of(loading(hidden_tests::from_file, m_root / "nowhere.json")),
                  {"nowhere.json", "cannot read the hidden groups", "--hidden FILE"});
}

TEST_F(HiddenGroups, AVisibleGroupBelongsInTheSpec) {
  auto hidden = hidden_file();
  hidden["groups"][0]["visibility"] = "visible";
  write_beside(hidden);
  expect_contains(error_of(loading(hidden_tests::beside_spec)),
                  {"hidden.json", "groups[0].visibility", "belong in assignment.json"});
}

TEST_F(HiddenGroups, NamesTheirAssignmentAndSchema) {
  auto hidden = hidden_file();
  hidden["assignment"] = "reduction";
  hidden["schema"] = "cugrade.hidden/9";
  hidden["group"] = hidden["groups"];
  write_beside(hidden);
  expect_contains(error_of(loading(hidden_tests::beside_spec)),
                  {"hidden.json: assignment: \"reduction\" is not the assignment",
                   "hidden.json: schema: \"cugrade.hidden/9\"", "\"group\""});
}

TEST_F(HiddenGroups, MayNotRepeatAGroupOrACaseOfTheSpec) {
  auto hidden = hidden_file();
  hidden["groups"][0]["name"] = "odd";
  hidden["groups"].push_back(nlohmann::json::parse(
      R"({"name": "again", "visibility": "hidden", "shapes": [{"j": 19, "k": 23, "l": 29}],
          "distributions": ["real"]})"));
  write_beside(hidden);
  expect_contains(error_of(loading(hidden_tests::beside_spec)),
                  {"groups[0].name: group \"odd\" is defined twice",
                   "case 19x23x29/real is also in group \"odd\""});
}

TEST_F(HiddenGroups, CheckNeedsNoReferenceSolution) {
  std::filesystem::remove_all(m_root / "reference");
  EXPECT_FALSE(load(loading(hidden_tests::none)).ok());
  auto loaded = load(loading(hidden_tests::none, {}, false));
  EXPECT_TRUE(loaded.ok()) << loaded.error();
}

} // namespace
} // namespace cugrade::spec::testing
