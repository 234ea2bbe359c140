#include "reports/report_json.h"

#include <cmath>
#include <stdexcept>

#include "reports/json_real.h"
#include "reports/redact.h"

namespace cugrade::reports {
namespace {

using ojson = nlohmann::ordered_json;

// Points are computed by the grader from finite rubric values; NaN here is a grader bug, and
// writing it would silently turn into null (which reads as "not gradable").
double points(double value, const char* field) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(std::string("cugrade report: ") + field + " is not finite");
  }
  return value;
}

template <class T> ojson or_null(const std::optional<T>& value) {
  return value ? ojson(*value) : ojson(nullptr);
}

void put_real(ojson& j, const char* key, const std::optional<double>& value) {
  if (value) {
    j[key] = real_to_json(*value);
  }
}

ojson test_json(const test_result& t) {
  ojson j{{"name", t.name},
          {"group", t.group},
          {"visibility", to_string(t.vis)},
          {"status", to_string(t.status)}};
  if (t.vis == visibility::hidden) {
    return j; // redact() has already emptied the rest; the schema forbids more keys
  }
  j["shape"] = t.shape;
  j["distribution"] = t.distribution;
  put_real(j, "max_abs_error", t.max_abs_error);
  put_real(j, "max_rel_error", t.max_rel_error);
  if (t.mismatches) {
    j["mismatches"] = *t.mismatches;
  }
  if (t.first_mismatch) {
    j["first_mismatch"] = {{"index", t.first_mismatch->index},
                           {"expected", real_to_json(t.first_mismatch->expected)},
                           {"got", real_to_json(t.first_mismatch->got)}};
  }
  j["message"] = t.message;
  if (t.output_bytes > 0) {
    j["output"] = t.output;
    j["output_bytes"] = t.output_bytes;
  }
  return j;
}

ojson group_json(const group_result& g) {
  return {{"name", g.name},
          {"visibility", to_string(g.vis)},
          {"passed", g.passed},
          {"score", points(g.score, "group score")},
          {"max_score", points(g.max_score, "group max_score")},
          {"cases", g.cases},
          {"cases_passed", g.cases_passed}};
}

ojson performance_json(const performance_entry& p) {
  ojson j{{"shape", p.shape},
          {"distribution", p.distribution},
          {"median_ms", real_to_json(p.median_ms)},
          {"mean_ms", real_to_json(p.mean_ms)},
          {"rel_stddev", real_to_json(p.rel_stddev)},
          {"samples", p.samples},
          {"min_ms", real_to_json(p.min_ms)},
          {"max_ms", real_to_json(p.max_ms)}};
  put_real(j, "reference_ms", p.reference_ms);
  put_real(j, "speedup", p.speedup);
  put_real(j, "speedup_ci_low", p.speedup_ci_low);
  put_real(j, "speedup_ci_high", p.speedup_ci_high);
  put_real(j, "gflops", p.gflops);
  put_real(j, "gbps", p.gbps);
  put_real(j, "roof_percent", p.roof_percent);
  put_real(j, "library_ms", p.library_ms);
  j["library_name"] = p.library_name;
  put_real(j, "sm_clock_mhz", p.sm_clock_mhz);
  j["suspicious"] = p.suspicious;
  j["noisy"] = p.noisy;
  j["reference_source"] = p.reference_source;
  put_real(j, "control_ratio", p.control_ratio);
  j["note"] = p.note;
  return j;
}

template <class T, class F> ojson array_of(const std::vector<T>& items, F&& to) {
  ojson out = ojson::array();
  for (const T& item : items) {
    out.push_back(to(item));
  }
  return out;
}

ojson hint_json(const hint& h) {
  ojson j{{"code", to_string(h.code)}, {"message", h.message}};
  if (!h.location.empty()) {
    j["location"] = h.location;
  }
  if (!h.evidence.empty()) {
    j["evidence"] = h.evidence;
  }
  return j;
}

ojson insight_json(const insight& i) {
  ojson j{{"kind", i.kind}, {"message", i.message}};
  if (!i.location.empty()) {
    j["location"] = i.location;
  }
  put_real(j, "cost_share", i.cost_share);
  return j;
}

ojson metric_json(const insight_metric& m) {
  ojson j{{"name", m.name}};
  put_real(j, "value", m.value);
  put_real(j, "ideal", m.ideal);
  return j;
}

