#pragma once
/// \file
/// Numbers as a reader expects them: a count of histogram elements as 2142950000, not
/// 2.14295e+09; anything else in the shortest form that keeps its meaning.

#include <string>

namespace cugrade::reports {

/// Whole numbers (up to 2^53) without exponent or decimals; other values as "{:g}" ("nan",
/// "inf" and "0.5" stay as they are).
[[nodiscard]] std::string number_text(double value);

} // namespace cugrade::reports
