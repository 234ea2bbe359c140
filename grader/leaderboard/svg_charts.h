#pragma once
/// \file
/// The page's charts as inline SVG (no script, no external resource):
/// - speedup_chart: one row per ranked entry, the speedup as a dot with its interval as a bar, on
///   a logarithmic axis with the reference (1.0) marked; rows of the same band share a shade;
/// - roofline_chart: for one benchmark shape, each ranked entry's achieved GFLOP/s or GB/s as a
///   bar against the device's roof and the vendor library's rate (cuBLAS, CUB) as lines, on a
///   logarithmic axis.

#include "grader/leaderboard/leaderboard.h"

#include <cstddef>
#include <string>

namespace cugrade::leaderboard {

/// `id` names the chart uniquely on the page (its clip path).
[[nodiscard]] std::string speedup_chart(const board& b, const std::string& id);

/// The chart for `b`'s benchmark shape number `shape` (entries' cases share the order); an empty
/// string when no ranked entry has a rate for it.
[[nodiscard]] std::string roofline_chart(const board& b, std::size_t shape, const std::string& id);

} // namespace cugrade::leaderboard
