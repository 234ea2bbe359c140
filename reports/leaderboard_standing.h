#pragma once
/// \file
/// Where one kernel of one report stands on a leaderboard (docs/leaderboard.md): ranked, with the
/// geometric mean of its per-shape speedups and an interval for it, or unranked with the reason.
/// Only a kernel that passed every correctness test, on a GPU, with every benchmark shape timed,
/// verified, not noisy, not suspicious and compared with a reference time is ranked.
///
/// It lives with the report model (not with `cugrade leaderboard`) so the Gradescope writer can
/// give a submission the same leaderboard figures the published board shows
/// (`gradescope_leaderboard`).

#include "reports/report.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace cugrade::reports {

/// One benchmark shape of a ranked kernel: its speedup with the 95% interval of the report, and
/// the achieved rate beside the device's roof and the vendor library on the same case.
struct case_figure {
  std::string shape;
  std::string distribution;
  double speedup = 0, speedup_low = 0, speedup_high = 0;
  std::optional<double> rate;         ///< GFLOP/s (matmul) or GB/s (the others)
  std::string unit;                   ///< "GFLOP/s" or "GB/s"; empty without a rate
  std::optional<double> roof;         ///< the device's roof in `unit` (rate / roof_percent)
  std::optional<double> library_rate; ///< the library's rate on the same case, in `unit`
  std::string library_name;           ///< e.g. "cuBLAS", "CUB"
  std::string reference_source;       ///< cache, measured or abba (docs/timing.md section 3)
};

/// A leaderboard metric with its interval; unranked when `metric` is empty, `reason` says why.
struct standing {
  std::optional<double> metric; ///< geometric mean of the speedups
  double low = 0, high = 0;     ///< geometric means of the interval ends (see leaderboard.md)
  std::string reason;           ///< why unranked; never copies text from the report
  [[nodiscard]] bool ranked() const { return metric.has_value(); }
};

struct kernel_standing {
  std::string kernel;
  standing where;
  std::vector<case_figure> cases; ///< filled when ranked
  /// The kinds of the kernel's insights, costliest first (docs/insight.md): the causes only,
  /// never their words, which quote the student's source.
  std::vector<std::string> insights;
};

/// The insight kinds the schema knows, in the order docs/insight.md explains them.
[[nodiscard]] const std::vector<std::string>& insight_kinds();

/// True when `k` is a leaderboard kernel: the rubric gives it performance points, it was timed, or
/// the report says why it was not (in emulation the points read 0 and the note says why).
[[nodiscard]] bool is_timed_kernel(const kernel_report& k);

/// Why no kernel of `r` can be ranked (not gradable, or not graded on a GPU); empty otherwise.
[[nodiscard]] std::string report_reason(const report& r);

/// Where `kernel` of `r` stands (the kernel may be absent from `r`: unranked, with the reason).
[[nodiscard]] kernel_standing standing_of(const report& r, std::string_view kernel);

/// The overall standing from the kernels' standings: ranked only when every kernel is; the
/// metric is the geometric mean of theirs, the interval the geometric means of their ends.
[[nodiscard]] standing overall_standing(const std::vector<kernel_standing>& kernels);

/// The leaderboard kernels of one report, in report order.
[[nodiscard]] std::vector<std::string> timed_kernels(const report& r);

/// Gradescope's results.json "leaderboard" array for `r` over `kernels`:
/// {"name": "<kernel> speedup", "value": metric, "order": "desc"} for each ranked kernel, then
/// {"name": "overall speedup", ...} when every kernel is ranked. The same numbers as
/// leaderboard.json's entries for this submission.
[[nodiscard]] nlohmann::ordered_json gradescope_leaderboard(const report& r,
                                                            const std::vector<std::string>& kernels);
/// gradescope_leaderboard over timed_kernels(r).
[[nodiscard]] nlohmann::ordered_json gradescope_leaderboard(const report& r);

/// The name of the overall board and of its Gradescope entry's prefix.
inline constexpr std::string_view overall_board = "overall";

} // namespace cugrade::reports
