// Correctness, the first stage after the build: every kernel's cases in its runners (on the GPU
// one runner shared by the kernels first), verdicts and diagnosis.
#include "grader/core/case_plan.h"
#include "grader/core/detail/grading.h"
#include "grader/core/source_facts.h"
#include "grader/core/kernel_verdict.h"
#include "grader/core/one_runner.h"
#include "grader/core/report_assembly.h"
#include "grader/core/size_probe.h"
#include "grader/process/device_lock.h"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <future>

namespace cugrade::grader::detail {

namespace {

using reports::hint;
using reports::hint_code;
using reports::kernel_status;

} // namespace

result<kernel_run> run_kernel_on_device(const grading& g, const protocol::plan& plan,
                                        double time_limit) {
  const std::string backend_name(reports::to_string(g.backend.kind));
  std::optional<process::device_lock> lock;
  if (g.backend.kind == reports::backend_kind::gpu) {
    auto held = process::device_lock::acquire(
        protocol::device_key(g.backend.identity), process::lock_mode::shared,
        [&g](std::string_view m) { say(g.options, std::string(m)); });
    if (!held) {
      return fail(held.error());
    }
    lock.emplace(std::move(*held));
  }
  return run_kernel(g.context, g.paths.runner(backend_name), plan, time_limit);
}

// Runs and judges one kernel; an infrastructure failure comes back as a failure. A fault that
// ends the runner (a sticky CUDA error, an emulator fault) ends only that case: the remaining
// cases run in a fresh runner, up to max_resumes times and while a quarter of the kernel's time
// budget is left, so diagnosis sees the whole pattern.
// `known`: the kernel's outcomes from a runner it shared with the other kernels (one_runner.h);
// then it does not run again.
result<reports::kernel_report> grade_kernel(grading& g, const spec::kernel_spec& kernel,
                                            const build::build_outcome& built,
                                            const std::filesystem::path& work_dir,
                                            std::optional<std::vector<case_outcome>> known) {
  constexpr int max_resumes = 64;
  const auto cases = plan_cases(g.spec);
  const double limit = g.spec.lim.kernel_seconds;
  if (!known) {
    say(g.options, fmt::format("{}: running {} cases (2 runs each) on {}", kernel.name,
                               cases.size(), g.backend.identity.device));
  }
  const std::string backend_name(reports::to_string(g.backend.kind));
  std::vector<case_outcome> outcomes = known.value_or(std::vector<case_outcome>{});
  double remaining = limit;
  for (int part = 0; outcomes.size() < cases.size(); ++part) {
    const std::vector<graded_case> rest(cases.begin() + static_cast<long>(outcomes.size()),
                                        cases.end());
    auto plan = make_plan(g.spec.problem, kernel.name, built.library,
                          work_dir / kernel.name / ("part-" + std::to_string(part)), rest,
                          spec::runs_per_case);
    if (g.backend.kind == reports::backend_kind::emu) {
      plan.time_limit_seconds = remaining; // the emulator's watchdog: no progress (kernel_run.h)
    }
    auto run = run_kernel_on_device(g, plan, remaining);
    if (!run) {
      return fail(run.error());
    }
    if (!run->log.started && !run->exit.timed_out) {
      return fail("the " + backend_name +
                  " runner failed before running any case: " + run->exit.stderr_tail);
    }
    // The report's device stays the grader's own probe: a runner's start line is untrusted.
    auto part_outcomes =
        evaluate_cases(problems::get(g.spec.problem), rest, run->log, plan.output_dir, run->exit);
    const std::size_t stop = stopping_case(part_outcomes);
    const bool resume = stop < part_outcomes.size() && part < max_resumes &&
                        part_outcomes[stop].status == reports::test_status::error;
    outcomes.insert(outcomes.end(), part_outcomes.begin(),
                    resume ? part_outcomes.begin() + static_cast<long>(stop) + 1
                           : part_outcomes.end());
    remaining -= run->wall_seconds;
    if (!resume || remaining < 0.25 * limit) {
      break;
    }
  }
  outcomes.resize(cases.size());
  auto verdict = kernel_verdict(g.spec, kernel, cases, outcomes,
                                source_facts_of_launcher(g.source_text, kernel.name));
  measure_size_limit(
      g.spec, kernel.name, built.library, work_dir / kernel.name, cases, outcomes, remaining,
      [&g](const protocol::plan& p, double seconds) { return run_kernel_on_device(g, p, seconds); },
      verdict);
  say(g.options, fmt::format("{}: {}", kernel.name, reports::to_string(verdict.status)));
  return verdict;
}

checked_kernel check_kernel(grading& g, const spec::kernel_spec& kernel,
                            const build::build_outcome& built, const std::filesystem::path& work,
                            std::optional<std::vector<case_outcome>> known) {
  const auto started = std::chrono::steady_clock::now();
  checked_kernel c{grade_kernel(g, kernel, built, work, std::move(known)), {}};
  c.stages.push_back({"correctness", kernel.name, seconds_since(started), {}});
  return c;
}

// On the GPU, the correctness of `kernels` in one runner first (one CUDA start, not one per
// kernel: one_runner.h): the outcomes of each kernel whose part of it is whole, nothing for the
// others (they run alone). Fails only when the runner cannot be started.
result<std::vector<std::optional<std::vector<case_outcome>>>>
run_together(grading& g, const std::vector<const spec::kernel_spec*>& kernels,
             const build::build_outcome& built, const std::filesystem::path& work_dir) {
  std::vector<std::optional<std::vector<case_outcome>>> known(kernels.size());
  if (g.backend.kind != reports::backend_kind::gpu || kernels.size() < 2) {
    return known;
  }
  const auto cases = plan_cases(g.spec);
  std::vector<std::string> names;
  for (const auto* k : kernels) {
    names.push_back(k->name);
  }
  say(g.options, fmt::format("running {} cases (2 runs each) of {} in one runner on {}",
                             cases.size(), fmt::join(names, ", "), g.backend.identity.device));
  // A folder name no launcher can have ('.' is not in a C identifier).
  auto plan = make_plan(g.spec.problem, names.front(), built.library,
                        work_dir / "every-kernel.correctness", cases, spec::runs_per_case);
  plan.more_launchers.assign(names.begin() + 1, names.end());
  // A kernel's limit, and room for the runner's start and the kernels before it: a kernel that
  // hangs here then had its whole limit, so its timeout counts and it does not hang again alone.
  const double limit = g.spec.lim.kernel_seconds;
  auto run = timed_stage(g, "correctness", "", [&] {
    return run_kernel_on_device(g, plan, limit + std::max(2.0, 0.1 * limit));
  });
  if (!run) {
    return fail(run.error());
  }
  const auto& problem = problems::get(g.spec.problem);
  for (std::size_t j = 0; j < kernels.size(); ++j) {
    runner_exit exit; // what the kernel's own runner would have ended with
    exit.time_limit_seconds = limit;
    exit.launcher = names[j];
    auto share = launcher_share(run->log, j, cases.size(), plan.runs);
    if (!share && run->exit.timed_out) {
      share =
          stopped_launcher_share(run->log, j, cases.size(), plan.runs, run->wall_seconds - limit);
      exit.timed_out = share.has_value();
    }
    if (share) {
      known[j] = evaluate_cases(problem, cases, *share, plan.output_dir, exit);
    }
  }
  return known;
}

// Runs every job, at once when `parallel` (each job's processes are its own), else in order;
// results come back in the jobs' order.
std::vector<checked_kernel> run_all(const std::vector<std::function<checked_kernel()>>& jobs,
                                    bool parallel) {
  std::vector<checked_kernel> out;
  if (!parallel) {
    for (const auto& job : jobs) {
      out.push_back(job());
    }
    return out;
  }
  std::vector<std::future<checked_kernel>> running;
  for (const auto& job : jobs) {
    running.push_back(std::async(std::launch::async, [&job] { return job(); }));
  }
  for (auto& r : running) {
    out.push_back(r.get());
  }
  return out;
}

// A kernel that cannot run: the file did not build, breaks the policy, or lacks the launcher.
std::optional<reports::kernel_report> blocked_kernel(const grading& g,
                                                     const spec::kernel_spec& kernel,
                                                     const build::build_outcome& built) {
  // Forbidden first: a library refused before compiling (library_includes.h) built nothing.
  if (!built.forbidden_symbols.empty()) {
    auto k = kernel_not_run(g.spec, kernel, kernel_status::forbidden,
                            hint{hint_code::forbidden_symbol,
                                 "the submission uses what the contract forbids: " +
                                     fmt::format("{}", fmt::join(built.forbidden_symbols, "; "))});
    k.forbidden_symbols = built.forbidden_symbols;
    return k;
  }
  if (!built.ok) {
    const std::string first = built.summary.substr(0, built.summary.find('\n'));
    return kernel_not_run(
        g.spec, kernel, kernel_status::build_error,
        hint{hint_code::build_error, "the submission did not compile or link" +
                                         (first.empty() ? std::string() : ": " + first)});
  }
  if (std::find(built.missing_launchers.begin(), built.missing_launchers.end(), kernel.name) !=
      built.missing_launchers.end()) {
    return kernel_not_run(
        g.spec, kernel, kernel_status::missing,
        hint{hint_code::missing_launcher, missing_launcher_message(g.spec, kernel.name, built)});
  }
  return std::nullopt;
}

result<std::vector<checked_kernel>> check_correctness(grading& g, const build::build_outcome& built,
                                                      const std::filesystem::path& work_dir,
                                                      bool parallel) {
  std::vector<std::pair<const spec::kernel_spec*, std::optional<reports::kernel_report>>> asked;
  std::vector<const spec::kernel_spec*> runnable;
  for (const auto& kernel : g.spec.kernels) {
    if (!wanted(g.options, kernel.name)) {
      continue;
    }
    auto blocked = blocked_kernel(g, kernel, built);
    if (!blocked) {
      runnable.push_back(&kernel);
    }
    asked.emplace_back(&kernel, std::move(blocked));
  }
  auto together = run_together(g, runnable, built, work_dir);
  if (!together) {
    return fail(together.error());
  }
  std::vector<std::function<checked_kernel()>> checks;
  auto known = together->begin(); // in the order of `runnable`
  for (auto& [kernel, blocked] : asked) {
    if (blocked) {
      checks.emplace_back([k = std::move(*blocked)] { return checked_kernel{k, {}}; });
      continue;
    }
    checks.emplace_back([&g, kernel = kernel, &built, &work_dir, outcomes = *known++] {
      return check_kernel(g, *kernel, built, work_dir, outcomes);
    });
  }
  auto checked = run_all(checks, parallel);
  for (auto& c : checked) {
    g.timings.insert(g.timings.end(), c.stages.begin(), c.stages.end());
    if (!c.report) {
      return fail(c.report.error());
    }
  }
  return checked;
}

} // namespace cugrade::grader::detail
