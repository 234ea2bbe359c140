#include "reports/number_text.h"

#include <cmath>
#include <fmt/format.h>

namespace cugrade::reports {

std::string number_text(double value) {
  constexpr double exact_integers = 9007199254740992.0; // 2^53
  if (std::isfinite(value) && std::trunc(value) == value && std::abs(value) <= exact_integers) {
    return fmt::format("{:.0f}", value);
  }
  return fmt::format("{:g}", value);
}

} // namespace cugrade::reports
