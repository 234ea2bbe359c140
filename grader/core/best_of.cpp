// The deadline's best_of mode (docs/git.md): the commit on time and the newest, the higher score
// kept.
#include "grader/core/detail/grading.h"
#include "grader/core/report_assembly.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

std::string score_text(const reports::report& r) {
  std::string text = fmt::format("{:.2f}", r.score.value_or(0));
  if (r.late_penalty > 0) {
    text += fmt::format(" after {:.2f} for {} late day{}", r.late_penalty, r.submission.late_days,
                        r.submission.late_days == 1 ? "" : "s");
  }
  return text;
}

} // namespace

// The spec's best_of mode: once the deadline graded an older commit, the branch's newest is
// graded too, and the higher score after its late penalty is kept (docs/git.md). Both gradings
// are named in the kept report's notes.
grade_outcome best_of(grade_outcome on_time, const grading& first) {
  grading newest{first.options, first.paths, first.spec, first.backend, first.deadline};
  newest.newest = true;
  auto base = base_report(first.spec, first.options);
  base.environment.sandbox = on_time.report->environment.sandbox;
  say(first.options, "best_of: grading the newest commit too");
  grade_outcome latest = walk(newest, std::move(base));
  if (!latest.report || !latest.report->gradable) {
    on_time.report->submission.notes.push_back(
        "best_of: the newest commit could not be graded, so the commit on time counts" +
        (latest.error.empty() ? std::string() : " (" + latest.error + ")"));
    return on_time;
  }
  finish_scores(*latest.report, first.spec, first.options);
  const auto& a = *on_time.report;
  const auto& b = *latest.report;
  const bool newest_wins = b.score.value_or(0) > a.score.value_or(0);
  const std::string note = fmt::format(
      "best_of: graded the last commit on time, {} ({}), and the newest, {} ({}); kept the {}",
      a.submission.commit.value_or("?").substr(0, 7), score_text(a),
      b.submission.commit.value_or("?").substr(0, 7), score_text(b),
      newest_wins ? "newest" : "commit on time");
  grade_outcome kept = newest_wins ? std::move(latest) : std::move(on_time);
  kept.report->submission.notes.push_back(note);
  kept.report->stages.insert(kept.report->stages.begin(), (newest_wins ? a : b).stages.begin(),
                             (newest_wins ? a : b).stages.end());
  return kept;
}

} // namespace cugrade::grader::detail
