#pragma once
/// \file
/// What the TA sees while a batch runs. On a terminal, one status line redrawn in place: done /
/// total, students per outcome, submissions per hour, the time left, and what each GPU (or, in
/// emulation, each worker) is doing. Without a terminal, one plain line per finished student.

#include "grader/batch/summary.h"

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace cugrade::batch {

class progress {
public:
  progress(std::ostream& out, std::size_t total, std::size_t already_done, bool live,
           std::vector<std::string> gpus);

  /// `student` is now doing `what` ("fetching", "building", "running on GPU 1"...).
  void doing(const std::string& student, const std::string& what);
  /// A student's report is written.
  void finished(const std::string& student, const reports::report& r);
  /// Redraws the live line (called a few times a second); no-op without a terminal.
  void tick();
  /// Ends the live line so later output starts on a fresh line.
  void close();

private:
  [[nodiscard]] std::string status_line() const;
  [[nodiscard]] std::string activity() const;
  std::ostream& m_out;
  std::size_t m_total;
  std::size_t m_done;
  std::size_t m_done_here = 0;
  bool m_live;
  std::vector<std::string> m_gpus;
  std::map<outcome, std::size_t> m_outcomes;
  std::map<std::string, std::string> m_doing;
  std::chrono::steady_clock::time_point m_started = std::chrono::steady_clock::now();
  mutable std::mutex m_mutex;
};

/// One line about a finished student, e.g. "alice: 17.5/20 (reduce_convergent failed)", the
/// points rounded to two decimals (points_text: "29.59/50"), escaped
/// (escape_untrusted_text, newlines too): a not-gradable reason may quote the submission.
[[nodiscard]] std::string finished_line(const std::string& student, const reports::report& r);

} // namespace cugrade::batch
