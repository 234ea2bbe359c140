#include "tests/e2e/fixture_check.h"

#include "tests/e2e/e2e_support.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::e2e {

namespace {

using nlohmann::json;

json expectations_for(const json& expect, const std::string& backend) {
  json kernels = json::object();
  if (expect.contains("kernels")) {
    kernels = expect.at("kernels");
  }
  if (expect.contains(backend)) {
    const auto& overrides = expect.at(backend);
    std::cout << "[ NOTE     ] on " << backend << ": " << overrides.value("why", "") << "\n";
    if (overrides.contains("kernels")) {
      for (const auto& [name, value] : overrides.at("kernels").items()) {
        kernels[name] = value;
      }
    }
  }
  return kernels;
}

std::string all_messages(const json& kernel) {
  std::string text = kernel.value("message", "");
  for (const auto& h : kernel.value("diagnosis", json::array())) {
    text += "\n" + h.value("message", "");
  }
  return text;
}

void check_status(const json& kernel, const json& want) {
  const std::string got = kernel.value("status", "");
  if (want.contains("status_one_of")) {
    const auto options = want.at("status_one_of").get<std::vector<std::string>>();
    EXPECT_NE(std::find(options.begin(), options.end(), got), options.end())
        << "status " << got << "\n"
        << kernel.dump(2).substr(0, 3000);
  } else {
    EXPECT_EQ(got, want.value("status", "passed")) << kernel.dump(2).substr(0, 3000);
  }
}

// The hint a student reads first: its code, its source line, words it must not use.
void check_first_hint(const json& kernel, const json& want) {
  const json hints = kernel.value("diagnosis", json::array());
  const std::string listing = hints.dump(2);
  if (want.contains("first_hint")) {
    ASSERT_FALSE(hints.empty()) << "no hints at all";
    EXPECT_EQ(hints[0].value("code", ""), want.at("first_hint").get<std::string>()) << listing;
  }
  if (want.contains("first_hint_location")) {
    ASSERT_FALSE(hints.empty()) << "no hints at all";
    EXPECT_EQ(hints[0].value("location", ""), want.at("first_hint_location").get<std::string>())
        << listing;
  }
  if (want.contains("first_hint_contains")) {
    ASSERT_FALSE(hints.empty()) << "no hints at all";
    EXPECT_NE(hints[0].value("message", "").find(want.at("first_hint_contains").get<std::string>()),
              std::string::npos)
        << listing;
  }
  if (want.contains("first_hint_excludes")) {
    ASSERT_FALSE(hints.empty()) << "no hints at all";
    EXPECT_EQ(hints[0].value("message", "").find(want.at("first_hint_excludes").get<std::string>()),
              std::string::npos)
        << listing;
  }
  for (const auto& code : want.value("no_hint", json::array())) {
    EXPECT_FALSE(has_hint(kernel, code))
        << "hint " << code << " contradicted yet shown: " << listing;
  }
}

// On the GPU, a kernel that compute-sanitizer checked (its report has a sanitizer stage) meets the
// fixture's "sanitizer" expectations where it has them: the spec turns the checks on by default.
bool sanitizer_checked(const json& report, const std::string& kernel) {
  for (const auto& s : report.value("stages", json::array())) {
    if (s.value("stage", "") == "sanitizer" && s.value("kernel", "") == kernel) {
      return true;
    }
  }
  return false;
}

// The debug output the report keeps per test: "output_contains" in some test's output, and
// "output_capped": a case that wrote more than it kept, no case over 4 KiB, the kernel within
// 64 KiB.
void check_debug_output(const json& kernel, const json& want) {
  std::string all;
  std::size_t kept = 0;
  bool cut = false;
  for (const auto& t : kernel.value("tests", json::array())) {
    const std::string text = t.value("output", "");
    all += text;
    kept += text.size();
    EXPECT_LE(text.size(), 4096u) << t.dump();
    cut = cut || t.value("output_bytes", std::size_t{0}) > text.size();
  }
  if (want.contains("output_contains")) {
    for (const auto& part : want.at("output_contains")) {
      EXPECT_NE(all.find(part.get<std::string>()), std::string::npos)
          << "no test's output holds " << part << ":\n"
          << all.substr(0, 4000);
    }
  }
  if (want.value("output_capped", false)) {
    EXPECT_TRUE(cut) << "no case's output was cut";
    EXPECT_LE(kept, 65536u);
  }
}

} // namespace

