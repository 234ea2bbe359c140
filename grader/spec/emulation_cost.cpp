#include "grader/spec/emulation_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cugrade::spec {

namespace {

// 6.4e10 for large counts, 1000 for small ones.
std::string count_text(double x) {
  char text[32];
  if (x < 1e5) {
    std::snprintf(text, sizeof text, "%.0f", x);
    return text;
  }
  const int exponent = static_cast<int>(std::floor(std::log10(x)));
  double mantissa = x / std::pow(10.0, exponent);
  int shown_exponent = exponent;
  if (std::round(mantissa * 10) >= 100) { // 9.96e10 rounds to 1.0e11
    mantissa /= 10;
    ++shown_exponent;
  }
  std::snprintf(text, sizeof text, "%.1fe%d", mantissa, shown_exponent);
  return text;
}

// "45 s", "21 min", "3.5 h".
std::string duration_text(double seconds) {
  char text[32];
  if (seconds < 90)
    std::snprintf(text, sizeof text, "%.0f s", std::ceil(seconds));
  else if (seconds < 90 * 60)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  else
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  return text;
}

// One shape of a group and its cases' runs.
struct shape_cost {
  problems::shape shape;
  int distributions = 0;
  double seconds_per_run = 0;
  [[nodiscard]] double seconds() const { return seconds_per_run * distributions * runs_per_case; }
};

std::vector<shape_cost> shape_costs(const assignment_spec& spec, const test_group& group) {
  std::vector<shape_cost> out;
  for (const auto& c : group.cases) {
    auto same = [&c](const shape_cost& s) { return s.shape == c.dims; };
    if (auto it = std::find_if(out.begin(), out.end(), same); it != out.end()) {
      ++it->distributions;
      continue;
    }
    out.push_back({c.dims, 1, emulated_seconds_per_run(spec.problem, c.dims)});
  }
  return out;
}

std::string limit_text(const assignment_spec& spec) {
  return "where each kernel has " + duration_text(spec.lim.kernel_seconds) +
         " (limits.kernel_seconds) for all its cases";
}

std::string shape_warning(const assignment_spec& spec, const test_group& group,
                          const shape_cost& cost) {
  const auto& problem = problems::get(spec.problem);
  const auto pace = problem.emulated_pace();
  const double units = problem.work(cost.shape).flops / pace.flops_per_unit;
  const int runs = cost.distributions * runs_per_case;
  return spec.name + ": group \"" + group.name +
         "\": " + problems::describe(spec.problem, cost.shape) + " needs about " +
         count_text(units) + " " + std::string(pace.unit) + ": about " +
         duration_text(cost.seconds_per_run) + " a run in emulation, " +
         duration_text(cost.seconds()) + " for its " + std::to_string(runs) + " runs (" +
         std::to_string(cost.distributions) + " distribution" +
         (cost.distributions == 1 ? "" : "s") + ", " + std::to_string(runs_per_case) +
         " runs each), " + limit_text(spec) +
         "; lower it, or mark the group gpu-only (\"gpu_only\": true)";
}

} // namespace

double emulated_seconds_per_run(problems::kind problem, const problems::shape& shape) {
  const auto& p = problems::get(problem);
  const auto pace = p.emulated_pace();
  return p.work(shape).flops / pace.flops_per_unit / pace.units_per_second;
}

std::vector<std::string> emulation_cost_warnings(const assignment_spec& spec) {
  std::vector<std::string> warnings;
  double total = 0;
  const test_group* longest_group = nullptr;
  shape_cost longest;
  for (const auto& group : spec.groups) {
    if (group.gpu_only)
      continue;
    for (const auto& cost : shape_costs(spec, group)) {
      total += cost.seconds();
      if (cost.seconds() > spec.lim.kernel_seconds)
        warnings.push_back(shape_warning(spec, group, cost));
      if (longest_group == nullptr || cost.seconds() > longest.seconds()) {
        longest_group = &group;
        longest = cost;
      }
    }
  }
  if (warnings.empty() && longest_group != nullptr && total > spec.lim.kernel_seconds)
    warnings.push_back(spec.name + ": the emulated cases need about " + duration_text(total) +
                       " per kernel in emulation (the longest: group \"" + longest_group->name +
                       "\", " + problems::describe(spec.problem, longest.shape) + ", " +
                       duration_text(longest.seconds()) + "), " + limit_text(spec) +
                       "; lower the largest shapes, raise limits.kernel_seconds, or mark groups "
                       "gpu-only (\"gpu_only\": true)");
  return warnings;
}

} // namespace cugrade::spec
