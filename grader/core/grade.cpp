#include "grader/core/grade.h"

#include "grader/build/build.h"
#include "grader/core/backend_choice.h"
#include "grader/core/case_plan.h"
#include "grader/core/kernel_run.h"
#include "grader/core/kernel_verdict.h"
#include "grader/core/report_assembly.h"
#include "grader/fetch/fetch.h"
#include "grader/perf/gpu_evaluation.h"
#include "grader/perf/runner_call.h"
#include "grader/process/temp_dir.h"
#include "grader/spec/assignment_spec.h"
#include "reports/writers.h"

#include <chrono>
#include <fmt/format.h>

namespace cugrade::grader {

namespace {

using reports::hint;
using reports::hint_code;
using reports::kernel_status;

void say(const grade_options& o, const std::string& message) {
  if (o.progress) {
    o.progress(message);
  }
}

void reached(const grade_options& o, grade_stage stage) {
  if (o.hooks.reached) {
    o.hooks.reached(stage);
  }
}

struct grading {
  const grade_options& options;
  const layout& paths;
  spec::assignment_spec spec;
  backend_choice backend;
  reports::report report;
};

// The CUDA_VISIBLE_DEVICES value for this grading's runners; the pinned device's identity
// replaces the backend's.
std::string devices_for_runs(grading& g) {
  if (!g.options.hooks.before_runs) {
    return {};
  }
  auto pin = g.options.hooks.before_runs();
  if (pin.identity) {
    g.backend.identity = *pin.identity;
    record_backend(g.report, g.backend);
  }
  return pin.cuda_visible_devices;
}

result<fetch::fetched_submission> fetch_for(const grading& g) {
  fetch::fetch_request req;
  req.source = g.options.submission;
  req.commit = g.options.commit;
  const auto deadline = g.options.deadline ? g.options.deadline : g.spec.deadline;
  if (deadline) {
    auto when = fetch::parse_deadline(*deadline);
    if (!when) {
      return fail(when.error());
    }
    req.deadline = *when;
  }
  req.cache_dir = g.paths.cache_dir / "repos";
  req.progress = [&g](std::string_view m) { say(g.options, std::string(m)); };
  return fetch::fetch_submission(req);
}

build::build_request build_request_for(const grading& g, const std::filesystem::path& source,
                                       const std::filesystem::path& work_dir) {
  build::build_request req;
  req.target =
      g.backend.kind == reports::backend_kind::gpu ? build::backend::gpu : build::backend::emu;
  req.source = source;
  req.work_dir = work_dir;
  for (const auto& k : g.spec.kernels) {
    req.launchers.push_back(k.name);
  }
  req.time_limit_seconds = g.spec.lim.compile_seconds;
  req.tools.nvcc = g.backend.nvcc;
  req.tools.emu_include_dir = g.paths.emu_include_dir;
  req.tools.emu_lib_dir = g.paths.lib_dir;
  return req;
}

bool wanted(const grade_options& o, const std::string& kernel) {
  return o.kernels.empty() ||
         std::find(o.kernels.begin(), o.kernels.end(), kernel) != o.kernels.end();
}

// Runs and judges one kernel; an infrastructure failure comes back as a failure. A fault that
// ends the runner (a sticky CUDA error, an emulator fault) ends only that case: the remaining
// cases run in a fresh runner, up to max_resumes times and while a quarter of the kernel's time
// budget is left, so diagnosis sees the whole pattern.
result<reports::kernel_report> grade_kernel(grading& g, const spec::kernel_spec& kernel,
                                            const build::build_outcome& built,
                                            const std::filesystem::path& work_dir) {
  constexpr int max_resumes = 64;
  const auto cases = plan_cases(g.spec);
  const double limit = g.options.kernel_timeout_seconds.value_or(g.spec.lim.kernel_seconds);
  say(g.options, fmt::format("{}: running {} cases (2 runs each) on {}", kernel.name, cases.size(),
                             g.backend.identity.device));
  const std::string backend_name(reports::to_string(g.backend.kind));
  std::vector<case_outcome> outcomes;
  double remaining = limit;
  for (int part = 0; outcomes.size() < cases.size(); ++part) {
    const std::vector<graded_case> rest(cases.begin() + static_cast<long>(outcomes.size()),
                                        cases.end());
    const auto plan = make_plan(g.spec.problem, kernel.name, built.library,
                                work_dir / kernel.name / ("part-" + std::to_string(part)), rest, 2);
    auto run = run_kernel(g.paths.runner(backend_name), plan, remaining);
    if (!run) {
      return fail(run.error());
    }
    if (!run->log.started && !run->exit.timed_out) {
      return fail("the " + backend_name +
                  " runner failed before running any case: " + run->exit.stderr_tail);
    }
    note_device(g.report, run->log);
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
  auto verdict = kernel_verdict(g.spec, kernel, cases, outcomes);
  say(g.options, fmt::format("{}: {}", kernel.name, reports::to_string(verdict.status)));
  return verdict;
}

// A kernel that cannot run: the file did not build, breaks the policy, or lacks the launcher.
std::optional<reports::kernel_report> blocked_kernel(const grading& g,
                                                     const spec::kernel_spec& kernel,
                                                     const build::build_outcome& built) {
  if (!built.ok) {
    return kernel_not_run(g.spec, kernel, kernel_status::build_error,
                          hint{hint_code::build_error, "the submission did not compile or link; "
                                                       "see the build log"});
  }
  if (!built.forbidden_symbols.empty()) {
    auto k = kernel_not_run(g.spec, kernel, kernel_status::forbidden,
                            hint{hint_code::forbidden_symbol,
                                 "the submission uses what the contract forbids: " +
                                     fmt::format("{}", fmt::join(built.forbidden_symbols, "; "))});
    k.forbidden_symbols = built.forbidden_symbols;
    return k;
  }
  if (std::find(built.missing_launchers.begin(), built.missing_launchers.end(), kernel.name) !=
      built.missing_launchers.end()) {
    return kernel_not_run(
        g.spec, kernel, kernel_status::missing,
        hint{hint_code::missing_launcher, missing_launcher_message(g.spec, kernel.name, built)});
  }
  return std::nullopt;
}

grade_outcome grade_submission(grading& g) {
  say(g.options, "fetching " + g.options.submission);
  auto fetched = fetch_for(g);
  if (!fetched) {
    return not_gradable(g.report, "cannot fetch the submission: " + fetched.error());
  }
  record_submission(g.report, g.spec, *fetched, g.options);
  reached(g.options, grade_stage::fetched);
  const auto source = fetched->directory / g.spec.source_file;
  if (!std::filesystem::exists(source)) {
    record_missing_source(g.report, g.spec, fetched->directory);
    return {grade_exit::report_written, "", g.report, {}};
  }
  process::temp_dir work("cugrade-grade", prepare_work_parent(g.paths));
  say(g.options,
      "building " + g.spec.source_file + " for " + std::string(reports::to_string(g.backend.kind)));
  auto built = build::build_submission(build_request_for(g, source, work.path()));
  if (!built) {
    return not_gradable(g.report, "the build toolchain failed: " + built.error());
  }
  record_build(g.report, *built);
  reached(g.options, grade_stage::built);
  const perf::pinned_devices pin(built->ok ? devices_for_runs(g) : std::string());
  // On the GPU, kernels that pass are then timed against the reference (verified, A B B A) and
  // checked under compute-sanitizer where the spec asks for it (docs/timing.md).
  std::optional<perf::gpu_evaluator> gpu;
  if (g.backend.kind == reports::backend_kind::gpu) {
    gpu.emplace(g.spec, g.paths, g.backend.nvcc, g.backend.identity.device, work.path() / "perf",
                g.options.progress);
  }
  for (const auto& kernel : g.spec.kernels) {
    if (!wanted(g.options, kernel.name)) {
      continue;
    }
    if (auto blocked = blocked_kernel(g, kernel, *built)) {
      g.report.kernels.push_back(std::move(*blocked));
      continue;
    }
    auto k = grade_kernel(g, kernel, *built, work.path());
    if (!k) {
      return not_gradable(g.report, k.error());
    }
    if (gpu) {
      if (auto evaluated = gpu->evaluate(*k, built->library); !evaluated) {
        return not_gradable(g.report, "performance evaluation failed: " + evaluated.error());
      }
    }
    g.report.kernels.push_back(std::move(*k));
  }
  if (g.backend.kind == reports::backend_kind::emu) {
    drop_performance_points(g.report);
  }
  return {grade_exit::report_written, "", g.report, {}};
}

} // namespace

std::string default_student_id(std::string_view submission) {
  std::string s(submission);
  while (s.size() > 1 && s.back() == '/') {
    s.pop_back();
  }
  if (s.ends_with(".git")) {
    s.resize(s.size() - 4);
  }
  const auto slash = s.find_last_of("/:");
  std::string name = slash == std::string::npos ? s : s.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") {
    name = "submission";
  }
  return name;
}

grade_outcome grade(const grade_options& options, const layout& l) {
  const auto started = std::chrono::steady_clock::now();
  auto spec = spec::load_assignment(options.assignment, l.root);
  if (!spec) {
    return {grade_exit::usage_error, spec.error(), std::nullopt, {}};
  }
  if (options.seed) {
    spec->seed = *options.seed;
  }
  grading g{options, l, std::move(*spec), {}, {}};
  g.report = base_report(g.spec, options);
  grade_outcome out;
  auto backend = options.chosen_backend ? result<backend_choice>(*options.chosen_backend)
                                        : choose_backend(l, options.backend);
  if (!backend) {
    out = not_gradable(g.report, backend.error());
  } else {
    g.backend = *backend;
    record_backend(g.report, g.backend);
    if (!g.backend.note.empty()) {
      say(options, g.backend.note);
    }
    out = grade_submission(g);
  }
  finish_scores(*out.report, g.spec);
  out.report->elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (options.write_files) {
    write_outputs(out, g.spec, options);
  }
  return out;
}

} // namespace cugrade::grader
