#include "reports/json_real.h"

#include <cmath>
#include <string>

namespace cugrade::reports {

nlohmann::ordered_json real_to_json(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "Infinity" : "-Infinity";
  }
  return value;
}

} // namespace cugrade::reports
