#include "reports/json_real.h"

#include <limits>

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

std::optional<double> real_from_json(const nlohmann::json& j) {
  if (j.is_number()) {
    return j.get<double>();
  }
  if (!j.is_string()) {
    return std::nullopt;
  }
  const auto& name = j.get_ref<const std::string&>();
  if (name == "NaN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (name == "Infinity") {
    return std::numeric_limits<double>::infinity();
  }
  if (name == "-Infinity") {
    return -std::numeric_limits<double>::infinity();
  }
  return std::nullopt;
}

} // namespace cugrade::reports
