// Errors in the file itself and in its structure: reading, syntax, keys, types.
#include "tests/spec/spec_fixture.h"

#include <unistd.h>

namespace cugrade::spec::testing {
namespace {

using Validation = SpecFixture;

TEST_F(Validation, TheValidSpecLoads) {
  auto loaded = load_json(valid_spec());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->name, "matmul");
  EXPECT_EQ(loaded->seed, 7u);
}

TEST_F(Validation, MissingFileSaysHowToNameASpec) {
  auto loaded = load_assignment((m_root / "specs" / "nothere.json").string(), m_root);
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"nothere.json", "no such file", "give an assignment name"});
}

TEST_F(Validation, UnreadableFileNamesFileAndFix) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "running as root, which reads files whatever their permissions";
  write(m_root / "specs" / "locked.json", valid_spec().dump());
  std::filesystem::permissions(m_root / "specs" / "locked.json", std::filesystem::perms::none);
  auto loaded = load_assignment((m_root / "specs" / "locked.json").string(), m_root);
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"specs/locked.json", "cannot read", "readable"});
}

TEST_F(Validation, ReadErrorNamesFileAndFix) {
  // Reading /proc/self/mem from offset 0 fails with EIO, even for root.
  if (!std::filesystem::exists("/proc/self/mem"))
    GTEST_SKIP() << "no /proc/self/mem to provoke a read error with";
  auto loaded = load_assignment("/proc/self/mem", m_root);
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"/proc/self/mem", "cannot read the spec", "readable"});
}

TEST_F(Validation, FolderWithoutSpecSaysSo) {
  std::filesystem::create_directories(m_root / "empty");
  auto loaded = load_assignment((m_root / "empty").string(), m_root);
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"empty", "has no assignment.json"});
}

TEST_F(Validation, SyntaxErrorGivesLineAndColumn) {
  // A trailing comma on line 3: the parser trips on the '}' at line 4, column 1.
  auto loaded =
      load_text("{\n  \"schema\": \"cugrade.assignment/1\",\n  \"name\": \"matmul\",\n}\n");
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(),
                  {"specs/broken.json", "line 4, column 1", "invalid JSON", "comma"});
}

TEST_F(Validation, SyntaxErrorNamesTheEnclosingField) {
  auto loaded = load_text("{\"kernels\": [{\"name\": \"matmul_naive\" \"points\": 1}]}");
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"line 1, column 38", "inside kernels[0]"});
}

TEST_F(Validation, DuplicateJsonKeyIsAnError) {
  auto loaded = load_text(R"({"schema": "cugrade.assignment/1", "tests": {"seed": 1, "seed": 2}})");
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"specs/broken.json", "tests.seed", "appears twice", "keep one"});
}

TEST_F(Validation, TopLevelMustBeAnObject) {
  auto loaded = load_text("[1, 2]");
  ASSERT_FALSE(loaded.ok());
  expect_contains(loaded.error(), {"specs/broken.json", "must be a JSON object", "an array"});
}

TEST_F(Validation, UnknownTopLevelKeySuggestsTheNearest) {
  auto spec = valid_spec();
  spec["dealine"] = "2026-12-01T23:59:00Z";
  expect_contains(error_of(spec),
                  {"specs/broken.json: dealine: unknown field", "did you mean \"deadline\"?"});
}

TEST_F(Validation, UnknownNestedKeySuggestsTheNearest) {
  auto spec = valid_spec();
  spec["kernels"][1]["point"] = 3;
  expect_contains(error_of(spec), {"kernels[1].point: unknown field", "did you mean \"points\"?"});
}

TEST_F(Validation, UnknownKeyWithoutNeighbourListsKnownFields) {
  auto spec = valid_spec();
  spec["limits"]["zzz"] = 1;
  expect_contains(error_of(spec), {"limits.zzz: unknown field", "compile_seconds, kernel_seconds"});
}

TEST_F(Validation, QuotedNumberIsAWrongType) {
  auto spec = valid_spec();
  spec["kernels"][0]["points"] = "10";
  expect_contains(error_of(spec), {"specs/broken.json: kernels[0].points: expected a number",
                                   "got string \"10\"", "without quotes", "\"points\": 10"});
}

TEST_F(Validation, ObjectWhereListBelongsIsAWrongType) {
  auto spec = valid_spec();
  spec["kernels"] = nlohmann::json::object();
  expect_contains(error_of(spec), {"kernels: expected an array", "got an object", "write e.g."});
}

TEST_F(Validation, MissingRequiredFieldSaysWhatToAdd) {
  auto spec = valid_spec();
  spec.erase("source");
  expect_contains(error_of(spec),
                  {"specs/broken.json", "required field \"source\" is missing", "add \"source\":"});
}

TEST_F(Validation, MissingNestedFieldNamesItsParent) {
  auto spec = valid_spec();
  spec["tests"]["groups"][2].erase("visibility");
  expect_contains(error_of(spec), {"tests.groups[2]: required field \"visibility\" is missing",
                                   "add \"visibility\": \"visible\""});
}

TEST_F(Validation, WrongSchemaNamesTheOneRead) {
  auto spec = valid_spec();
  spec["schema"] = "cugrade.assignment/9";
  expect_contains(error_of(spec), {"schema: \"cugrade.assignment/9\" is not a schema",
                                   "\"schema\": \"cugrade.assignment/1\""});
}

TEST_F(Validation, EveryErrorIsReportedAtOnce) {
  auto spec = valid_spec();
  spec["kernels"][0]["points"] = -1;
  spec["limits"]["kernel_seconds"] = 0;
  const std::string error = error_of(spec);
  expect_contains(error, {"kernels[0].points", "limits.kernel_seconds"});
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
}

} // namespace
} // namespace cugrade::spec::testing
