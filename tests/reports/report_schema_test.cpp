// The checked-in schema against the writer: every report the writer produces validates, and the
// schema rejects what the contract forbids, naming the place by JSON pointer.
#include <fstream>

#include <gtest/gtest.h>

#include "reports/report_json.h"
#include "reports/schema_validator.h"
#include "sample_report.h"

namespace cugrade::reports {
namespace {

using json = nlohmann::json;

const std::filesystem::path schema_path = CUGRADE_REPORT_SCHEMA;

json schema_file() {
  std::ifstream in(schema_path);
  return json::parse(in);
}

std::string joined_errors(const std::vector<std::string>& errors) {
  std::string out;
  for (const std::string& e : errors) {
    out += e + "\n";
  }
  return out;
}

void expect_rejected(const json& doc, const std::string& fragment) {
  const auto errors = validate_report(doc, schema_path);
  ASSERT_FALSE(errors.empty()) << "accepted: " << doc.dump(2);
  EXPECT_NE(joined_errors(errors).find(fragment), std::string::npos) << joined_errors(errors);
}

TEST(ReportSchema, FullReportValidates) {
  const auto errors = validate_report(to_json(redact(testing::sample_report())), schema_path);
  EXPECT_TRUE(errors.empty()) << joined_errors(errors);
}

TEST(ReportSchema, EmbeddedSchemaIsTheCheckedInFile) {
  EXPECT_EQ(report_schema(), schema_file());
  EXPECT_TRUE(validate_report(to_json(redact(testing::sample_report()))).empty());
}

TEST(ReportSchema, EveryKernelStatusAndBackendValidates) {
  for (std::size_t s = 0; s < names_of<kernel_status>().size(); ++s) {
    for (std::size_t b = 0; b < names_of<backend_kind>().size(); ++b) {
      report r = testing::sample_report();
      r.kernels[0].status = static_cast<kernel_status>(s);
      r.environment.backend = static_cast<backend_kind>(b);
      r.build.status = static_cast<build_status>(s % names_of<build_status>().size());
      const auto errors = validate_report(to_json(redact(r)), schema_path);
      EXPECT_TRUE(errors.empty()) << names_of<kernel_status>()[s] << "\n" << joined_errors(errors);
    }
  }
}

TEST(ReportSchema, MinimalAndUngradableReportsValidate) {
  report r;
  r.created_at = now_iso8601_utc();
  EXPECT_FALSE(r.score.has_value());
  r.score = 0;
  EXPECT_TRUE(validate_report(to_json(redact(r)), schema_path).empty());
  mark_ungradable(r, "no CUDA-capable device is detected");
  const json j = to_json(redact(r));
  EXPECT_TRUE(j["score"].is_null());
  const auto errors = validate_report(j, schema_path);
  EXPECT_TRUE(errors.empty()) << joined_errors(errors);
}

TEST(ReportSchema, UngradableWithAScoreOrWithoutAReasonIsRejected) {
  json j = to_json(redact(testing::sample_report()));
  j["gradable"] = false;
  expect_rejected(j, "/score: expected type \"null\"");
  j["score"] = nullptr;
  expect_rejected(j, "/infrastructure_error: \"\" is shorter than 1");
}

TEST(ReportSchema, GradableWithoutAScoreIsRejected) {
  json j = to_json(redact(testing::sample_report()));
  j["score"] = nullptr;
  expect_rejected(j, "/score: expected type \"number\"");
}

TEST(ReportSchema, MissingFieldIsRejectedWithItsPointer) {
  json j = to_json(redact(testing::sample_report()));
  j["kernels"][1].erase("max_score");
  expect_rejected(j, "/kernels/1: missing required property \"max_score\"");
  j = to_json(redact(testing::sample_report()));
  j.erase("created_at");
  expect_rejected(j, "(root): missing required property \"created_at\"");
}

TEST(ReportSchema, WrongEnumIsRejectedWithItsPointer) {
  json j = to_json(redact(testing::sample_report()));
  j["kernels"][0]["status"] = "pass";
  expect_rejected(j, "/kernels/0/status: \"pass\" is not one of [\"passed\",");
  j = to_json(redact(testing::sample_report()));
  j["environment"]["backend"] = "cuda";
  expect_rejected(j, "/environment/backend: \"cuda\" is not one of [\"gpu\",\"emu\"]");
}

TEST(ReportSchema, WrongTypeIsRejectedWithItsPointer) {
  json j = to_json(redact(testing::sample_report()));
  j["kernels"][0]["score"] = "12";
  expect_rejected(j, "/kernels/0/score: expected type \"number\", got string");
  j = to_json(redact(testing::sample_report()));
  j["submission"]["late_days"] = 1.5;
  expect_rejected(j, "/submission/late_days: expected type \"integer\"");
}

TEST(ReportSchema, UnknownFieldsAndBadFormatsAreRejected) {
  json j = to_json(redact(testing::sample_report()));
  j["kernels"][0]["bonus"] = 3;
  expect_rejected(j, "/kernels/0/bonus: property \"bonus\" is not allowed");
  j = to_json(redact(testing::sample_report()));
  j["created_at"] = "yesterday";
  expect_rejected(j, "/created_at: \"yesterday\" does not match");
  j = to_json(redact(testing::sample_report()));
  j["assignment"]["spec_sha256"] = "abc";
  expect_rejected(j, "/assignment/spec_sha256");
  j = to_json(redact(testing::sample_report()));
  j["kernels"][1]["tests"][0]["max_abs_error"] = "huge";
  expect_rejected(j, "/kernels/1/tests/0/max_abs_error: matches none");
}

// A kind's own hint codes are not listed in the schema: any word of a code's form validates, the
// same form hint_code::well_formed() checks.
TEST(ReportSchema, AHintCodeIsAnyWordOfTheCodesForm) {
  json j = to_json(redact(testing::sample_report()));
  j["kernels"][1]["diagnosis"][0]["code"] = "halo_not_loaded";
  EXPECT_TRUE(validate_report(j, schema_path).empty())
      << joined_errors(validate_report(j, schema_path));
  for (const char* bad : {"Halo", "halo-not-loaded", "9lives"}) {
    EXPECT_FALSE(hint_code::well_formed(bad));
    j["kernels"][1]["diagnosis"][0]["code"] = bad;
    expect_rejected(j, "/kernels/1/diagnosis/0/code: \"" + std::string(bad) + "\" does not match");
  }
}

TEST(ReportSchema, HiddenTestWithDetailsIsRejected) {
  json j = to_json(redact(testing::sample_report()));
  j["kernels"][1]["tests"][1]["shape"] = "7x7x7";
  expect_rejected(j, "/kernels/1/tests/1/shape: property \"shape\" is not allowed");
  j = to_json(redact(testing::sample_report()));
  j["kernels"][1]["tests"][1]["name"] = "7x7x7/real";
  expect_rejected(j, "/kernels/1/tests/1/name");
}

// The schema's enums are the C++ name tables; adding a value to one without the other fails here.
TEST(ReportSchema, EnumsMatchTheModel) {
  const json schema = schema_file();
  const auto names = [](auto span) {
    json out = json::array();
    for (const std::string_view n : span) {
      out.push_back(std::string(n));
    }
    return out;
  };
  const json& defs = schema["$defs"];
  EXPECT_EQ(defs["kernel"]["properties"]["status"]["enum"], names(names_of<kernel_status>()));
  EXPECT_EQ(defs["test_status"]["enum"], names(names_of<test_status>()));
  EXPECT_EQ(defs["visibility"]["enum"], names(names_of<visibility>()));
  EXPECT_EQ(defs["environment"]["properties"]["backend"]["enum"], names(names_of<backend_kind>()));
  EXPECT_EQ(defs["build"]["properties"]["status"]["enum"], names(names_of<build_status>()));
  EXPECT_EQ(defs["hint"]["properties"]["code"]["pattern"], "^[a-z][a-z0-9_]{0,63}$");
  EXPECT_EQ(defs["kernel"]["properties"]["error_kind"]["enum"], names(names_of<fault_kind>()));
  EXPECT_EQ(schema["properties"]["schema"]["const"], std::string(schema_id));
}

TEST(ReportSchema, UnreadableSchemaFileIsOneMessageNamingIt) {
  const auto errors = validate_report(json::object(), "/nonexistent/report.schema.json");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("/nonexistent/report.schema.json"), std::string::npos);
}

} // namespace
} // namespace cugrade::reports
