// Reading a report back. Each field reader names the field by JSON pointer when it fails.
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "reports/json_real.h"
#include "reports/report_json.h"

namespace cugrade::reports {
namespace {

using json = nlohmann::json;

// Internal only: the first bad field unwinds the whole recursive read, and report_from_json turns
// it into its `err` string. Nothing escapes this file.
struct bad_field : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& at, const std::string& what) {
  throw bad_field((at.empty() ? std::string("(root)") : at) + ": " + what);
}

std::string child(const std::string& at, std::string_view key) {
  return at + "/" + std::string(key);
}

const json& need(const json& obj, std::string_view key, const std::string& at) {
  if (!obj.is_object()) {
    fail(at, "expected an object");
  }
  const auto it = obj.find(key);
  if (it == obj.end()) {
    fail(at, "missing required field \"" + std::string(key) + "\"");
  }
  return *it;
}

// Optional fields may be absent or null.
const json* maybe(const json& obj, std::string_view key) {
  const auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::string str(const json& obj, std::string_view key, const std::string& at) {
  const json& v = need(obj, key, at);
  if (!v.is_string()) {
    fail(child(at, key), "expected a string, got " + v.dump());
  }
  return v.get<std::string>();
}

std::string str_or_empty(const json& obj, std::string_view key, const std::string& at) {
  return maybe(obj, key) ? str(obj, key, at) : std::string();
}

std::optional<std::string> opt_str(const json& obj, std::string_view key, const std::string& at) {
  return maybe(obj, key) ? std::optional(str(obj, key, at)) : std::nullopt;
}

double num(const json& obj, std::string_view key, const std::string& at) {
  const json& v = need(obj, key, at);
  if (!v.is_number()) {
    fail(child(at, key), "expected a number, got " + v.dump());
  }
  return v.get<double>();
}

double real(const json& v, const std::string& at) {
  const auto value = real_from_json(v);
  if (!value) {
    fail(at, "expected a number, \"NaN\", \"Infinity\" or \"-Infinity\", got " + v.dump());
  }
  return *value;
}

double real(const json& obj, std::string_view key, const std::string& at) {
  return real(need(obj, key, at), child(at, key));
}

std::optional<double> opt_real(const json& obj, std::string_view key, const std::string& at) {
  const json* v = maybe(obj, key);
  return v ? std::optional(real(*v, child(at, key))) : std::nullopt;
}

std::uint64_t unsigned_int(const json& obj, std::string_view key, const std::string& at) {
  const json& v = need(obj, key, at);
  if (!v.is_number_unsigned()) {
    fail(child(at, key), "expected a non-negative integer, got " + v.dump());
  }
  return v.get<std::uint64_t>();
}

std::optional<std::size_t> opt_count(const json& obj, std::string_view key, const std::string& at) {
  return maybe(obj, key) ? std::optional<std::size_t>(unsigned_int(obj, key, at)) : std::nullopt;
}

bool boolean(const json& obj, std::string_view key, const std::string& at) {
  const json& v = need(obj, key, at);
  if (!v.is_boolean()) {
    fail(child(at, key), "expected true or false, got " + v.dump());
  }
  return v.get<bool>();
}

std::string name_list(std::span<const std::string_view> names) {
  std::string out;
  for (const std::string_view n : names) {
    out += (out.empty() ? "" : ", ") + std::string(n);
  }
  return out;
}

template <named_enum E>
E enumerated(const json& obj, std::string_view key, const std::string& at, const char* what) {
  const std::string name = str(obj, key, at);
  const auto value = from_string<E>(name);
  if (!value) {
    fail(child(at, key),
         "\"" + name + "\" is not a " + what + " (" + name_list(names_of<E>()) + ")");
  }
  return *value;
}

template <class T, class F>
std::vector<T> array(const json& obj, std::string_view key, const std::string& at, F&& read) {
  const json& v = need(obj, key, at);
  if (!v.is_array()) {
    fail(child(at, key), "expected an array, got " + v.dump());
  }
  std::vector<T> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    out.push_back(read(v[i], child(at, key) + "/" + std::to_string(i)));
  }
  return out;
}

template <class T, class F>
std::vector<T> opt_array(const json& obj, std::string_view key, const std::string& at, F&& read) {
  return maybe(obj, key) ? array<T>(obj, key, at, read) : std::vector<T>{};
}

mismatch_info read_mismatch(const json& j, const std::string& at) {
  return {unsigned_int(j, "index", at), real(j, "expected", at), real(j, "got", at)};
}

test_result read_test(const json& j, const std::string& at) {
  test_result t;
  t.name = str(j, "name", at);
  t.group = str(j, "group", at);
  t.vis = enumerated<visibility>(j, "visibility", at, "visibility");
  t.status = enumerated<test_status>(j, "status", at, "test status");
  t.shape = str_or_empty(j, "shape", at);
  t.distribution = str_or_empty(j, "distribution", at);
  t.max_abs_error = opt_real(j, "max_abs_error", at);
  t.max_rel_error = opt_real(j, "max_rel_error", at);
  t.mismatches = opt_count(j, "mismatches", at);
  if (maybe(j, "first_mismatch")) {
    t.first_mismatch = read_mismatch(j["first_mismatch"], child(at, "first_mismatch"));
  }
  t.message = str_or_empty(j, "message", at);
  t.output = str_or_empty(j, "output", at);
  t.output_bytes = opt_count(j, "output_bytes", at).value_or(0);
  return t;
}

group_result read_group(const json& j, const std::string& at) {
  return {str(j, "name", at),
          enumerated<visibility>(j, "visibility", at, "visibility"),
          boolean(j, "passed", at),
          num(j, "score", at),
          num(j, "max_score", at),
          unsigned_int(j, "cases", at),
          unsigned_int(j, "cases_passed", at)};
}

std::vector<std::string> strings(const json& obj, std::string_view key, const std::string& at) {
  return opt_array<std::string>(obj, key, at, [](const json& s, const std::string& where) {
    if (!s.is_string()) {
      fail(where, "expected a string, got " + s.dump());
    }
    return s.get<std::string>();
  });
}

// A shared code, or a kind's own: any word of a code's form (the schema's pattern).
hint_code read_hint_code(const json& j, const std::string& at) {
  const std::string word = str(j, "code", at);
  if (!hint_code::well_formed(word)) {
    fail(at + ".code",
         "expected a hint code (lowercase words joined by underscores), got \"" + word + "\"");
  }
  return hint_code(word);
}

hint read_hint(const json& j, const std::string& at) {
  return {read_hint_code(j, at), str(j, "message", at), str_or_empty(j, "location", at),
          strings(j, "evidence", at)};
}

performance_entry read_performance(const json& j, const std::string& at) {
  performance_entry p;
  p.shape = str(j, "shape", at);
  p.distribution = str(j, "distribution", at);
  p.median_ms = real(j, "median_ms", at);
  p.mean_ms = real(j, "mean_ms", at);
  p.rel_stddev = real(j, "rel_stddev", at);
  p.samples = unsigned_int(j, "samples", at);
  p.min_ms = real(j, "min_ms", at);
  p.max_ms = real(j, "max_ms", at);
  p.reference_ms = opt_real(j, "reference_ms", at);
  p.speedup = opt_real(j, "speedup", at);
  p.speedup_ci_low = opt_real(j, "speedup_ci_low", at);
  p.speedup_ci_high = opt_real(j, "speedup_ci_high", at);
  p.gflops = opt_real(j, "gflops", at);
  p.gbps = opt_real(j, "gbps", at);
  p.roof_percent = opt_real(j, "roof_percent", at);
  p.library_ms = opt_real(j, "library_ms", at);
  p.library_name = str_or_empty(j, "library_name", at);
  p.sm_clock_mhz = opt_real(j, "sm_clock_mhz", at);
  p.suspicious = maybe(j, "suspicious") && boolean(j, "suspicious", at);
  p.noisy = maybe(j, "noisy") && boolean(j, "noisy", at);
  p.reference_source = str_or_empty(j, "reference_source", at);
  p.control_ratio = opt_real(j, "control_ratio", at);
  p.note = str_or_empty(j, "note", at);
  return p;
}

insight read_insight(const json& j, const std::string& at) {
  insight i;
  i.kind = str(j, "kind", at);
  i.message = str(j, "message", at);
  i.location = str_or_empty(j, "location", at);
  i.cost_share = opt_real(j, "cost_share", at).value_or(0);
  return i;
}

insight_metric read_metric(const json& j, const std::string& at) {
  insight_metric m;
  m.name = str(j, "name", at);
  m.value = real(j, "value", at);
  m.ideal = opt_real(j, "ideal", at);
  return m;
}

std::optional<kernel_profile> read_profile(const json& k, const std::string& at) {
  if (!maybe(k, "profile")) {
    return std::nullopt;
  }
  const json& j = k.at("profile");
  const std::string where = at + ".profile";
  kernel_profile p;
  p.backend = enumerated<backend_kind>(j, "backend", where, "backend");
  p.tool = str(j, "tool", where);
  p.shape = str(j, "shape", where);
  p.metrics = array<insight_metric>(j, "metrics", where, read_metric);
  p.note = str_or_empty(j, "note", where);
  p.counters = strings(j, "counters", where);
  return p;
}

kernel_report read_kernel(const json& j, const std::string& at) {
  kernel_report k;
  k.name = str(j, "name", at);
  k.status = enumerated<kernel_status>(j, "status", at, "kernel status");
  if (maybe(j, "error_kind")) {
    k.error_kind = enumerated<fault_kind>(j, "error_kind", at, "fault kind");
  }
  k.message = str_or_empty(j, "message", at);
  k.score = num(j, "score", at);
  k.max_score = num(j, "max_score", at);
  k.performance_score = maybe(j, "performance_score") ? num(j, "performance_score", at) : 0;
  k.performance_max = maybe(j, "performance_max") ? num(j, "performance_max", at) : 0;
  k.tests = array<test_result>(j, "tests", at, read_test);
  k.groups = opt_array<group_result>(j, "groups", at, read_group);
  k.diagnosis = array<hint>(j, "diagnosis", at, read_hint);
  k.forbidden_symbols = strings(j, "forbidden_symbols", at);
  k.performance = opt_array<performance_entry>(j, "performance", at, read_performance);
  k.speedup_geomean = opt_real(j, "speedup_geomean", at);
  k.performance_note = str_or_empty(j, "performance_note", at);
  k.insights = opt_array<insight>(j, "insights", at, read_insight);
  k.profile = read_profile(j, at);
  return k;
}

submission_info read_submission(const json& j, const std::string& at) {
  submission_info s;
  s.source = str(j, "source", at);
  s.commit = opt_str(j, "commit", at);
  s.commit_time = opt_str(j, "commit_time", at);
  s.deadline = opt_str(j, "deadline", at);
  const json& late = need(j, "late_days", at);
  if (!late.is_number_integer() || late.get<std::int64_t>() < 0 ||
      late.get<std::int64_t>() > std::numeric_limits<int>::max()) {
    fail(child(at, "late_days"), "expected a non-negative integer, got " + late.dump());
  }
  s.late_days = late.get<int>();
  s.student = str_or_empty(j, "student", at);
  s.notes = strings(j, "notes", at);
  return s;
}

environment_info read_environment(const json& j, const std::string& at) {
  return {enumerated<backend_kind>(j, "backend", at, "backend"),
          str(j, "device", at),
          str(j, "driver", at),
          str(j, "cuda_runtime", at),
          str(j, "grader_version", at),
          str_or_empty(j, "host", at),
          j.contains("sandbox") ? str(j, "sandbox", at) : std::string("none")};
}

build_info read_build(const json& j, const std::string& at) {
  build_info b;
  b.status = enumerated<build_status>(j, "status", at, "build status");
  b.log = str(j, "log", at);
  b.seconds = num(j, "seconds", at);
  b.summary = str_or_empty(j, "summary", at);
  b.warnings = opt_count(j, "warnings", at).value_or(0);
  return b;
}

report read_report(const json& j) {
  report r;
  r.schema = str(j, "schema", "");
  if (r.schema != schema_id) {
    fail("/schema", "\"" + r.schema + "\" is not " + std::string(schema_id) +
                        "; this cugrade reads only that major version");
  }
  r.assignment_name = str(need(j, "assignment", ""), "name", "/assignment");
  r.spec_sha256 = str(j["assignment"], "spec_sha256", "/assignment");
  r.submission = read_submission(need(j, "submission", ""), "/submission");
  r.environment = read_environment(need(j, "environment", ""), "/environment");
  r.build = read_build(need(j, "build", ""), "/build");
  r.kernels = array<kernel_report>(j, "kernels", "", read_kernel);
  need(j, "score", "");
  r.score = maybe(j, "score") ? std::optional(num(j, "score", "")) : std::nullopt;
  r.max_score = num(j, "max_score", "");
  r.late_penalty = num(j, "late_penalty", "");
  r.late_penalty_explanation = str_or_empty(j, "late_penalty_explanation", "");
  r.gradable = boolean(j, "gradable", "");
  if (!r.gradable && r.score) {
    fail("/score",
         "must be null when gradable is false (an infrastructure failure gives no score)");
  }
  r.infrastructure_error = str_or_empty(j, "infrastructure_error", "");
  r.seed = maybe(j, "seed") ? unsigned_int(j, "seed", "") : 0;
  r.elapsed_seconds = maybe(j, "elapsed_seconds") ? num(j, "elapsed_seconds", "") : 0;
  r.stages = opt_array<stage_timing>(j, "stages", "", [](const json& s, const std::string& where) {
    stage_timing t{
        str(s, "stage", where), str_or_empty(s, "kernel", where), real(s, "seconds", where), {}};
    t.parts = opt_array<stage_part>(s, "parts", where, [](const json& p, const std::string& at) {
      return stage_part{str(p, "name", at), real(p, "seconds", at)};
    });
    return t;
  });
  r.created_at = str(j, "created_at", "");
  return r;
}

} // namespace

std::optional<report> report_from_json(const nlohmann::json& j, std::string* err) {
  try {
    return read_report(j);
  } catch (const bad_field& e) {
    if (err != nullptr) {
      *err = e.what();
    }
    return std::nullopt;
  }
}

} // namespace cugrade::reports
