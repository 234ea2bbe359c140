#include "grader/core/submission_limits.h"

namespace cugrade::grader {

fetch::fetch_limits fetch_limits_of(const spec::assignment_spec& spec) {
  fetch::fetch_limits limits;
  limits.repository_bytes = spec.lim.repository_bytes;
  limits.files_bytes = spec.lim.submission_bytes;
  limits.seconds = spec.lim.fetch_seconds;
  return limits;
}

fetch::copy_limits copy_limits_of(const spec::assignment_spec& spec) {
  fetch::copy_limits limits;
  limits.source_bytes = spec.lim.source_bytes;
  limits.submission_bytes = spec.lim.submission_bytes;
  return limits;
}

} // namespace cugrade::grader
