#pragma once
/// \file
/// Rank bands (docs/leaderboard.md, "Bands"): entries sorted by metric, best first (equal metrics
/// by name); an entry joins the band above it when its interval reaches the lowest interval end
/// of that band (its high >= the band's lowest low), so entries whose intervals overlap,
/// directly or through a chain of overlapping neighbours, share a band. A band's rank is one more
/// than the number of entries in better bands (1, 1, 3, ...): noise never decides an order.

#include "grader/leaderboard/leaderboard.h"

#include <vector>

namespace cugrade::leaderboard {

/// Sorts ranked `entries` (each with a metric) and sets their band and rank.
void assign_bands(std::vector<entry>& entries);

} // namespace cugrade::leaderboard
