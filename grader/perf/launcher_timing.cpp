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

std::vector<std::string> timing_target::launchers() const {
  std::vector<std::string> all{launcher};
  all.insert(all.end(), more_launchers.begin(), more_launchers.end());
  return all;
}

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

// The run's cases, each with what the runner reported of it: every launcher's, numbered on.
launcher_run collect_run(const timing_target& target, const std::vector<problems::test_case>& cases,
                         runners::runner_outcome outcome, double seconds) {
  launcher_run run;
  run.runner_seconds = seconds;
  run.outcome = std::move(outcome);
  run.target = target;
  const std::size_t launchers = 1 + target.more_launchers.size();
  for (std::size_t index = 0; index < launchers * cases.size(); ++index) {
    case_run c;
    c.tc = cases[index % cases.size()];
    for (const auto& t : run.outcome.log.timings) {
      if (t.case_index == index) {
        c.record = t;
      }
    }
    run.cases.push_back(std::move(c));
  }
  return run;
}

protocol::plan plan_of(problems::kind problem, const timing_target& target,
                       const std::vector<problems::test_case>& cases,
                       const protocol::timing_request& request) {
  auto plan =
      timing_plan(problem, target.launcher, target.library, target.output_dir, cases, request);
  plan.more_launchers = target.more_launchers;
  return plan;
}

double time_limit_of(const timing_target& target, const protocol::timing_request& request,
                     std::size_t cases) {
  return timing_time_limit(request, cases * (1 + target.more_launchers.size()));
}

// Launcher j's part of a shared run: its cases, and of the log only its timings (so removing its
// saved outputs removes only its own).
launcher_run share_of(const launcher_run& run, const std::string& launcher, std::size_t j,
                      std::size_t n) {
  launcher_run share;
  share.runner_seconds = run.runner_seconds;
  share.outcome = run.outcome;
  share.target = run.target;
  share.target.launcher = launcher;
  share.target.more_launchers.clear();
  share.cases.assign(run.cases.begin() + static_cast<std::ptrdiff_t>(j * n),
                     run.cases.begin() + static_cast<std::ptrdiff_t>((j + 1) * n));
  std::erase_if(share.outcome.log.timings, [&](const protocol::timing_record& t) {
    return t.case_index < j * n || t.case_index >= (j + 1) * n;
  });
  return share;
}

} // namespace

std::vector<std::optional<launcher_run>> launcher_shares(const launcher_run& run) {
  const auto names = run.target.launchers();
  std::vector<std::optional<launcher_run>> shares(names.size());
  const std::size_t n = run.cases.size() / names.size();
  const bool readable = run.outcome.log.started && run.outcome.log.tampering.empty();
  for (std::size_t j = 0; readable && n > 0 && j < names.size(); ++j) {
    auto share = share_of(run, names[j], j, n);
    const bool finished = share.finished();
    if (finished || run.outcome.timed_out) {
      shares[j] = std::move(share);
    }
    if (!finished) {
      break;
    }
  }
  return shares;
}

result<launcher_run> run_timed_launcher(problems::kind problem, const timing_target& target,
                                        const std::vector<problems::test_case>& cases,
                                        const protocol::timing_request& request) {
  const auto started = std::chrono::steady_clock::now();
  auto outcome =
      runners::run_runner(target.context, target.runner, plan_of(problem, target, cases, request),
                          time_limit_of(target, request, cases.size()));
  if (!outcome) {
    return fail(outcome.error());
  }
  return collect_run(target, cases, std::move(*outcome), seconds_since(started));
}

result<started_launcher> start_timed_launcher(problems::kind problem, const timing_target& target,
                                              const std::vector<problems::test_case>& cases,
                                              const protocol::timing_request& request) {
  auto runner = runners::gated_runner::start(target.context, target.runner,
                                             plan_of(problem, target, cases, request),
                                             time_limit_of(target, request, cases.size()));
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
