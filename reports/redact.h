#pragma once
/// \file
/// The hidden-visibility rule, enforced once for every writer: a test whose visibility (or whose
/// group's visibility) is `hidden` is written with its name replaced by "hidden group <g> case
/// <n>", its group, its visibility and its status, and nothing else: no shape, distribution,
/// errors, mismatch or message. Every writer takes a `redacted_report`, which only `redact` makes,
/// so a grader that forgot to strip a hidden case cannot leak it (defence in depth), and neither
/// can a new format.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "reports/report.h"

namespace cugrade::reports {

/// True when `t` belongs to a hidden test (its own visibility, or its group's in `k`, is hidden).
[[nodiscard]] bool conceals_details(const kernel_report& k, const test_result& t);

/// The name a hidden test is written under: "hidden group <group> case <ordinal>" (1-based,
/// counted within the kernel and group in report order).
[[nodiscard]] std::string hidden_test_name(std::string_view group, std::size_t ordinal);

class redacted_report;

/// `r` as every writer sees it: hidden tests stripped to name, group, visibility and status; the
/// original names and shapes of hidden tests and their sizes (when they are not also public) are
/// replaced by "<hidden case>" in the free text of the same kernel (its message, other tests'
/// messages and performance notes); a hint that names any of them says only what kind of mistake
/// the hidden tests show (hidden_hint_message), without its evidence.
[[nodiscard]] redacted_report redact(const report& r);

/// A report that has been through `redact`, the only function that makes one. Every renderer
/// (JSON, Gradescope, JUnit, text, and any format added later) takes this type, so a renderer
/// cannot be handed a report whose hidden tests still carry their details.
class redacted_report {
public:
  [[nodiscard]] const report& get() const { return m_report; }
  const report* operator->() const { return &m_report; }

private:
  explicit redacted_report(report r) : m_report(std::move(r)) {}
  friend redacted_report redact(const report& r);
  report m_report;
};

/// What a hint that would name a hidden test's details says instead: the kind of mistake, and
/// that its details stay hidden.
[[nodiscard]] std::string hidden_hint_message(const hint_code& code);

} // namespace cugrade::reports
