#include "grader/batch/new_commits.h"
#include "harness/core/iso8601.h"

#include "grader/core/submission_limits.h"
#include "grader/fetch/fetch.h"

namespace cugrade::batch {

namespace {

// The commit grading would pick now, or nullopt when the source cannot be fetched (grading will
// say why) or is not a git repository.
std::optional<std::string> commit_now(const roster_entry& e, const batch_options& o,
                                      const grader::layout& l, const spec::assignment_spec& spec) {
  const std::optional<std::string>& spec_deadline = spec.deadline;
  fetch::fetch_request req;
  req.source = e.repository;
  req.commit = e.commit;
  const auto& batch_deadline = o.grading.deadline;
  const auto deadline = e.deadline ? e.deadline : batch_deadline ? batch_deadline : spec_deadline;
  if (deadline) {
    if (auto when = cugrade::parse_iso8601(*deadline)) {
      req.deadline = *when;
    }
  }
  req.cache_dir = l.cache_dir / "repos";
  req.fetcher = l.fetcher();
  req.limits = grader::fetch_limits_of(spec);
  const auto fetched = fetch::fetch_submission(req);
  return fetched && fetched->is_git ? fetched->commit : std::nullopt;
}

} // namespace

std::set<std::string> students_with_new_commits(const batch_options& o, const grader::layout& l,
                                                journal& j, const spec::assignment_spec& spec) {
  std::set<std::string> out;
  for (const auto& e : o.roster.entries) {
    const auto rec = j.find(e.student);
    if (!rec || rec->state != student_state::written || rec->commit.empty()) {
      continue;
    }
    const auto now = commit_now(e, o, l, spec);
    if (now && *now != rec->commit) {
      out.insert(e.student);
    }
  }
  return out;
}

} // namespace cugrade::batch
