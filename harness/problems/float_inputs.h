#pragma once
/// \file
/// The float input distributions that sum-like problems (reduction, scan) share:
/// "real_offset" (1 + uniform[-0.5, 0.5) on a grid float32 represents exactly, so sums grow with
/// n and no cancellation hides lost elements), "integer" (integers in [-8, 8]) and "ones"
/// (all 1.0f). The latter two are exact in float32 while the sum of |x| stays at most 2^24.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cugrade::problems {

/// The distributions' names, in the order cases list them.
[[nodiscard]] std::vector<std::string> float_distributions();

/// Whether the distribution holds only integers (compared exactly while sum|x| <= 2^24).
[[nodiscard]] bool integer_distribution(const std::string& distribution);

/// Fills `out` from `distribution` and `seed`; the same arguments give the same bytes on any
/// number of threads, and a longer output extends a shorter one.
void fill_float_distribution(std::span<float> out, const std::string& distribution,
                             std::uint64_t seed);

} // namespace cugrade::problems
