#include "harness/core/error.h"
#include "harness/protocol/protocol.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace cugrade::protocol {

using nlohmann::json;

namespace {

struct stat_result {
  bool ok = false;
  struct stat info {};
};

stat_result stat_of(int fd) {
  stat_result r;
  r.ok = ::fstat(fd, &r.info) == 0;
  return r;
}

} // namespace

event_writer::event_writer(const std::filesystem::path& events_path) {
  m_fd = ::open(events_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (m_fd < 0) {
    CUGRADE_THROW("cannot open " + events_path.string() + ": " + std::strerror(errno));
  }
  m_regular = true;
}

event_writer::event_writer(int fd) : m_fd(fd) {
  const auto s = stat_of(fd);
  if (!s.ok) {
    CUGRADE_THROW("--events-fd " + std::to_string(fd) + " is not an open descriptor");
  }
  m_regular = S_ISREG(s.info.st_mode);
  if (m_regular && s.info.st_size != 0) {
    CUGRADE_THROW("--events-fd " + std::to_string(fd) + " must be an empty file");
  }
}

bool event_writer::intact() const {
  if (!m_regular) {
    return true;
  }
  const auto s = stat_of(m_fd);
  return s.ok && static_cast<std::size_t>(s.info.st_size) == m_written;
}

event_writer::~event_writer() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

// Every line first checks that nobody else wrote to the file since the last one (student code
// runs in this process: constructors at dlopen, the launcher, threads they start). On a foreign
// write the runner says so and ends at once, running no destructors of the student's library.
void event_writer::write_line(const std::string& line) {
  if (!intact()) {
    static const char tampered[] = "\n{\"event\":\"tampered\"}\n";
    [[maybe_unused]] const ssize_t n = ::write(m_fd, tampered, sizeof tampered - 1);
    ::_exit(3);
  }
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(m_fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      CUGRADE_THROW(std::string("cannot write runner events: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
    m_written += static_cast<std::size_t>(n);
  }
}

void event_writer::started(const device_identity& id) {
  write_line(json{{"event", "start"},
                  {"backend", id.backend},
                  {"device", id.device},
                  {"driver", id.driver},
                  {"runtime", id.runtime}}
                 .dump());
}

void event_writer::case_begin(std::size_t case_index, int run,
                              const std::vector<buffer_place>& buffers) {
  const std::chrono::duration<double> t = std::chrono::steady_clock::now() - m_since;
  json line{{"event", "case_begin"}, {"case", case_index}, {"run", run}, {"t", t.count()}};
  if (!buffers.empty()) {
    json places = json::array();
    for (const auto& b : buffers) {
      places.push_back({{"name", b.name}, {"address", b.address}, {"bytes", b.bytes}});
    }
    line["buffers"] = std::move(places);
  }
  write_line(line.dump());
}

void event_writer::case_end(const run_record& r) {
  json line{{"event", "case_end"},
            {"case", r.case_index},
            {"run", r.run},
            {"completed", r.completed},
            {"error_kind", r.error_kind ? cugrade::to_string(*r.error_kind) : ""},
            {"message", r.message},
            {"canary_overwritten", r.canary_overwritten},
            {"input_modified", r.input_modified},
            {"seconds", r.seconds},
            {"output_file", r.output_file},
            {"output", r.output},
            {"output_bytes", r.output_bytes}};
  if (!r.host_memory.empty()) {
    json ranges = json::array();
    for (const auto& range : r.host_memory) {
      ranges.push_back({range.begin, range.end});
    }
    line["host_memory"] = std::move(ranges);
  }
  // A student's output need not be UTF-8: a bad byte becomes U+FFFD.
  write_line(line.dump(-1, ' ', false, json::error_handler_t::replace));
}

namespace {

json checks_json(const std::vector<sample_check>& checks) {
  json out = json::array();
  for (const auto& c : checks) {
    out.push_back({{"set", c.set},
                   {"sum", c.sum},
                   {"abs_sum", c.abs_sum},
                   {"poison_words", c.poison_words},
                   {"non_finite", c.non_finite},
                   {"canary_overwritten", c.canary_overwritten}});
  }
  return out;
}

json saved_json(const std::vector<saved_output>& saved) {
  json out = json::array();
  for (const auto& s : saved) {
    out.push_back({{"set", s.set}, {"role", s.role}, {"file", s.file}});
  }
  return out;
}

} // namespace

void event_writer::timing(const timing_record& t) {
  const json j{{"event", "timing"},
               {"case", t.case_index},
               {"event_ms", t.event_ms},
               {"host_ms", t.host_ms},
               {"sm_clock_mhz", t.sm_clock_mhz},
               {"sample_sets", t.sample_sets},
               {"gated", t.gated},
               {"dropped_throttled", t.dropped_throttled},
               {"max_sm_clock_mhz", t.max_sm_clock_mhz},
               {"warmup_calls", t.warmup_calls},
               {"sampling_seconds", t.sampling_seconds},
               {"case_seconds", t.case_seconds},
               {"stop_reason", t.stop_reason},
               {"checks", checks_json(t.checks)},
               {"saved", saved_json(t.saved)},
               {"input_modified", t.input_modified},
               {"verified_calls", t.verified_calls},
               {"verified_failures", t.verified_failures},
               {"note", t.note}};
  write_line(j.dump());
}

void event_writer::profile(const profile_record& p) {
  write_line(profile_json(p).dump());
}

void event_writer::missing(const std::string& launcher) {
  write_line(json{{"event", "missing"}, {"launcher", launcher}}.dump());
}

void event_writer::finished() {
  write_line(json{{"event", "done"}}.dump());
}

} // namespace cugrade::protocol