ojson profile_json(const kernel_profile& p) {
  ojson j{{"backend", to_string(p.backend)}, {"tool", p.tool}, {"shape", p.shape}};
  j["metrics"] = array_of(p.metrics, metric_json);
  if (!p.note.empty()) {
    j["note"] = p.note;
  }
  if (!p.counters.empty()) {
    j["counters"] = p.counters;
  }
  return j;
}

ojson kernel_json(const kernel_report& k) {
  ojson j{{"name", k.name}, {"status", to_string(k.status)}};
  if (k.error_kind) {
    j["error_kind"] = to_string(*k.error_kind);
  }
  j["message"] = k.message;
  j["score"] = points(k.score, "kernel score");
  j["max_score"] = points(k.max_score, "kernel max_score");
  j["performance_score"] = points(k.performance_score, "kernel performance_score");
  j["performance_max"] = points(k.performance_max, "kernel performance_max");
  j["tests"] = array_of(k.tests, test_json);
  j["groups"] = array_of(k.groups, group_json);
  j["diagnosis"] = array_of(k.diagnosis, hint_json);
  j["forbidden_symbols"] = k.forbidden_symbols;
  if (!k.performance.empty()) {
    j["performance"] = array_of(k.performance, performance_json);
  }
  put_real(j, "speedup_geomean", k.speedup_geomean);
  if (!k.performance_note.empty()) {
    j["performance_note"] = k.performance_note;
  }
  if (k.profile) {
    j["insights"] = array_of(k.insights, insight_json);
    j["profile"] = profile_json(*k.profile);
  }
  return j;
}

ojson submission_json(const submission_info& s) {
  return {{"source", s.source},
          {"commit", or_null(s.commit)},
          {"commit_time", or_null(s.commit_time)},
          {"deadline", or_null(s.deadline)},
          {"late_days", s.late_days},
          {"student", s.student},
          {"notes", s.notes}};
}

ojson environment_json(const environment_info& e) {
  return {{"backend", to_string(e.backend)},
          {"device", e.device},
          {"driver", e.driver},
          {"cuda_runtime", e.cuda_runtime},
          {"grader_version", e.grader_version},
          {"host", e.host},
          {"sandbox", e.sandbox}};
}

} // namespace

ojson to_ordered_json(const redacted_report& redacted) {
  const report& r = redacted.get();
  ojson j{{"schema", r.schema},
          {"assignment", {{"name", r.assignment_name}, {"spec_sha256", r.spec_sha256}}},
          {"submission", submission_json(r.submission)},
          {"environment", environment_json(r.environment)},
          {"build",
           {{"status", to_string(r.build.status)},
            {"log", r.build.log},
            {"seconds", points(r.build.seconds, "build seconds")},
            {"summary", r.build.summary},
            {"warnings", r.build.warnings}}},
          {"kernels", array_of(r.kernels, kernel_json)}};
  // An ungradable report never carries a score, whatever the caller left in the field.
  j["score"] = r.gradable && r.score ? ojson(points(*r.score, "score")) : ojson(nullptr);
  j["max_score"] = points(r.max_score, "max_score");
  j["late_penalty"] = points(r.late_penalty, "late_penalty");
  if (!r.late_penalty_explanation.empty()) {
    j["late_penalty_explanation"] = r.late_penalty_explanation;
  }
  j["gradable"] = r.gradable;
  j["infrastructure_error"] = r.infrastructure_error;
  j["seed"] = r.seed;
  j["elapsed_seconds"] = points(r.elapsed_seconds, "elapsed_seconds");
  j["stages"] = array_of(r.stages, [](const stage_timing& s) {
    ojson out{{"stage", s.stage}, {"kernel", s.kernel}, {"seconds", real_to_json(s.seconds)}};
    if (!s.parts.empty()) {
      out["parts"] = array_of(s.parts, [](const stage_part& p) {
        return ojson{{"name", p.name}, {"seconds", real_to_json(p.seconds)}};
      });
    }
    return out;
  });
  j["created_at"] = r.created_at;
  return j;
}

nlohmann::json to_json(const redacted_report& r) {
  return nlohmann::json(to_ordered_json(r));
}

std::string render_json(const redacted_report& r) {
  return to_ordered_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace cugrade::reports
