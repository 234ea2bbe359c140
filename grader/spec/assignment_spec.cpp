#include "grader/spec/assignment_spec.h"

#include <cstdio>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace cugrade::spec {

namespace {

constexpr std::array<std::pair<visibility, std::string_view>, 4> visibility_names = {{
    {visibility::visible, "visible"},
    {visibility::hidden, "hidden"},
    {visibility::after_due_date, "after_due_date"},
    {visibility::after_published, "after_published"},
}};

} // namespace

std::string_view to_string(visibility v) {
  for (const auto& [value, name] : visibility_names)
    if (value == v)
      return name;
  return "visible";
}

std::optional<visibility> visibility_from_string(std::string_view word) {
  for (const auto& [value, name] : visibility_names)
    if (name == word)
      return value;
  return std::nullopt;
}

std::vector<std::string> visibility_words() {
  std::vector<std::string> words;
  for (const auto& entry : visibility_names)
    words.emplace_back(entry.second);
  return words;
}

const std::vector<std::string>& sanitizer_tools() {
  static const std::vector<std::string> tools = {"memcheck", "racecheck", "synccheck"};
  return tools;
}

double assignment_spec::max_score() const {
  return std::accumulate(kernels.begin(), kernels.end(), 0.0, [](double sum, const kernel_spec& k) {
    return sum + k.points + k.performance_points;
  });
}

double assignment_spec::total_weight() const {
  return std::accumulate(groups.begin(), groups.end(), 0.0,
                         [](double sum, const test_group& g) { return sum + g.weight; });
}

const kernel_spec* assignment_spec::find_kernel(std::string_view kernel_name) const {
  const auto it = std::find_if(kernels.begin(), kernels.end(),
                               [&](const kernel_spec& k) { return k.name == kernel_name; });
  return it == kernels.end() ? nullptr : &*it;
}

const char* to_string(deadline_mode mode) noexcept {
  switch (mode) {
  case deadline_mode::latest_with_penalty:
    return "latest_with_penalty";
  case deadline_mode::best_of:
    return "best_of";
  case deadline_mode::last_on_time:
    break;
  }
  return "last_on_time";
}

namespace {

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%g%%", fraction * 100);
  return text;
}

} // namespace

std::string explain_late_penalty(const late_policy& policy, int late_days, double points) {
  if (late_days <= 0 || !(points > 0))
    return {};
  const double uncapped = late_days * policy.penalty_per_day;
  std::string text = std::to_string(late_days) + (late_days == 1 ? " day" : " days") + " late x " +
                     percent(policy.penalty_per_day) + " a day = ";
  if (uncapped > policy.max_penalty)
    text += percent(uncapped) + ", capped at " + percent(policy.max_penalty) + " = ";
  char deducted[32];
  std::snprintf(deducted, sizeof deducted, "-%.2f", points);
  text += std::string(deducted) + " (policy: " + percent(policy.penalty_per_day) +
          " a day, at most " + percent(policy.max_penalty);
  if (policy.grace_minutes > 0)
    text += ", " + std::to_string(policy.grace_minutes) + " min grace";
  return text + ")";
}

double late_penalty_fraction(const late_policy& policy, int late_days) {
  if (late_days <= 0)
    return 0;
  return std::clamp(late_days * policy.penalty_per_day, 0.0, policy.max_penalty);
}

double performance_fraction(const performance_curve& curve, double speedup) {
  if (!(speedup > curve.zero_speedup)) // NaN earns nothing
    return 0;
  if (speedup >= curve.full_speedup)
    return 1;
  return (speedup - curve.zero_speedup) / (curve.full_speedup - curve.zero_speedup);
}

} // namespace cugrade::spec
