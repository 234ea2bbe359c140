#pragma once
/// \file
/// index.html: one static page that opens from disk with no network access (no script, no CDN,
/// no external font; a Content-Security-Policy forbids fetching anything). It shows the title,
/// assignment, device(s), date and timing protocol, the rules (metric, interval, bands), then per
/// board a table of ranked entries by band, a speedup chart, the roofline charts per benchmark
/// shape (kernel boards) and the unranked entries with their reasons.

#include "grader/leaderboard/leaderboard.h"

#include <string>

namespace cugrade::leaderboard {

[[nodiscard]] std::string render_html(const leaderboard& board);

} // namespace cugrade::leaderboard
