#include "grader/perf/launcher_timing.h"

#include "grader/perf/benchmark_plan.h"
#include "harness/core/elapsed.h"

#include <chrono>
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

bool launcher_run::finished() const {
  for (const auto& c : cases) {
    if (!c.record) {
      return false;
    }
  }
  return !cases.empty();
}

bool launcher_run::verified() const {
  if (!checked || !finished()) {
    return false;
  }
  for (const auto& c : cases) {
    if (!c.check.ok()) {
      return false;
    }
  }
  return true;
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

namespace {

// The run's cases, each with what the runner reported of it.
launcher_run collect_run(const timing_target& target, const std::vector<problems::test_case>& cases,
                         runner_outcome outcome, double seconds) {
  launcher_run run;
  run.runner_seconds = seconds;
  run.outcome = std::move(outcome);
  run.target = target;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    case_run c;
    c.tc = cases[i];
    for (const auto& t : run.outcome.log.timings) {
      if (t.case_index == i) {
        c.record = t;
      }
    }
    run.cases.push_back(std::move(c));
  }
  return run;
}

} // namespace

result<launcher_run> run_timed_launcher(problems::kind problem, const timing_target& target,
                                        const std::vector<problems::test_case>& cases,
                                        const protocol::timing_request& request) {
  const auto plan =
      timing_plan(problem, target.launcher, target.library, target.output_dir, cases, request);
  const auto started = std::chrono::steady_clock::now();
  auto outcome = run_runner(target.runner, plan, timing_time_limit(request, cases.size()));
  if (!outcome) {
    return fail(outcome.error());
  }
  return collect_run(target, cases, std::move(*outcome), seconds_since(started));
}

result<started_launcher> start_timed_launcher(problems::kind problem, const timing_target& target,
                                              const std::vector<problems::test_case>& cases,
                                              const protocol::timing_request& request) {
  const auto plan =
      timing_plan(problem, target.launcher, target.library, target.output_dir, cases, request);
  auto runner =
      gated_runner::start(target.runner, plan, timing_time_limit(request, cases.size()));
  if (!runner) {
    return fail(runner.error());
  }
  return started_launcher{target, cases, std::move(*runner)};
}

result<launcher_run> run_started_launcher(started_launcher& started) {
  const auto at = std::chrono::steady_clock::now();
  auto outcome = started.runner->go();
  if (!outcome) {
    return fail(outcome.error());
  }
  return collect_run(started.target, started.cases, std::move(*outcome), seconds_since(at));
}

void check_timed_launcher(problems::kind problem, const protocol::timing_request& request,
                          const check_policy& policy, launcher_run& run) {
  const auto started = std::chrono::steady_clock::now();
  const auto& definition = problems::get(problem);
  for (auto& c : run.cases) {
    if (c.record) {
      c.check = request.save_outputs
                    ? verify_timed_case(definition, c.tc, request.input_sets, *c.record,
                                        run.target.output_dir, policy)
                    : verify_timed_calls(definition, c.tc, request.input_sets, *c.record);
    }
  }
  if (!run.target.keep_outputs) {
    remove_saved_outputs(run.outcome.log, run.target.output_dir);
  }
  run.checked = true;
  run.check_seconds = seconds_since(started);
}

result<launcher_run> time_launcher(problems::kind problem, const timing_target& target,
                                   const std::vector<problems::test_case>& cases,
                                   const protocol::timing_request& request,
                                   const check_policy& policy) {
  auto run = run_timed_launcher(problem, target, cases, request);
  if (run) {
    check_timed_launcher(problem, request, policy, *run);
  }
  return run;
}

} // namespace cugrade::perf
