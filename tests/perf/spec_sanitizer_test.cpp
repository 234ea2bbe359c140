// The "sanitizer" field of assignment specs: on when absent, defaults, validation.

#include "grader/spec/assignment_spec.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cugrade::spec {
namespace {

namespace fs = std::filesystem;

const fs::path root = CUGRADE_SOURCE_DIR;

nlohmann::json shipped(const std::string& name) {
  std::ifstream in(root / "assignments" / name / "assignment.json");
  return nlohmann::json::parse(in);
}

result<assignment_spec> parse(const std::string& name, const nlohmann::json& doc) {
  return parse_assignment(doc.dump(2), root / "assignments" / name / "assignment.json", root);
}

TEST(SpecSanitizer, IsOnByDefaultWithEveryToolOnSmallShapes) {
  for (const auto& name : known_assignments(root)) {
    const auto spec = load_assignment(name, root);
    ASSERT_TRUE(spec.ok()) << spec.error();
    EXPECT_TRUE(spec->sanitizer.enabled) << name;
    EXPECT_EQ(spec->sanitizer.tools, sanitizer_tools()) << name;
    EXPECT_EQ(spec->sanitizer.shapes.size(), 2u) << name;
  }
}

TEST(SpecSanitizer, CanBeTurnedOff) {
  auto doc = shipped("reduction");
  doc["sanitizer"] = {{"enabled", false}};
  const auto spec = parse("reduction", doc);
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_FALSE(spec->sanitizer.enabled);
}

TEST(SpecSanitizer, AnObjectWithoutEnabledIsOn) {
  auto doc = shipped("reduction");
  doc["sanitizer"] = {{"tools", {"memcheck"}}};
  const auto spec = parse("reduction", doc);
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_TRUE(spec->sanitizer.enabled);
  EXPECT_EQ(spec->sanitizer.tools, std::vector<std::string>{"memcheck"});
}

TEST(SpecSanitizer, EnabledGetsSmallDefaultShapesAndEveryTool) {
  auto doc = shipped("histogram");
  doc["sanitizer"] = {{"enabled", true}};
  const auto spec = parse("histogram", doc);
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_TRUE(spec->sanitizer.enabled);
  EXPECT_EQ(spec->sanitizer.tools, sanitizer_tools());
  ASSERT_FALSE(spec->sanitizer.shapes.empty());
  for (const auto& s : spec->sanitizer.shapes) {
    EXPECT_GT(s.n, 0);
    EXPECT_LE(s.n, 1 << 20);
  }
}

TEST(SpecSanitizer, TakesShapesAndTools) {
  auto doc = shipped("matmul");
  doc["sanitizer"] = nlohmann::json::parse(
      R"({"enabled": true, "shapes": [{"j": 5, "k": 6, "l": 7}], "tools": ["memcheck"]})");
  const auto spec = parse("matmul", doc);
  ASSERT_TRUE(spec.ok()) << spec.error();
  ASSERT_EQ(spec->sanitizer.shapes.size(), 1u);
  EXPECT_EQ(spec->sanitizer.shapes[0], (problems::shape{.j = 5, .k = 6, .l = 7}));
  EXPECT_EQ(spec->sanitizer.tools, std::vector<std::string>{"memcheck"});
}

TEST(SpecSanitizer, RejectsWhatItCannotUseWithThePathAndAFix) {
  auto doc = shipped("reduction");
  doc["sanitizer"] = nlohmann::json::parse(
      R"({"enabled": "yes", "tools": ["memchek"], "shapes": [{"j": 3}], "extra": 1})");
  const auto spec = parse("reduction", doc);
  ASSERT_FALSE(spec.ok());
  const std::string& e = spec.error();
  EXPECT_NE(e.find("sanitizer.enabled: expected true or false"), std::string::npos) << e;
  EXPECT_NE(e.find("sanitizer.tools[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("memcheck"), std::string::npos) << e;
  EXPECT_NE(e.find("sanitizer.shapes[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("sanitizer.extra"), std::string::npos) << e;
}

} // namespace
} // namespace cugrade::spec
