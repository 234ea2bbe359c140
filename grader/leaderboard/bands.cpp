#include "grader/leaderboard/bands.h"

#include <algorithm>

namespace cugrade::leaderboard {

void assign_bands(std::vector<entry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const entry& a, const entry& b) {
    if (*a.where.metric != *b.where.metric) {
      return *a.where.metric > *b.where.metric;
    }
    return a.name < b.name;
  });
  int band = 0;
  int rank = 0;
  double band_floor = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto& e = entries[i];
    if (band == 0 || e.where.high < band_floor) {
      ++band;
      rank = static_cast<int>(i) + 1;
      band_floor = e.where.low;
    }
    band_floor = std::min(band_floor, e.where.low);
    e.band = band;
    e.rank = rank;
  }
}

} // namespace cugrade::leaderboard
