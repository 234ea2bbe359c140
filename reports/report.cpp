#include "reports/report.h"

#include <chrono>
#include <ctime>
#include <utility>

namespace cugrade::reports {

std::string now_iso8601_utc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(text, length);
}

void mark_ungradable(report& r, std::string reason) {
  r.gradable = false;
  r.score.reset();
  r.infrastructure_error = std::move(reason);
}

} // namespace cugrade::reports
