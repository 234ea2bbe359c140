#include "grader/fetch/fetch.h"

#include "harness/core/iso8601.h"

namespace cugrade::fetch {

using namespace std::chrono;

result<system_clock::time_point> parse_deadline(std::string_view text) {
  auto when = parse_iso8601(text);
  if (!when) {
    return fail("--deadline " + when.error());
  }
  return *when;
}

int late_days(system_clock::time_point graded, system_clock::time_point deadline) {
  if (graded <= deadline)
    return 0;
  const auto late = graded - deadline;
  return static_cast<int>(ceil<days>(late).count());
}

} // namespace cugrade::fetch
