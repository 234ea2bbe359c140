#pragma once
/// \file
/// The tolerance policy and the element-by-element comparison shared by every problem.
///
/// Policy (the maths is in docs/tolerances.md):
/// - A float32 result of a sum of `terms` rounded operations is accepted when
///   |got - expected| <= gamma_terms * sum|term|, gamma_n = n u / (1 - n u), u = 2^-24.
///   This is Higham's bound for any summation order, with or without FMA, so it cannot fail a
///   correct float32 kernel; problems pass one more term than the kernel rounds (k + 1 for a
///   k-term dot product, n for n-1 additions) so the slack u * sum|term| also covers the error
///   of the double-precision reference. There is no absolute floor.
/// - Integer-valued inputs whose absolute sum is at most 2^24 are compared exactly: every
///   partial sum of any order is then an integer float32 represents exactly.
/// - NaN and Inf are never close; an element still holding the poison word was never written.
/// - Counts (histogram bins) are compared exactly.

#include "harness/problems/problem.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cugrade::problems {

/// u: the unit roundoff of float32 with round-to-nearest.
inline constexpr double f32_unit_roundoff = 0x1p-24;
/// Integers up to this magnitude are exact in float32, so are sums that never leave the range.
inline constexpr double f32_exact_integer_limit = 0x1p24;

/// gamma_n = n u / (1 - n u) for float32. Where n u >= 1 that form is undefined, and the
/// (still rigorous, larger) (1 + u)^n - 1 is returned instead.
[[nodiscard]] double gamma_f32(double n);

/// Sum of |x| (in double) of each of `parts` contiguous parts of `x`, cut as for_parts cuts them
/// and summed on its threads: the terms' absolute sums that tolerances scale with.
[[nodiscard]] std::vector<double> abs_sums_by_part(std::span<const float> x, std::size_t parts);

/// Allowed |got - expected| for a float32 sum whose rounding count is `terms` and whose terms'
/// absolute values add up to `abs_sum`: 0 when `integer_inputs` and abs_sum <= 2^24.
[[nodiscard]] double f32_sum_tolerance(double terms, double abs_sum, bool integer_inputs);

/// Accumulates a comparison element by element. Use one per thread over contiguous index
/// ranges and merge them in index order, so `first` is the lowest wrong index.
class tally {
public:
  /// A float32 output element against its reference with the given tolerance.
  void check_f32(std::size_t index, double expected, float got, double allowed);
  /// A count output element against its reference; counts are exact.
  void check_u32(std::size_t index, double expected, std::uint32_t got);
  /// Adds the tally of the range that follows this one.
  void merge(const tally& later);

  /// The tolerance that applied to the first mismatch (for the note).
  [[nodiscard]] double first_allowed() const { return m_first_allowed; }
  /// The comparison with `passed` and `element_count` filled in; the note is left to the problem.
  [[nodiscard]] comparison finish(std::size_t element_count) const;

private:
  void record_mismatch(std::size_t index, double expected, double got, double allowed);
  void record_error(double expected, double got);

  comparison m_result;
  double m_first_allowed = 0;
};

/// "3 of 256 bins wrong, 2 never written (still the poison word), 1 NaN/Inf", or "" when none.
[[nodiscard]] std::string mismatch_summary(const comparison& c, const std::string& elements);

/// A number as a short exact-enough decimal for notes ("0.1", "1.5e-07", "nan").
[[nodiscard]] std::string format_number(double value);

} // namespace cugrade::problems
