#include "harness/protocol/protocol.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace cugrade::protocol {

using nlohmann::json;

namespace {

run_record run_from(const json& j) {
  run_record r;
  r.case_index = j.value("case", std::size_t{0});
  r.run = j.value("run", 0);
  r.completed = j.value("completed", false);
  if (const std::string kind = j.value("error_kind", ""); !kind.empty()) {
    r.error_kind = reports::fault_kind_named(kind);
  }
  r.message = j.value("message", "");
  r.canary_overwritten = j.value("canary_overwritten", false);
  r.input_modified = j.value("input_modified", false);
  r.seconds = j.value("seconds", 0.0);
  r.output_file = j.value("output_file", "");
  return r;
}

std::vector<sample_check> checks_from(const json& j) {
  std::vector<sample_check> out;
  for (const auto& c : j) {
    if (!c.is_object()) {
      continue;
    }
    sample_check s;
    s.set = c.value("set", 0);
    s.sum = c.value("sum", 0.0);
    s.abs_sum = c.value("abs_sum", 0.0);
    s.poison_words = c.value("poison_words", std::size_t{0});
    s.non_finite = c.value("non_finite", std::size_t{0});
    s.canary_overwritten = c.value("canary_overwritten", false);
    out.push_back(s);
  }
  return out;
}

std::vector<saved_output> saved_from(const json& j) {
  std::vector<saved_output> out;
  for (const auto& s : j) {
    if (s.is_object()) {
      out.push_back({s.value("set", 0), s.value("role", ""), s.value("file", "")});
    }
  }
  return out;
}

timing_record timing_from(const json& j) {
  timing_record t;
  t.case_index = j.value("case", std::size_t{0});
  t.event_ms = j.value("event_ms", std::vector<double>{});
  t.host_ms = j.value("host_ms", std::vector<double>{});
  t.sm_clock_mhz = j.value("sm_clock_mhz", std::vector<double>{});
  t.sample_sets = j.value("sample_sets", std::vector<int>{});
  t.gated = j.value("gated", false);
  t.dropped_throttled = j.value("dropped_throttled", 0);
  t.max_sm_clock_mhz = j.value("max_sm_clock_mhz", 0.0);
  t.warmup_calls = j.value("warmup_calls", 0);
  t.stop_reason = j.value("stop_reason", "");
  t.checks = checks_from(j.value("checks", json::array()));
  t.saved = saved_from(j.value("saved", json::array()));
  t.input_modified = j.value("input_modified", false);
  t.verified_calls = j.value("verified_calls", 0);
  t.verified_failures = j.value("verified_failures", 0);
  t.note = j.value("note", "");
  return t;
}

void apply(runner_log& log, const json& j) {
  const std::string event = j.value("event", "");
  if (event == "start") {
    log.started = true;
    log.backend = j.value("backend", "");
    log.device = j.value("device", "");
    log.driver = j.value("driver", "");
    log.runtime = j.value("runtime", "");
  } else if (event == "case_begin") {
    log.open_case = j.value("case", std::size_t{0});
    log.open_run = j.value("run", 0);
  } else if (event == "case_end") {
    log.runs.push_back(run_from(j));
    log.open_case.reset();
  } else if (event == "timing") {
    log.timings.push_back(timing_from(j));
  } else if (event == "fault") {
    log.fault_kind = reports::fault_kind_named(j.value("error_kind", "illegal_address"));
    log.fault_message = j.value("message", "");
    log.fault_pc_offset = j.value("pc_offset", "");
    log.fault_object = j.value("object", "");
  } else if (event == "missing") {
    log.missing_launcher = j.value("launcher", "");
  } else if (event == "done") {
    log.finished = true;
  }
}

} // namespace

runner_log read_events(const std::filesystem::path& events_path) {
  runner_log log;
  std::ifstream in(events_path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    // A runner killed mid-write leaves a partial last line: skip what does not parse.
    const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_object()) {
      apply(log, j);
    }
  }
  return log;
}

} // namespace cugrade::protocol
