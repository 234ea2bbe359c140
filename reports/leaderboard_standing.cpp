#include "reports/leaderboard_standing.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace cugrade::reports {

namespace {

bool positive(const std::optional<double>& v) {
  return v && std::isfinite(*v) && *v > 0;
}

// How many of the kernel's entries `bad` holds for.
template <class Pred> std::size_t count_entries(const kernel_report& k, Pred bad) {
  return static_cast<std::size_t>(std::count_if(k.performance.begin(), k.performance.end(), bad));
}

std::string shapes_text(std::size_t n, std::size_t of) {
  return fmt::format("{} of {} benchmark shape{}", n, of, of == 1 ? "" : "s");
}

bool interval_usable(const performance_entry& e) {
  return positive(e.speedup) && positive(e.speedup_ci_low) && positive(e.speedup_ci_high) &&
         *e.speedup_ci_low <= *e.speedup && *e.speedup <= *e.speedup_ci_high;
}

// Why the kernel's status keeps it off the board (empty when it passed).
std::string status_reason(const kernel_report& k) {
  if (k.status == kernel_status::passed) {
    return {};
  }
  std::string why =
      fmt::format("did not pass every correctness test (status {}", to_string(k.status));
  if (k.error_kind) {
    why += fmt::format(": {}", to_string(*k.error_kind));
  }
  return why + ")";
}

// Why the kernel's timing cannot be ranked (empty when it can). Every text is cugrade's own:
// nothing is copied from the report, whose free text may name a student or a path.
std::string timing_reason(const kernel_report& k) {
  const std::size_t n = k.performance.size();
  if (n == 0) {
    return "not timed (no performance measurement in the report)";
  }
  if (const auto c = count_entries(k, [](const auto& e) { return e.noisy; }); c > 0) {
    return "timing too noisy to rank (" + shapes_text(c, n) +
           "); a regrade on a quiet GPU measures it";
  }
  if (const auto c = count_entries(k, [](const auto& e) { return e.suspicious; }); c > 0) {
    return "timing implausible (" + shapes_text(c, n) + "): see the report's performance notes";
  }
  if (const auto c = count_entries(k, [](const auto& e) { return !positive(e.speedup); }); c > 0) {
    return "timing not verified, no speedup (" + shapes_text(c, n) + ")";
  }
  if (const auto c = count_entries(k, [](const auto& e) { return e.reference_source.empty(); });
      c > 0) {
    return "no reference time to compare with (" + shapes_text(c, n) + ")";
  }
  if (const auto c = count_entries(k, [](const auto& e) { return !interval_usable(e); }); c > 0) {
    return "no usable confidence interval for the speedup (" + shapes_text(c, n) + ")";
  }
  return {};
}

case_figure figure_of(const performance_entry& e) {
  case_figure f{
      e.shape, e.distribution, *e.speedup,        *e.speedup_ci_low, *e.speedup_ci_high, {}, {}, {},
      {},      e.library_name, e.reference_source};
  if (positive(e.gflops)) {
    f.rate = e.gflops;
    f.unit = "GFLOP/s";
  } else if (positive(e.gbps)) {
    f.rate = e.gbps;
    f.unit = "GB/s";
  }
  if (f.rate && positive(e.roof_percent)) {
    f.roof = *f.rate * 100.0 / *e.roof_percent;
  }
  if (f.rate && positive(e.library_ms) && e.median_ms > 0) {
    f.library_rate = *f.rate * e.median_ms / *e.library_ms; // the same work in the library's time
  }
  return f;
}

double geometric_mean(const std::vector<double>& values) {
  double log_sum = 0;
  for (double v : values) {
    log_sum += std::log(v);
  }
  return std::exp(log_sum / static_cast<double>(values.size()));
}

standing unranked(std::string reason) {
  standing s;
  s.reason = std::move(reason);
  return s;
}

// The metric and interval from per-part estimates and interval ends.
standing combined(const std::vector<double>& mid, const std::vector<double>& low,
                  const std::vector<double>& high) {
  standing s;
  s.metric = geometric_mean(mid);
  s.low = geometric_mean(low);
  s.high = geometric_mean(high);
  return s;
}

} // namespace

