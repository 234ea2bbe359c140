#include "grader/perf/comparison.h"

#include <fmt/format.h>

namespace cugrade::perf {

namespace {

bool all_verified(const std::vector<launcher_run>& runs) {
  for (const auto& r : runs) {
    if (!r.verified()) {
      return false;
    }
  }
  return !runs.empty();
}

} // namespace

bool comparison_result::a_verified() const {
  return all_verified(a_runs);
}
bool comparison_result::b_verified() const {
  return all_verified(b_runs);
}

std::vector<bool> round_order(int rounds) {
  std::vector<bool> order;
  for (int r = 0; r < rounds; ++r) {
    const bool a_first = r % 2 == 0;
    order.push_back(a_first);
    order.push_back(!a_first);
  }
  return order;
}

result<comparison_result> compare_launchers(const comparison_setup& setup,
                                            const std::string& launcher, const timed_side& a,
                                            const timed_side& b) {
  comparison_result out;
  int round = 0;
  for (const bool is_a : round_order(setup.rounds)) {
    const auto& side = is_a ? a : b;
    auto& runs = is_a ? out.a_runs : out.b_runs;
    if (setup.progress) {
      setup.progress(fmt::format("{}: timing the {} launcher (round {} of {})", launcher,
                                 side.label, runs.size() + 1, setup.rounds));
    }
    timing_target target;
    target.runner = setup.runner;
    target.context = setup.context;
    target.library = side.library;
    target.launcher = launcher;
    target.output_dir =
        setup.work_dir / fmt::format("{}-{}-round-{}", launcher, side.label, round++);
    auto run = time_launcher(setup.problem, target, setup.cases, setup.request, setup.policy);
    if (!run) {
      return fail(run.error());
    }
    runs.push_back(std::move(*run));
    if (!runs.back().verified()) {
      break; // the verdict is known; more rounds would only cost time
    }
  }
  return out;
}

} // namespace cugrade::perf
