#pragma once
/// \file
/// The leaderboard model (`cugrade leaderboard`, docs/leaderboard.md): one board per timed kernel
/// and an overall board, each with its ranked entries in rank bands and its unranked entries with
/// the reason. Everything here is publishable: public names only, never a student id, repository
/// or commit (those stay in `identity` rows, which go to the instructor's private CSV).

#include "reports/leaderboard_standing.h"

#include <optional>
#include <string>
#include <vector>

namespace cugrade::leaderboard {

/// The schema identifier of leaderboard.json; the number after the slash is the major version.
inline constexpr std::string_view schema_id = "cugrade.leaderboard/1";

/// The rules, as the page and leaderboard.json state them (docs/leaderboard.md says why).
inline constexpr std::string_view metric_rule =
    "geometric mean of the speedups over the reference solution on every benchmark shape; only "
    "kernels that passed every correctness test with verified, non-noisy GPU timings are ranked";
inline constexpr std::string_view interval_rule =
    "from the geometric means of the per-shape 95% interval ends (bootstrap of the median ratio): "
    "if every shape's speedup lies in its interval, the geometric mean lies in this one";
inline constexpr std::string_view band_rule =
    "entries whose intervals overlap, directly or through a chain of neighbours, share a band and "
    "a rank; noise never decides an order inside a band";
inline constexpr std::string_view timing_protocol =
    "cugrade GPU timing protocol (docs/timing.md): cold L2, gated launches, verified outputs, "
    "the reference timed on the same GPU";

struct entry {
  std::string name;        ///< nickname or pseudonym
  std::optional<int> rank; ///< competition rank of its band (1, 1, 3, ...); ranked entries only
  std::optional<int> band; ///< 1-based band number; ranked entries only
  reports::standing where;
  std::vector<reports::case_figure> cases; ///< per benchmark shape (kernel boards)
  std::string device;                      ///< the GPU it was timed on
  /// Why the kernel is slower, as insight kinds, costliest first (kernel boards; the page links
  /// each to what it means, docs/insight.md).
  std::vector<std::string> insights;
};

struct board {
  std::string name;                 ///< the kernel, or "overall"
  bool overall = false;
  std::vector<std::string> kernels; ///< the kernels the overall metric combines
  std::vector<entry> ranked;        ///< best first
  std::vector<entry> unranked;      ///< by name
};

struct leaderboard {
  std::string title;
  std::string assignment;
  std::string spec_sha256;
  std::string created_at;           ///< ISO 8601 UTC
  std::vector<std::string> devices; ///< distinct GPUs of the ranked entries
  std::vector<board> boards;        ///< kernels in report order, then overall
};

/// One line of the private CSV: who a public name is.
struct identity {
  std::string public_name;
  std::string student;
  std::string source; ///< "nickname" or "pseudonym"
  std::string repository;
  std::string commit;
};

} // namespace cugrade::leaderboard
