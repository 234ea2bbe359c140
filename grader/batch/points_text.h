#pragma once
/// \file
/// Points as a person and an LMS read them: at most two decimals, no trailing zeros ("29.59",
/// "17.5", "20"), never the 17 digits of a double (29.589776573699904).

#include <string>

namespace cugrade::batch {

/// `points` rounded to two decimals, trailing zeros and a bare point left out; "-0" is "0".
[[nodiscard]] std::string points_text(double points);

} // namespace cugrade::batch
