#include "grader/spec/detail/spec_reader.h"

#include "grader/spec/suggest.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace cugrade::spec::detail {

namespace {

// Points are money to students: negative, infinite or absurd values are typos.
std::optional<double> read_points(object_reader& r, std::string_view key, bool required) {
  auto points = r.number(key, "10", required);
  if (points && !(std::isfinite(*points) && *points >= 0 && *points <= 1e6)) {
    r.diag().error(r.path_of(key), "must be between 0 and 1000000, got " + number_text(*points) +
                                       "; write e.g. \"" + std::string(key) + "\": 10");
    return std::nullopt;
  }
  return points;
}

std::string kernel_example(const std::string& launcher) {
  return "{\"name\": \"" + launcher + "\", \"points\": 10}";
}

std::optional<kernel_spec> read_kernel(const json& value, const std::string& path,
                                       const std::vector<std::string>& launchers,
                                       problems::kind problem, diagnostics& diag) {
  if (!expect_kind(value, value_kind::object, path, kernel_example(launchers.front()), diag))
    return std::nullopt;
  object_reader r(value, path, diag);
  r.reject_unknown_keys({"name", "points", "performance_points"});
  kernel_spec kernel;
  auto name = r.text("name", "\"" + launchers.front() + "\"", true);
  if (name && std::find(launchers.begin(), launchers.end(), *name) == launchers.end()) {
    diag.error(r.path_of("name"), json(*name).dump() + " is not a launcher of problem " +
                                      std::string(problems::to_string(problem)) + " " +
                                      expected_one_of(*name, launchers));
    name.reset();
  }
  const auto points = read_points(r, "points", true);
  const auto performance = read_points(r, "performance_points", false);
  if (!name || !points)
    return std::nullopt;
  kernel.name = *name;
  kernel.points = *points;
  kernel.performance_points = performance.value_or(0);
  return kernel;
}

void require_every_launcher(const object_reader& top, const std::vector<std::string>& launchers,
                            problems::kind problem, const std::set<std::string>& listed) {
  for (const auto& launcher : launchers)
    if (!listed.contains(launcher))
      top.diag().error(top.path_of("kernels"),
                       "launcher \"" + launcher + "\" of problem " +
                           std::string(problems::to_string(problem)) +
                           " is not listed; every launcher is graded, so add " +
                           kernel_example(launcher) + " (points may be 0)");
}

} // namespace

void read_kernels(object_reader& top, problems::kind problem, assignment_spec& out) {
  const auto launchers = problems::get(problem).launchers();
  const json* list = top.get("kernels", value_kind::array,
                             "[" + kernel_example(launchers.front()) + ", ...]", true);
  if (list == nullptr)
    return;
  std::set<std::string> listed;
  bool all_read = true;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = element(top.path_of("kernels"), i);
    auto kernel = read_kernel((*list)[i], path, launchers, problem, top.diag());
    if (!kernel) {
      all_read = false;
      continue;
    }
    if (!listed.insert(kernel->name).second) {
      top.diag().error(child(path, "name"), "kernel \"" + kernel->name +
                                                "\" is listed twice; keep one entry per launcher");
      continue;
    }
    out.kernels.push_back(*kernel);
  }
  // A misspelt entry already produced a message naming the launcher it probably meant.
  if (all_read)
    require_every_launcher(top, launchers, problem, listed);
}

} // namespace cugrade::spec::detail
