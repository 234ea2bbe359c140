#pragma once
/// \file
/// How every writer shows a case's debug output (test_result::output): a heading with its size,
/// the text escaped (a student's output may hold terminal control sequences) and indented, and
/// how much was cut.

#include "reports/report.h"

#include <string>
#include <string_view>

namespace cugrade::reports {

/// "output (120 bytes):" then each line after `indent`, then "[N more bytes not shown]" when the
/// capture was cut; "" when the case wrote nothing.
[[nodiscard]] std::string debug_output_block(const test_result& t, std::string_view indent);

} // namespace cugrade::reports
