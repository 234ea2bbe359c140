#include "reports/report.h"

#include "harness/core/iso8601.h"

#include <chrono>
#include <utility>

namespace cugrade::reports {

std::string now_iso8601_utc() {
  return format_iso8601_utc(std::chrono::system_clock::now());
}

void mark_ungradable(report& r, std::string reason) {
  r.gradable = false;
  r.score.reset();
  r.infrastructure_error = std::move(reason);
}

} // namespace cugrade::reports
