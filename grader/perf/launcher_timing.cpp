#include "grader/perf/launcher_timing.h"

#include "grader/perf/benchmark_plan.h"

#include <system_error>

namespace cugrade::perf {

namespace {

// A matmul run saves hundreds of megabytes of outputs; once checked they are not needed.
void remove_saved_outputs(const protocol::runner_log& log, const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& t : log.timings) {
    for (const auto& s : t.saved) {
      std::filesystem::remove(dir / s.file, ec);
    }
  }
}

} // namespace

bool launcher_run::verified() const {
  for (const auto& c : cases) {
    if (!c.record || !c.check.ok()) {
      return false;
    }
  }
  return !cases.empty();
}

std::string launcher_run::first_problem() const {
  for (const auto& c : cases) {
    if (!c.record) {
      return "the timing run of " + c.tc.name + " did not finish: " + outcome.ending();
    }
    if (!c.check.ok()) {
      return c.tc.name + ": " + c.check.message;
    }
  }
  return "";
}

result<launcher_run> time_launcher(problems::kind problem, const timing_target& target,
                                   const std::vector<problems::test_case>& cases,
                                   const protocol::timing_request& request,
                                   const check_policy& policy) {
  const auto plan =
      timing_plan(problem, target.launcher, target.library, target.output_dir, cases, request);
  auto outcome = run_runner(target.runner, plan, timing_time_limit(request, cases.size()));
  if (!outcome) {
    return fail(outcome.error());
  }
  launcher_run run;
  run.outcome = std::move(*outcome);
  const auto& definition = problems::get(problem);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    case_run c;
    c.tc = cases[i];
    for (const auto& t : run.outcome.log.timings) {
      if (t.case_index == i) {
        c.record = t;
      }
    }
    if (c.record) {
      c.check = verify_timed_case(definition, c.tc, request.input_sets, *c.record,
                                  target.output_dir, policy);
    }
    run.cases.push_back(std::move(c));
  }
  if (!target.keep_outputs) {
    remove_saved_outputs(run.outcome.log, target.output_dir);
  }
  return run;
}

} // namespace cugrade::perf
