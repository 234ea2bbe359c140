#include "harness/protocol/protocol.h"

#include <algorithm>
#include <cmath>
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
    r.error_kind = cugrade::fault_kind_named(kind);
  }
  r.message = j.value("message", "");
  r.canary_overwritten = j.value("canary_overwritten", false);
  r.input_modified = j.value("input_modified", false);
  r.seconds = j.value("seconds", 0.0);
  r.output_file = j.value("output_file", "");
  r.output = j.value("output", "");
  r.output_bytes = j.value("output_bytes", std::size_t{0});
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

timing_record timing_record_from(const json& j) {
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
  t.sampling_seconds = j.value("sampling_seconds", 0.0);
  t.case_seconds = j.value("case_seconds", 0.0);
  t.stop_reason = j.value("stop_reason", "");
  t.checks = checks_from(j.value("checks", json::array()));
  t.saved = saved_from(j.value("saved", json::array()));
  t.input_modified = j.value("input_modified", false);
  t.verified_calls = j.value("verified_calls", 0);
  t.verified_failures = j.value("verified_failures", 0);
  t.note = j.value("note", "");
  return t;
}

std::string capped(std::string text) {
  if (text.size() > max_event_text) {
    text.resize(max_event_text);
    text += " [...]";
  }
  return text;
}

// Names the runner chooses from a fixed vocabulary: lower-case words.
bool is_word(const std::string& text) {
  if (text.empty() || text.size() > 40 || text.front() < 'a' || text.front() > 'z') {
    return false;
  }
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// A file the runner wrote in its output folder: a plain name, never a path.
bool is_plain_file_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 && name.find('/') == std::string::npos && name != "." &&
         name != "..";
}

// Reads one event; an empty string when it fits the protocol, else why not.
class event_sequence {
public:
  explicit event_sequence(runner_log& log) : m_log(log) {}

  std::string apply(const json& j) {
    const std::string event = j.value("event", "");
    if (m_done) {
      return "a \"" + event + "\" line after the runner's last line";
    }
    if (event == "start") {
      return start(j);
    }
    if (event == "case_begin") {
      return begin(j);
    }
    if (event == "case_end") {
      return end(j);
    }
    if (event == "timing") {
      return timing(j);
    }
    if (event == "fault") {
      return fault(j);
    }
    if (event == "profile") {
      profile_record p;
      std::string why = profile_from_json(j, p);
      if (why.empty()) {
        m_log.profiles.push_back(std::move(p));
      }
      return why;
    }
    if (event == "missing") {
      m_log.missing_launcher = capped(j.value("launcher", ""));
      return "";
    }
    if (event == "done") {
      m_done = true;
      m_log.finished = !m_log.open_case.has_value();
      return m_log.finished ? "" : "the last line while a case was still open";
    }
    if (event == "tampered") {
      return "the runner found lines in its event file that it did not write";
    }
    return "an unknown event \"" + capped(event) + "\"";
  }

private:
  std::string start(const json& j) {
    if (m_log.started) {
      return "a second start line";
    }
    m_log.started = true;
    // Shown nowhere: the report's device comes from the grader's own probe.
    m_log.backend = capped(j.value("backend", ""));
    m_log.device = capped(j.value("device", ""));
    m_log.driver = capped(j.value("driver", ""));
    m_log.runtime = capped(j.value("runtime", ""));
    return "";
  }

  std::string begin(const json& j) {
    if (m_log.open_case) {
      return "a case_begin while another case was open";
    }
    m_log.open_case = j.value("case", std::size_t{0});
    m_log.open_run = j.value("run", 0);
    if (j.contains("t")) { // runners before the clock was added wrote none
      const auto& t = j["t"];
      if (!t.is_number() || !std::isfinite(t.get<double>()) || t.get<double>() < 0) {
        return "a case_begin whose time is not a number of seconds";
      }
      m_log.began_seconds.try_emplace(*m_log.open_case, t.get<double>());
    }
    return places(j);
  }

  // A case's buffers: a few named places, each a name and two numbers.
  std::string places(const json& j) {
    if (!j.contains("buffers")) {
      return "";
    }
    const auto& list = j["buffers"];
    constexpr std::size_t most = 8;
    if (!list.is_array() || list.size() > most) {
      return "a case_begin whose buffers are not a short list";
    }
    std::vector<buffer_place> out;
    for (const auto& b : list) {
      if (!b.is_object() || !b.value("name", json()).is_string() ||
          !b.value("address", json()).is_number_unsigned() ||
          !b.value("bytes", json()).is_number_unsigned()) {
        return "a case_begin buffer without a name, an address and a size";
      }
      out.push_back({capped(b["name"].get<std::string>()), b["address"].get<std::uint64_t>(),
                     b["bytes"].get<std::uint64_t>()});
    }
    m_log.buffers.try_emplace(*m_log.open_case, std::move(out));
    return "";
  }

