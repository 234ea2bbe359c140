#include "harness/problems/tolerance.h"

#include "harness/problems/parallel.h"

#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace cugrade::problems {

double gamma_f32(double n) {
  const double nu = n * f32_unit_roundoff;
  if (nu < 1) {
    return nu / (1 - nu);
  }
  // Each of n rounding steps multiplies by at most (1 + u); gamma_n is only a bound on this.
  return std::expm1(n * std::log1p(f32_unit_roundoff));
}

std::vector<double> abs_sums_by_part(std::span<const float> x, std::size_t parts) {
  std::vector<double> sums(parts, 0.0);
  for_parts(x.size(), parts, [&](std::size_t part, std::size_t begin, std::size_t end) {
    double sum = 0;
    for (std::size_t i = begin; i < end; ++i) {
      sum += std::fabs(static_cast<double>(x[i]));
    }
    sums[part] = sum;
  });
  return sums;
}

double f32_sum_tolerance(double terms, double abs_sum, bool integer_inputs) {
  if (integer_inputs && abs_sum <= f32_exact_integer_limit) {
    return 0;
  }
  return gamma_f32(terms) * abs_sum;
}

void tally::record_error(double expected, double got) {
  const double abs_error = std::fabs(got - expected);
  const double rel_error = expected == 0 ? abs_error : abs_error / std::fabs(expected);
  m_result.max_abs_error = std::fmax(m_result.max_abs_error, abs_error);
  m_result.max_rel_error = std::fmax(m_result.max_rel_error, rel_error);
}

void tally::record_mismatch(std::size_t index, double expected, double got, double allowed) {
  ++m_result.mismatches;
  if (!m_result.first) {
    m_result.first = mismatch{index, expected, got};
    m_first_allowed = allowed;
  }
}

void tally::check_f32(std::size_t index, double expected, float got, double allowed) {
  if (std::bit_cast<std::uint32_t>(got) == output_poison_word) {
    ++m_result.poison_count;
    record_mismatch(index, expected, std::numeric_limits<double>::quiet_NaN(), allowed);
    return;
  }
  if (!std::isfinite(got)) {
    ++m_result.nan_count;
    record_mismatch(index, expected, got, allowed);
    return;
  }
  record_error(expected, got);
  // Written so that a NaN bound or error can only fail.
  if (!(std::fabs(static_cast<double>(got) - expected) <= allowed)) {
    record_mismatch(index, expected, got, allowed);
  }
}

void tally::check_u32(std::size_t index, double expected, std::uint32_t got) {
  if (got == output_poison_word) {
    ++m_result.poison_count;
    record_mismatch(index, expected, got, 0);
    return;
  }
  record_error(expected, got);
  if (static_cast<double>(got) != expected) {
    record_mismatch(index, expected, got, 0);
  }
}

void tally::merge(const tally& later) {
  const comparison& o = later.m_result;
  m_result.mismatches += o.mismatches;
  m_result.nan_count += o.nan_count;
  m_result.poison_count += o.poison_count;
  m_result.max_abs_error = std::fmax(m_result.max_abs_error, o.max_abs_error);
  m_result.max_rel_error = std::fmax(m_result.max_rel_error, o.max_rel_error);
  if (!m_result.first && o.first) {
    m_result.first = o.first;
    m_first_allowed = later.m_first_allowed;
  }
}

comparison tally::finish(std::size_t element_count) const {
  comparison c = m_result;
  c.element_count = element_count;
  c.passed = c.mismatches == 0;
  return c;
}

std::string mismatch_summary(const comparison& c, const std::string& elements) {
  if (c.mismatches == 0) {
    return "";
  }
  std::string text = fmt::format("{} of {} {} wrong", c.mismatches, c.element_count, elements);
  if (c.poison_count > 0) {
    text += fmt::format(", {} never written (still the poison word)", c.poison_count);
  }
  if (c.nan_count > 0) {
    text += fmt::format(", {} NaN/Inf", c.nan_count);
  }
  return text;
}

// Whole numbers (histogram counts, bin totals) print as integers, never as 2.14295237e+09.
std::string format_number(double value) {
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 1e15) {
    return fmt::format("{:.0f}", value);
  }
  return fmt::format("{:.9g}", value);
}

} // namespace cugrade::problems