void expect_message_parts(const std::string& text, const json& parts) {
  for (const auto& part : parts.is_array() ? parts : json::array({parts})) {
    EXPECT_NE(text.find(part.get<std::string>()), std::string::npos) << text;
  }
}

namespace {

void check_kernel(const json& kernel, const json& want) {
  check_status(kernel, want);
  check_debug_output(kernel, want);
  check_first_hint(kernel, want);
  if (want.contains("error_kind")) {
    EXPECT_EQ(kernel.value("error_kind", json()).dump(), want.at("error_kind").dump());
  }
  if (want.contains("hint")) {
    EXPECT_TRUE(has_hint(kernel, want.at("hint")))
        << "no hint " << want.at("hint") << " in " << kernel.value("diagnosis", json()).dump(2);
  }
  if (want.contains("message_contains")) {
    expect_message_parts(all_messages(kernel), want.at("message_contains"));
  }
  if (want.contains("forbidden_contains")) {
    EXPECT_NE(kernel.value("forbidden_symbols", json::array())
                  .dump()
                  .find(want.at("forbidden_contains").get<std::string>()),
              std::string::npos)
        << kernel.value("forbidden_symbols", json()).dump();
  }
}

// A field of expect.json, overridden per backend ("emu": {"build_summary_contains": ...}).
json expected_field(const json& expect, const std::string& backend, const std::string& field) {
  if (expect.contains(backend) && expect.at(backend).contains(field)) {
    return expect.at(backend).at(field);
  }
  return expect.value(field, json());
}

void check_build(const json& report, const json& expect, const std::string& backend) {
  const json& build = report.at("build");
  if (const json status = expected_field(expect, backend, "build_status"); !status.is_null()) {
    EXPECT_EQ(build.at("status"), status) << build.dump(2);
  }
  if (const json part = expected_field(expect, backend, "build_summary_contains");
      !part.is_null()) {
    EXPECT_NE(build.value("summary", "").find(part.get<std::string>()), std::string::npos)
        << "build summary lacks " << part << ":\n"
        << build.value("summary", "");
  }
}

// What a student is told about each kernel: its verdict and every hint, in order. Recorded per
// backend in the fixture's verdicts.<backend>.json, so a refactoring that changes any verdict or
// hint of an existing fixture fails here (CUGRADE_RECORD_VERDICTS=1 writes the files anew).
// Kernels whose expect.json allows several statuses (a race the backend may or may not show), or
// says why their hints vary from run to run (`why_hints_vary`: lost updates between blocks, whose
// count depends on which blocks overlap), are left out: their verdict is not reproducible.
json verdicts_of(const json& report, const json& wanted) {
  json out = json::object();
  for (const auto& kernel : report.at("kernels")) {
    const std::string name = kernel.at("name");
    if (wanted.contains(name) &&
        (wanted.at(name).contains("status_one_of") || wanted.at(name).contains("why_hints_vary"))) {
      continue;
    }
    json hints = json::array();
    for (const auto& h : kernel.value("diagnosis", json::array())) {
      hints.push_back({{"code", h.value("code", "")},
                       {"message", h.value("message", "")},
                       {"location", h.value("location", "")}});
    }
    out[name] = {{"status", kernel.value("status", "")},
                 {"error_kind", kernel.value("error_kind", json())},
                 {"hints", hints}};
  }
  return out;
}

void check_recorded_verdicts(const std::filesystem::path& dir, const std::string& backend,
                             const json& report, const json& wanted) {
  const auto file = dir / ("verdicts." + backend + ".json");
  const json now = verdicts_of(report, wanted);
  if (const char* record = std::getenv("CUGRADE_RECORD_VERDICTS"); record && *record) {
    std::ofstream(file) << now.dump(2) << "\n";
    return;
  }
  if (!std::filesystem::exists(file)) {
    return; // not recorded for this backend (GPU verdicts are recorded on a GPU)
  }
  EXPECT_EQ(now, read_json(file)) << "verdicts or hints differ from " << file << ":\n"
                                  << now.dump(2).substr(0, 6000);
}

} // namespace

