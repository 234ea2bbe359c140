#include "grader/core/detail/diagnosis_evidence.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace cugrade::grader::detail {

using reports::test_status;

std::string evidence::at_line(int line) const {
  return fmt::format("{}:{}", m_in.source_file, line);
}

bool evidence::bad(std::size_t i) const {
  const auto s = outcome(i).status;
  return s == test_status::failed || s == test_status::error;
}

bool evidence::good(std::size_t i) const {
  return outcome(i).status == test_status::passed;
}

// Cases that never ran say nothing either way.
bool evidence::ran(std::size_t i) const {
  return outcome(i).status != test_status::not_run;
}

bool evidence::failed_without_fault(std::size_t i) const {
  return outcome(i).status == test_status::failed;
}

std::optional<std::size_t> evidence::first(const std::function<bool(std::size_t)>& pred) const {
  for (std::size_t i = 0; i < size(); ++i) {
    if (pred(i)) {
      return i;
    }
  }
  return std::nullopt;
}

std::size_t evidence::count(const std::function<bool(std::size_t)>& pred) const {
  std::size_t matched = 0;
  for (std::size_t i = 0; i < size(); ++i) {
    matched += pred(i) ? 1 : 0;
  }
  return matched;
}

bool aligned(const evidence& ev, std::size_t i) {
  return all_multiples_of(ev.problem(), ev.dims(i), alignment_unit);
}

long evidence::extent(std::size_t i) const {
  const auto& s = dims(i);
  return std::max({s.n, s.j, s.k, s.l});
}

std::optional<std::size_t>
evidence::visible_bad(const std::function<bool(std::size_t)>& pred) const {
  return first([&](std::size_t i) { return bad(i) && !m_in.hidden[i] && pred(i); });
}

std::string evidence::name(std::size_t i) const {
  return m_in.hidden[i] ? std::string("a hidden case") : at(i).tc.name;
}

std::string evidence::memory_fault_location() const {
  for (std::size_t i = 0; i < size(); ++i) {
    const auto& o = outcome(i);
    if (o.error_kind && reports::is_memory_fault(*o.error_kind) && !o.location.empty()) {
      return o.location;
    }
  }
  return "";
}

bool close_values(double a, double b) {
  // An infinity is close to nothing but itself (the relative bound would grow with it); NaN is
  // close to nothing.
  if (!std::isfinite(a) || !std::isfinite(b)) {
    return a == b;
  }
  return std::fabs(a - b) <= 1e-5 * std::fmax(1.0, std::fmax(std::fabs(a), std::fabs(b)));
}

std::vector<std::size_t> failing_with_values(const evidence& ev) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (ev.failed_without_fault(i) && !ev.outcome(i).evidence.got.empty()) {
      out.push_back(i);
    }
  }
  return out;
}

} // namespace cugrade::grader::detail