bool is_timed_kernel(const kernel_report& k) {
  return k.performance_max > 0 || !k.performance.empty() || !k.performance_note.empty();
}

std::string report_reason(const report& r) {
  if (!r.gradable) {
    return "not gradable (the grading itself failed; a regrade fixes it)";
  }
  if (r.environment.backend != backend_kind::gpu) {
    return "graded in emulation: no GPU timing";
  }
  return {};
}

std::vector<std::string> timed_kernels(const report& r) {
  std::vector<std::string> out;
  for (const auto& k : r.kernels) {
    if (is_timed_kernel(k)) {
      out.push_back(k.name);
    }
  }
  return out;
}

const std::vector<std::string>& insight_kinds() {
  static const std::vector<std::string> kinds{"uncoalesced_access", "bank_conflicts",
                                              "excess_traffic",     "global_atomics",
                                              "idle_lanes",         "low_occupancy"};
  return kinds;
}

kernel_standing standing_of(const report& r, std::string_view kernel) {
  kernel_standing out{std::string(kernel), {}, {}, {}};
  const auto k = std::find_if(r.kernels.begin(), r.kernels.end(),
                              [&](const kernel_report& x) { return x.name == kernel; });
  if (k != r.kernels.end()) {
    const auto& known = insight_kinds();
    for (const auto& i : k->insights) {
      if (std::find(known.begin(), known.end(), i.kind) != known.end()) {
        out.insights.push_back(i.kind);
      }
    }
  }
  std::string why = report_reason(r);
  if (why.empty() && k == r.kernels.end()) {
    why = "no result for this kernel in the report";
  }
  if (why.empty()) {
    why = status_reason(*k);
  }
  if (why.empty()) {
    why = timing_reason(*k);
  }
  if (!why.empty()) {
    out.where = unranked(std::move(why));
    return out;
  }
  std::vector<double> mid, low, high;
  for (const auto& e : k->performance) {
    out.cases.push_back(figure_of(e));
    mid.push_back(out.cases.back().speedup);
    low.push_back(out.cases.back().speedup_low);
    high.push_back(out.cases.back().speedup_high);
  }
  out.where = combined(mid, low, high);
  return out;
}

standing overall_standing(const std::vector<kernel_standing>& kernels) {
  if (kernels.empty()) {
    return unranked("no timed kernel");
  }
  std::vector<double> mid, low, high;
  for (const auto& k : kernels) {
    if (!k.where.ranked()) {
      return unranked("not ranked on " + k.kernel + ": " + k.where.reason);
    }
    mid.push_back(*k.where.metric);
    low.push_back(k.where.low);
    high.push_back(k.where.high);
  }
  return combined(mid, low, high);
}

nlohmann::ordered_json gradescope_leaderboard(const report& r,
                                              const std::vector<std::string>& kernels) {
  nlohmann::ordered_json board = nlohmann::ordered_json::array();
  std::vector<kernel_standing> all;
  for (const auto& name : kernels) {
    all.push_back(standing_of(r, name));
    if (all.back().where.ranked()) {
      board.push_back(
          {{"name", name + " speedup"}, {"value", *all.back().where.metric}, {"order", "desc"}});
    }
  }
  if (const auto overall = overall_standing(all); overall.ranked()) {
    board.push_back({{"name", std::string(overall_board) + " speedup"},
                     {"value", *overall.metric},
                     {"order", "desc"}});
  }
  return board;
}

nlohmann::ordered_json gradescope_leaderboard(const report& r) {
  return gradescope_leaderboard(r, timed_kernels(r));
}

} // namespace cugrade::reports
