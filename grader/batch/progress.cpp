#include "grader/batch/progress.h"

#include "grader/batch/points_text.h"
#include "harness/core/elapsed.h"
#include "harness/core/untrusted_text.h"

#include <fmt/format.h>

namespace cugrade::batch {

namespace {

std::string clock_text(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
                   : fmt::format("{}:{:02}", s / 60, s % 60);
}

} // namespace

std::string finished_line(const std::string& student, const reports::report& r) {
  if (!r.gradable) {
    // The reason may quote the submission (a branch name, a path): one escaped line.
    return escape_untrusted_text(student + ": not gradable: " + r.infrastructure_error,
                                 line_breaks::escape);
  }
  std::string notes;
  for (const auto& k : r.kernels) {
    if (k.status != reports::kernel_status::passed) {
      notes +=
          (notes.empty() ? "" : ", ") + k.name + " " + std::string(reports::to_string(k.status));
    }
  }
  if (r.submission.late_days > 0) {
    notes += fmt::format("{}{} day{} late", notes.empty() ? "" : ", ", r.submission.late_days,
                         r.submission.late_days == 1 ? "" : "s");
  }
  return escape_untrusted_text(fmt::format("{}: {}/{}{}", student, points_text(r.score.value_or(0)),
                                           points_text(r.max_score),
                                           notes.empty() ? "" : " (" + notes + ")"),
                               line_breaks::escape);
}

progress::progress(std::ostream& out, std::size_t total, std::size_t already_done, bool live,
                   std::vector<std::string> gpus)
    : m_out(out), m_total(total), m_done(already_done), m_live(live), m_gpus(std::move(gpus)) {}

void progress::doing(const std::string& student, const std::string& what) {
  const std::lock_guard lock(m_mutex);
  m_doing[student] = what;
}

void progress::finished(const std::string& student, const reports::report& r) {
  const std::lock_guard lock(m_mutex);
  m_doing.erase(student);
  ++m_done;
  ++m_done_here;
  ++m_outcomes[outcome_of(r)];
  const auto line = fmt::format("[{}/{}] {}", m_done, m_total, finished_line(student, r));
  if (m_live) {
    m_out << "\r\033[K" << line << "\n" << status_line() << std::flush;
  } else {
    m_out << line << "\n" << std::flush;
  }
}

void progress::tick() {
  if (!m_live) {
    return;
  }
  const std::lock_guard lock(m_mutex);
  m_out << "\r\033[K" << status_line() << std::flush;
}

void progress::close() {
  const std::lock_guard lock(m_mutex);
  if (m_live) {
    m_out << "\r\033[K" << std::flush;
  }
}

std::string progress::status_line() const {
  const double elapsed = seconds_since(m_started);
  const double rate = elapsed > 0 ? static_cast<double>(m_done_here) * 3600.0 / elapsed : 0;
  const auto count = [this](outcome o) {
    const auto it = m_outcomes.find(o);
    return it == m_outcomes.end() ? std::size_t{0} : it->second;
  };
  const auto left = m_total - std::min(m_done, m_total);
  const std::string eta =
      m_done_here > 0
          ? clock_text(elapsed / static_cast<double>(m_done_here) * static_cast<double>(left))
          : "?";
  return fmt::format("{}/{} done | {} full, {} partial, {} not gradable | {:.0f}/h | ETA {} | {}",
                     m_done, m_total, count(outcome::full_marks), count(outcome::partial),
                     count(outcome::not_gradable), rate, eta, activity());
}

// What each GPU runs, e.g. "GPU 0: alice, bob | GPU 1: idle"; in emulation the stage counts.
std::string progress::activity() const {
  std::map<std::string, std::vector<std::string>> by_place;
  for (const auto& [student, what] : m_doing) {
    by_place[what].push_back(student);
  }
  std::string out;
  for (const auto& gpu : m_gpus) {
    const auto it = by_place.find("GPU " + gpu);
    out +=
        fmt::format("{}GPU {}: {}", out.empty() ? "" : " | ", gpu,
                    it == by_place.end() ? "idle" : fmt::format("{}", fmt::join(it->second, ", ")));
  }
  for (const char* stage : {"fetching", "building", "running", "checking"}) {
    const auto it = by_place.find(stage);
    if (it != by_place.end()) {
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", it->second.size(), stage);
    }
  }
  return out.empty() ? "idle" : out;
}

} // namespace cugrade::batch
