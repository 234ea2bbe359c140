#pragma once
/// \file
/// The hidden-visibility rule, enforced once for every writer: a test whose visibility (or whose
/// group's visibility) is `hidden` is written with its name replaced by "hidden group <g> case
/// <n>", its group, its visibility and its status, and nothing else: no shape, distribution,
/// errors, mismatch or message. Every writer renders `redact(r)`, never `r`, so a grader that
/// forgot to strip a hidden case cannot leak it (defence in depth).

#include <cstddef>
#include <string>
#include <string_view>

#include "reports/report.h"

namespace cugrade::reports {

/// True when `t` belongs to a hidden test (its own visibility, or its group's in `k`, is hidden).
[[nodiscard]] bool conceals_details(const kernel_report& k, const test_result& t);

/// The name a hidden test is written under: "hidden group <group> case <ordinal>" (1-based,
/// counted within the kernel and group in report order).
[[nodiscard]] std::string hidden_test_name(std::string_view group, std::size_t ordinal);

/// `r` as every writer sees it: hidden tests stripped to name, group, visibility and status; the
/// original names and shapes of hidden tests (when they are not also public) are replaced by
/// "<hidden case>" in the free text of the same kernel (its message, hints, other tests' messages
/// and performance notes).
[[nodiscard]] report redact(const report& r);

} // namespace cugrade::reports
