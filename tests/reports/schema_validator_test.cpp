// The validator on small hand-written schemas, one keyword at a time.
#include <gtest/gtest.h>

#include "reports/schema_validator.h"

namespace cugrade::reports {
namespace {

using json = nlohmann::json;

std::string joined(const std::vector<std::string>& errors) {
  std::string out;
  for (const std::string& e : errors) {
    out += e + "\n";
  }
  return out;
}

void expect_valid(const json& schema, const json& doc) {
  const auto errors = validate(schema, doc);
  EXPECT_TRUE(errors.empty()) << doc.dump() << "\n" << joined(errors);
}

// Invalid, and the first message contains `fragment`.
void expect_invalid(const json& schema, const json& doc, const std::string& fragment) {
  const auto errors = validate(schema, doc);
  ASSERT_FALSE(errors.empty()) << doc.dump() << " passed " << schema.dump();
  EXPECT_NE(joined(errors).find(fragment), std::string::npos) << joined(errors);
}

TEST(SchemaValidator, TypeAcceptsNamesAndArraysOfNames) {
  expect_valid({{"type", "string"}}, "x");
  expect_valid({{"type", json::array({"number", "null"})}}, nullptr);
  expect_valid({{"type", json::array({"number", "null"})}}, 2.5);
  expect_invalid({{"type", json::array({"number", "null"})}}, "2.5",
                 "(root): expected type one of");
  expect_invalid({{"type", "object"}}, json::array(), "got array");
}

TEST(SchemaValidator, IntegerAcceptsWholeFloatsOnly) {
  expect_valid({{"type", "integer"}}, 3);
  expect_valid({{"type", "integer"}}, 3.0);
  expect_invalid({{"type", "integer"}}, 3.5, "expected type \"integer\"");
  expect_invalid({{"type", "integer"}}, true, "got boolean");
}

TEST(SchemaValidator, EnumAndConst) {
  const json schema = {{"enum", json::array({"passed", "failed"})}};
  expect_valid(schema, "failed");
  expect_invalid(schema, "pass", R"("pass" is not one of ["passed","failed"])");
  expect_valid({{"const", 1}}, 1.0);
  expect_invalid({{"const", "a"}}, "b", "\"b\" is not \"a\"");
}

TEST(SchemaValidator, RequiredPropertiesAndAdditionalProperties) {
  const json schema = json::parse(R"({
    "type": "object", "required": ["a"], "additionalProperties": false,
    "properties": {"a": {"type": "object", "required": ["b/c"],
                         "additionalProperties": {"type": "integer"}}}})");
  expect_valid(schema, json::parse(R"({"a": {"b/c": 1, "d": 2}})"));
  expect_invalid(schema, json::object(), "(root): missing required property \"a\"");
  expect_invalid(schema, json::parse(R"({"a": {"b/c": 1}, "z": 0})"),
                 "/z: property \"z\" is not allowed here");
  expect_invalid(schema, json::parse(R"({"a": {"b/c": 1, "d": "x"}})"), "/a/d: expected type");
  expect_invalid(schema, json::parse(R"({"a": {"b/c": "x"}})"), "/a/b~1c:");
}

TEST(SchemaValidator, ItemsAndMinItems) {
  const json schema = {{"type", "array"}, {"minItems", 1}, {"items", {{"type", "number"}}}};
  expect_valid(schema, {1, 2});
  expect_invalid(schema, json::array(), "fewer than 1");
  expect_invalid(schema, {1, "two"}, "/1: expected type");
}

TEST(SchemaValidator, NumericBoundsApplyOnlyToNumbers) {
  const json schema = {{"minimum", 0}, {"maximum", 10}, {"exclusiveMaximum", 10}};
  expect_valid(schema, 0);
  expect_valid(schema, "not a number");
  expect_invalid(schema, -1, "less than the minimum");
  expect_invalid(schema, 10, "not less than");
  expect_invalid(schema, 11, "greater than the maximum");
}

TEST(SchemaValidator, StringLengthAndPattern) {
  const json schema = {{"minLength", 2}, {"maxLength", 3}, {"pattern", "^[a-z]+$"}};
  expect_valid(schema, "ab");
  // Lengths count characters, not bytes: two e-acute are 4 bytes.
  expect_valid({{"maxLength", 2}}, "\xC3\xA9\xC3\xA9");
  expect_invalid(schema, "a", "shorter than 2");
  expect_invalid(schema, "abcd", "longer than 3");
  expect_invalid(schema, "aB", "does not match the pattern");
  expect_valid({{"pattern", "b"}}, "abc"); // patterns are unanchored
}

TEST(SchemaValidator, LocalReferencesResolve) {
  const json schema = json::parse(R"({
    "$defs": {"status": {"enum": ["ok"]}, "list": {"type": "array", "items": {"$ref": "#/$defs/status"}}},
    "$ref": "#/$defs/list"})");
  expect_valid(schema, json::array({"ok"}));
  expect_invalid(schema, json::array({"ok", "bad"}), "/1: \"bad\" is not one of");
  expect_invalid({{"$ref", "#/$defs/none"}}, 1, "schema error");
  expect_invalid({{"$ref", "other.json#/x"}}, 1, "only local references");
}

TEST(SchemaValidator, ReferenceCyclesAreReportedNotFatal) {
  expect_invalid({{"$ref", "#"}}, 1, "$ref cycle");
}

TEST(SchemaValidator, AnyOfOneOfAllOfNot) {
  const json real = {
      {"anyOf", {{{"type", "number"}}, {{"enum", json::array({"NaN", "Infinity"})}}}}};
  expect_valid(real, 1.5);
  expect_valid(real, "NaN");
  expect_invalid(real, "nan", "matches none of the 2 alternatives of anyOf");
  const json one = {{"oneOf", {{{"type", "integer"}}, {{"type", "number"}}}}};
  expect_valid(one, 1.5);
  expect_invalid(one, 1, "matches 2 alternatives of oneOf");
  expect_invalid({{"allOf", {{{"type", "number"}}, {{"minimum", 5}}}}}, 3, "less than the minimum");
  expect_invalid({{"not", {{"type", "null"}}}}, nullptr, "must not match");
}

TEST(SchemaValidator, IfThenElse) {
  const json schema = json::parse(R"({
    "if": {"properties": {"gradable": {"const": false}}},
    "then": {"properties": {"score": {"type": "null"}}},
    "else": {"properties": {"score": {"type": "number"}}}})");
  expect_valid(schema, json::parse(R"({"gradable": false, "score": null})"));
  expect_valid(schema, json::parse(R"({"gradable": true, "score": 3})"));
  expect_invalid(schema, json::parse(R"({"gradable": false, "score": 3})"), "/score: expected");
  expect_invalid(schema, json::parse(R"({"gradable": true, "score": null})"), "/score: expected");
}

TEST(SchemaValidator, BooleanSchemas) {
  expect_valid(true, 1);
  expect_invalid(false, 1, "no value is allowed here");
}

TEST(SchemaValidator, UnsupportedKeywordsAreSchemaErrors) {
  expect_invalid({{"patternProperties", json::object()}}, json::object(),
                 "schema error at #: unsupported keyword \"patternProperties\"");
  expect_invalid({{"pattern", "("}}, "x", "bad regular expression");
}

TEST(SchemaValidator, AnnotationsAreIgnored) {
  expect_valid({{"title", "t"}, {"description", "d"}, {"$comment", "c"}, {"format", "date-time"}},
               "not a date");
}

} // namespace
} // namespace cugrade::reports