  std::string end(const json& j) {
    const std::string kind = j.value("error_kind", "");
    run_record r = run_from(j);
    if (!m_log.open_case || *m_log.open_case != r.case_index || m_log.open_run != r.run) {
      return "a case_end without its case_begin";
    }
    if (!kind.empty() && !is_word(kind)) {
      return "an error_kind that is not a protocol word";
    }
    if (!r.output_file.empty() && r.output_file != output_file_name(r.case_index, r.run)) {
      return "an output file the protocol does not name";
    }
    if (const std::string why = host_memory(j, r); !why.empty()) {
      return why;
    }
    r.message = capped(std::move(r.message));
    m_log.runs.push_back(std::move(r));
    m_log.open_case.reset();
    return "";
  }

  // A faulting call's host memory: ranges of two numbers, the first below the second.
  static std::string host_memory(const json& j, run_record& r) {
    if (!j.contains("host_memory")) {
      return "";
    }
    const auto& list = j["host_memory"];
    constexpr std::size_t most = 4096;
    if (!list.is_array() || list.size() > most) {
      return "a case_end whose host_memory is not a list of at most 4096 ranges";
    }
    for (const auto& range : list) {
      if (!range.is_array() || range.size() != 2 || !range[0].is_number_unsigned() ||
          !range[1].is_number_unsigned() ||
          range[0].get<std::uint64_t>() >= range[1].get<std::uint64_t>()) {
        return "a case_end host_memory range that is not two addresses, the first below the "
               "second";
      }
      r.host_memory.push_back({range[0].get<std::uint64_t>(), range[1].get<std::uint64_t>()});
    }
    return "";
  }

  std::string timing(const json& j) {
    timing_record t = timing_record_from(j);
    for (const auto& saved : t.saved) {
      if (!is_plain_file_name(saved.file)) {
        return "a saved output outside the output folder";
      }
    }
    t.stop_reason = capped(std::move(t.stop_reason));
    t.note = capped(std::move(t.note));
    m_log.timings.push_back(std::move(t));
    return "";
  }

  std::string fault(const json& j) {
    const std::string kind = j.value("error_kind", "illegal_address");
    if (!is_word(kind)) {
      return "a fault whose error_kind is not a protocol word";
    }
    m_log.fault_kind = cugrade::fault_kind_named(kind);
    m_log.fault_message = capped(j.value("message", ""));
    m_log.fault_pc_offset = capped(j.value("pc_offset", ""));
    m_log.fault_object = capped(j.value("object", ""));
    return "";
  }

  runner_log& m_log;
  bool m_done = false;
};

// Nothing of a tampered log is believed: its first case becomes a "tampering" error.
void mark_tampered(runner_log& log, const std::string& why) {
  log.tampering = why;
  log.runs.clear();
  log.timings.clear();
  log.profiles.clear();
  log.started = true;
  log.finished = false;
  log.open_case = 0;
  log.open_run = 0;
  log.missing_launcher.clear();
  log.fault_kind = cugrade::fault_kind::tampering;
  log.fault_message = "the runner's event log was not written by the runner alone (" + why +
                      "): the submission's code wrote to the grader's protocol files";
  log.fault_pc_offset.clear();
  log.fault_object.clear();
}

} // namespace

runner_log read_events(const std::filesystem::path& events_path) {
  // Large enough for a timing line of max_samples samples and checks.
  constexpr std::size_t max_line = std::size_t{4} << 20;
  runner_log log;
  event_sequence sequence(log);
  std::ifstream in(events_path);
  std::string line;
  std::string unparsed; // a partial line is only acceptable as the very last one
  while (std::getline(in, line)) {
    if (!unparsed.empty()) {
      mark_tampered(log, "a line that is not JSON");
      return log;
    }
    if (line.empty()) {
      continue;
    }
    const json j = line.size() <= max_line ? json::parse(line, nullptr, false) : json();
    if (!j.is_object()) {
      unparsed = line.empty() ? " " : line;
      continue;
    }
    if (const std::string why = sequence.apply(j); !why.empty()) {
      mark_tampered(log, why);
      return log;
    }
  }
  return log;
}

} // namespace cugrade::protocol