void expect_no_internal_names(const std::string& text, const std::string& where) {
  for (const char* internal : internal_names()) {
    EXPECT_EQ(text.find(internal), std::string::npos)
        << where << " shows the internal name " << internal << ":\n"
        << text.substr(0, 6000);
  }
}

const std::vector<const char*>& internal_names() {
  static const std::vector<const char*> names{
      ".emu.cpp", "cugrade::emu", "cugrade_emu::", "gpu_backend.cu", "(anonymous namespace)"};
  return names;
}

std::vector<std::string> unexplained_differences(const json& expect) {
  std::vector<std::string> gaps;
  const json kernels = expect.value("kernels", json::object());
  for (const auto& [name, want] : kernels.items()) {
    if (want.contains("status_one_of") && want.value("why_status_one_of", "").empty()) {
      gaps.push_back("kernels." + name + ": status_one_of without why_status_one_of");
    }
  }
  for (const char* backend : {"emu", "gpu"}) {
    if (expect.contains(backend) && expect.at(backend).value("why", "").empty()) {
      gaps.push_back(std::string(backend) + ": overrides without a why"); // its why covers all
    }
  }
  return gaps;
}

void check_fixture(const std::string& fixture, const std::string& backend) {
  const auto dir = fixtures_dir() / fixture;
  const json expect = read_json(dir / "expect.json");
  ASSERT_TRUE(expect.is_object()) << "unreadable " << (dir / "expect.json");
  const auto out = fresh_dir(fixture);
  // An assignment's name, or a spec of the fixture's own ("assignment.json", in its folder).
  std::string assignment = expect.at("assignment");
  if (assignment.ends_with(".json")) {
    assignment = (dir / assignment).string();
  }
  std::vector<std::string> args{"grade",
                                assignment,
                                dir.string(),
                                "--backend",
                                backend,
                                "--out",
                                out.string(),
                                "--student",
                                fixture,
                                "--format",
                                "json,gradescope,junit,text"};
  if (expect.contains("kernel_timeout")) {
    args.push_back("--kernel-timeout");
    args.push_back(std::to_string(expect.at("kernel_timeout").get<int>()));
  }
  const auto r = run_cugrade(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = read_json(out / (fixture + ".json"));
  ASSERT_TRUE(report.is_object()) << r.err;
  EXPECT_TRUE(schema_errors(report).empty()) << testing::PrintToString(schema_errors(report));
  EXPECT_EQ(report.at("environment").at("backend"), backend);
  if (expect.contains("build_log_contains_any")) {
    const std::string log = report.at("build").at("log");
    bool found = false;
    for (const auto& needle : expect.at("build_log_contains_any")) {
      found = found || log.find(needle.get<std::string>()) != std::string::npos;
    }
    EXPECT_TRUE(found) << "build log lacks " << expect.at("build_log_contains_any") << ":\n" << log;
  }
  check_build(report, expect, backend);
  // Nothing a student reads names the emulator's or the backend's internals.
  expect_no_internal_names(r.out + r.err, "the terminal output");
  for (const char* suffix : {".json", ".gradescope.json", ".junit.xml", ".txt"}) {
    expect_no_internal_names(text_of(out / (fixture + suffix)), fixture + suffix);
  }
  const json wanted = expectations_for(expect, backend);
  const std::string others = expect.value("others", "passed");
  for (const auto& kernel : report.at("kernels")) {
    const std::string name = kernel.at("name");
    SCOPED_TRACE(fixture + ": " + name);
    json want = json::object();
    want["status"] = others;
    if (wanted.contains(name)) {
      want = wanted.at(name);
    }
    const json sanitizer_kernels =
        expect.value("sanitizer", json::object()).value("kernels", json::object());
    if (backend == "gpu" && sanitizer_kernels.contains(name) && sanitizer_checked(report, name)) {
      std::cout << "[ NOTE     ] " << name
                << " was checked by compute-sanitizer: its \"sanitizer\" "
                << "expectations apply\n";
      want = sanitizer_kernels.at(name);
    }
    check_kernel(kernel, want);
  }
  check_recorded_verdicts(dir, backend, report, wanted);
  std::filesystem::remove_all(out);
}

} // namespace cugrade::e2e
