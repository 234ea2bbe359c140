#include "grader/spec/detail/json_document.h"

#include <gtest/gtest.h>

namespace cugrade::spec::detail {
namespace {

TEST(PositionOf, CountsLinesAndColumnsFromOne) {
  const std::string_view text = "ab\ncde\n\nf";
  EXPECT_EQ(position_of(text, 0).line, 1u);
  EXPECT_EQ(position_of(text, 0).column, 1u);
  EXPECT_EQ(position_of(text, 4).line, 2u);
  EXPECT_EQ(position_of(text, 4).column, 2u);
  EXPECT_EQ(position_of(text, 8).line, 4u);
  EXPECT_EQ(position_of(text, 8).column, 1u);
  EXPECT_EQ(position_of(text, 100).line, 4u); // clamped to the end
}

TEST(ParseJson, ReadsValidDocuments) {
  auto doc = parse_json(R"({"a": [1, {"b": true}], "c": "x"})", "f.json");
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ((*doc)["a"][1]["b"], true);
  EXPECT_EQ((*doc)["c"], "x");
}

TEST(ParseJson, SameKeyInDifferentObjectsIsFine) {
  auto doc = parse_json(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 3}, {"x": 4}]})", "f.json");
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ((*doc)["c"][1]["x"], 4);
}

TEST(ParseJson, DuplicateKeyGivesItsPath) {
  auto doc = parse_json(R"({"c": [{"x": 3}, {"x": 4, "x": 5}]})", "f.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().find("f.json: c[1].x: this key appears twice"), std::string::npos)
      << doc.error();
}

TEST(ParseJson, CommentIsASyntaxError) {
  auto doc = parse_json("{\n  // note\n  \"a\": 1\n}", "f.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().find("f.json: line 2, column 3"), std::string::npos) << doc.error();
  EXPECT_NE(doc.error().find("no comments"), std::string::npos) << doc.error();
}

TEST(ParseJson, TruncatedDocumentIsASyntaxError) {
  auto doc = parse_json("{\"a\": [1, 2", "f.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().find("f.json: line 1"), std::string::npos) << doc.error();
  EXPECT_NE(doc.error().find("inside a"), std::string::npos) << doc.error();
}

} // namespace
} // namespace cugrade::spec::detail
