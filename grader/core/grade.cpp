#include "grader/core/grade.h"

#include "grader/build/build.h"
#include "grader/core/backend_choice.h"
#include "grader/core/case_plan.h"
#include "grader/core/early_exits.h"
#include "grader/core/kernel_insight.h"
#include "grader/core/kernel_run.h"
#include "grader/core/kernel_verdict.h"
#include "grader/core/one_runner.h"
#include "grader/core/report_assembly.h"
#include "grader/core/report_slot.h"
#include "grader/core/size_probe.h"
#include "grader/core/submission_limits.h"
#include "grader/fetch/fetch.h"
#include "grader/fetch/submission_copy.h"
#include "grader/insight/kernel_comparison.h"
#include "grader/perf/gpu_evaluation.h"
#include "grader/process/device_lock.h"
#include "grader/process/temp_dir.h"
#include "grader/runners/run_context.h"
#include "grader/sandbox/sandbox.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/elapsed.h"
#include "harness/core/file_io.h"
#include "reports/writers.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <functional>
#include <future>
#include <mutex>

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
  /// Grade the branch's newest commit whatever the deadline (latest_with_penalty, and the second
  /// grading of best_of).
  bool newest = false;
  /// The branch's newest commit, when the deadline chose among its commits.
  std::optional<std::string> newest_commit{};
  /// The grading's copy of the source, for what diagnosis reads in the text (early_exits.h).
  std::string source_text{};
  /// Where every runner of this grading runs (the GPU a batch pinned it to), set once it built.
  runners::run_context context{};
};

// Runs `work` and records how long it took as a stage of the report (the profile of where a
// grading's time goes: docs/timing.md, "Cost").
template <class F>
auto timed_stage(grading& g, const char* stage, const std::string& kernel, F&& work) {
  const auto started = std::chrono::steady_clock::now();
  auto r = work();
  g.report.stages.push_back({stage, kernel, seconds_since(started), {}});
  return r;
}

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
      return fail_usage(when.error());
    }
    req.deadline = *when;
    req.grace = std::chrono::minutes(g.spec.late.grace_minutes);
    req.newest = g.newest || g.spec.late.mode == spec::deadline_mode::latest_with_penalty;
  }
  req.cache_dir = g.paths.cache_dir / "repos";
  req.progress = [&g](std::string_view m) { say(g.options, std::string(m)); };
  req.fetcher = g.paths.fetcher();
  req.limits = fetch_limits_of(g.spec);
  return fetch::fetch_submission(req);
}

// The submission's files copied into the grading's own folder, within the spec's limits; what
// was left out is noted in the report.
result<fetch::copied_submission> take_in(grading& g, const fetch::fetched_submission& fetched,
                                         const std::filesystem::path& work_dir) {
  auto copied = fetch::copy_submission(fetched.directory, g.spec.source_file,
                                       work_dir / "submission", copy_limits_of(g.spec));
  if (copied) {
    g.report.submission.notes.insert(g.report.submission.notes.end(), copied->notes.begin(),
                                     copied->notes.end());
  }
  return copied;
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
  req.launcher_parameters = problems::get(g.spec.problem).launcher_parameters();
  req.time_limit_seconds = g.spec.lim.compile_seconds;
  req.tools.nvcc = g.backend.nvcc;
  if (req.target == build::backend::gpu && !g.backend.identity.arch.empty()) {
    req.tools.cuda_archs = {g.backend.identity.arch}; // only what this machine runs
  }
  req.tools.emu_include_dir = g.paths.emu_include_dir;
  req.tools.emu_lib_dir = g.paths.lib_dir;
  return req;
}

// One correctness runner. On the GPU it holds the device's lock shared: correctness runs of
// several gradings may overlap, but none runs while another grading is timing on that GPU.
result<kernel_run> run_kernel_on_device(const grading& g, const protocol::plan& plan,
                                        double time_limit) {
  const std::string backend_name(reports::to_string(g.backend.kind));
  std::optional<process::device_lock> lock;
  if (g.backend.kind == reports::backend_kind::gpu) {
    const auto& id = g.backend.identity;
    auto held = process::device_lock::acquire(
        id.uuid.empty() ? id.device : id.uuid, process::lock_mode::shared,
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
                                early_exits_of_launcher(g.source_text, kernel.name));
  measure_size_limit(
      g.spec, kernel.name, built.library, work_dir / kernel.name, cases, outcomes, remaining,
      [&g](const protocol::plan& p, double seconds) { return run_kernel_on_device(g, p, seconds); },
      verdict);
  say(g.options, fmt::format("{}: {}", kernel.name, reports::to_string(verdict.status)));
  return verdict;
}

// One kernel's correctness verdict, and how long it took.
struct checked_kernel {
  result<reports::kernel_report> report;
  std::vector<reports::stage_timing> stages;
};

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
  if (!built.ok) {
    const std::string first = built.summary.substr(0, built.summary.find('\n'));
    return kernel_not_run(
        g.spec, kernel, kernel_status::build_error,
        hint{hint_code::build_error, "the submission did not compile or link" +
                                         (first.empty() ? std::string() : ": " + first)});
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

// Whether `k` gets insights (docs/insight.md): asked for (--perf), or on the GPU for every timed
// kernel; never where the spec turns them off, and only for a kernel that passed.
bool wants_insight(const grading& g, const reports::kernel_report& k,
                   const perf::gpu_evaluator* gpu) {
  if (!g.spec.insight || k.status != reports::kernel_status::passed) {
    return false;
  }
  return g.options.insight || (gpu != nullptr && gpu->times(k));
}

// Insights in emulation for every kernel that wants them: one profiled run each
// (kernel_insight.h).
void profile_in_emulation(grading& g, const std::filesystem::path& library,
                          const std::filesystem::path& work) {
  const insight_request request{g.spec, library, work / "insight", g.source_text};
  std::vector<insight::kernel_time> profiled;
  std::vector<reports::kernel_report*> kernels;
  for (auto& k : g.report.kernels) {
    if (!wants_insight(g, k, nullptr)) {
      continue;
    }
    say(g.options, k.name + ": profiling memory behaviour in emulation");
    timed_stage(g, "insight", k.name, [&] {
      add_emulated_insight(
          request,
          [&g](const protocol::plan& p, double seconds) {
            return run_kernel_on_device(g, p, seconds);
          },
          k, profiled);
      return 0;
    });
    kernels.push_back(&k);
  }
  insight::lead_with_comparisons(profiled, kernels);
}

// A kernel the GPU could not measure, profiled in emulation instead: the submission is built for
// the emulator once (`emulated` keeps that build), and the note says why.
void profile_instead(grading& g, reports::kernel_report& k, const std::string& why,
                     const std::filesystem::path& source, const std::filesystem::path& work,
                     std::optional<build::build_outcome>& emulated,
                     std::vector<insight::kernel_time>& profiled) {
  if (!emulated) {
    auto req = build_request_for(g, source, work / "insight-emu");
    req.target = build::backend::emu;
    auto built = build::build_submission(req);
    emulated = built ? std::move(*built) : build::build_outcome{};
  }
  if (!emulated->ok) {
    k.profile = reports::kernel_profile{reports::backend_kind::emu,
                                        "cugrade emulator",
                                        "",
                                        {},
                                        why + "; the submission did not build for emulation, "
                                              "so no insight",
                                        {}};
    return;
  }
  add_emulated_insight(
      {g.spec, emulated->library, work / "insight", g.source_text},
      [&g](const protocol::plan& p, double seconds) {
        return run_kernel(g.context, g.paths.runner("emu"), p, seconds);
      },
      k, profiled);
  k.profile->note = "the emulator's counts, because " + why + "; " + k.profile->note;
}

// Insights on the GPU: Nsight Compute, under the GPU's exclusive lock, kernel by kernel. Where
// this machine cannot read the counters (restricted to administrators, no ncu), the emulator's
// counts instead, and the report says why (docs/insight.md, "On the GPU").
void profile_on_gpu(grading& g, perf::gpu_evaluator& gpu,
                    const std::vector<reports::kernel_report*>& kernels,
                    const std::filesystem::path& library, const std::filesystem::path& source,
                    const std::filesystem::path& work) {
  std::vector<reports::kernel_report*> wanted;
  std::copy_if(kernels.begin(), kernels.end(), std::back_inserter(wanted),
               [&](const reports::kernel_report* k) { return wants_insight(g, *k, &gpu); });
  if (wanted.empty()) {
    return;
  }
  std::optional<std::string> emulate_because;
  const auto ncu = perf::find_ncu(g.backend.nvcc);
  if (!ncu) {
    emulate_because = "Nsight Compute (ncu) is not beside nvcc or on PATH";
  }
  std::shared_ptr<process::device_lock> alone;
  if (!emulate_because) {
    auto held = gpu.hold_exclusive();
    emulate_because = held ? std::nullopt
                           : std::optional<std::string>("the GPU could not be held alone for "
                                                        "Nsight Compute: " +
                                                        held.error());
    alone = held ? *held : nullptr;
  }
  const counters_request request{
      g.spec,
      {ncu.value_or(""), g.paths.runner("gpu"), g.context, g.spec.lim.kernel_seconds + 60},
      ncu ? perf::ncu_version(*ncu) : "",
      library,
      work / "insight"};
  std::optional<build::build_outcome> emulated;
  std::vector<insight::kernel_time> profiled;
  for (reports::kernel_report* k : wanted) {
    timed_stage(g, "insight", k->name, [&] {
      if (!emulate_because) {
        say(g.options, k->name + ": measuring memory behaviour with Nsight Compute");
        emulate_because = add_measured_insight(request, *k, profiled);
      }
      if (emulate_because) {
        alone.reset(); // emulation needs no GPU: other gradings may use it meanwhile
        say(g.options, k->name + ": profiling memory behaviour in emulation");
        profile_instead(g, *k, *emulate_because, source, work, emulated, profiled);
      }
      return 0;
    });
  }
  insight::lead_with_comparisons(profiled, wanted);
}

grade_outcome grade_submission(grading& g) {
  say(g.options, "fetching " + g.options.submission);
  auto fetched = timed_stage(g, "fetch", "", [&] { return fetch_for(g); });
  if (!fetched) {
    switch (fetched.why().kind) {
    case failure_kind::usage:
      return {grade_exit::usage_error, fetched.error(), std::nullopt, {}, {}};
    case failure_kind::submission:
      record_nothing_built(g.report, g.spec, g.options, fetched.error());
      return {grade_exit::report_written, "", g.report, {}, {}};
    case failure_kind::infrastructure:
      break;
    }
    return not_gradable(g.report, "cannot fetch the submission: " + fetched.error());
  }
  record_submission(g.report, g.spec, *fetched, g.options);
  g.newest_commit = fetched->newest_commit;
  reached(g.options, grade_stage::fetched);
  // A grading killed earlier left its folder behind: its process is gone, so remove it now.
  const auto work_parent = prepare_work_parent(g.paths);
  process::remove_orphaned_dirs(work_parent, "cugrade-grade");
  process::temp_dir work(process::owned_prefix("cugrade-grade"), work_parent);
  // From here on the grading reads only its own copy (regular files, size-capped, no links).
  auto copied = take_in(g, *fetched, work.path());
  if (!copied) {
    if (copied.why().kind != failure_kind::submission) {
      return not_gradable(g.report, "cannot copy the submission: " + copied.error());
    }
    record_nothing_built(g.report, g.spec, g.options, copied.error());
    return {grade_exit::report_written, "", g.report, {}, {}};
  }
  const auto& source = copied->source;
  if (auto text = read_file(source)) {
    g.source_text = std::move(*text);
  }
  say(g.options,
      "building " + g.spec.source_file + " for " + std::string(reports::to_string(g.backend.kind)));
  auto built = timed_stage(g, "build", "", [&] {
    return build::build_submission(build_request_for(g, source, work.path()));
  });
  if (!built) {
    return not_gradable(g.report, "the build toolchain failed: " + built.error());
  }
  record_build(g.report, *built);
  reached(g.options, grade_stage::built);
  g.context.cuda_visible_devices = built->ok ? devices_for_runs(g) : std::string();
  // On the GPU, kernels that pass are then timed against the reference (verified, A B B A) and
  // checked under compute-sanitizer where the spec asks for it (docs/timing.md).
  std::optional<perf::gpu_evaluator> gpu;
  if (g.backend.kind == reports::backend_kind::gpu) {
    perf::gpu_evaluation_options evaluation;
    evaluation.precise = g.options.precise;
    // `check` from the student distribution has no reference solution to time against.
    std::error_code ec;
    evaluation.timing =
        std::filesystem::is_regular_file(g.spec.reference_dir / g.spec.source_file, ec);
    gpu.emplace(g.spec, g.paths, g.backend.nvcc, g.backend.identity, g.context,
                work.path() / "perf", g.options.progress, evaluation);
  }
  // Correctness of every kernel first. On the GPU the kernels first share one runner
  // (run_together); those it leaves to run alone then run at once, each in its own runners,
  // sharing the device as correctness runs may.
  std::vector<std::pair<const spec::kernel_spec*, std::optional<reports::kernel_report>>> asked;
  std::vector<const spec::kernel_spec*> runnable;
  for (const auto& kernel : g.spec.kernels) {
    if (!wanted(g.options, kernel.name)) {
      continue;
    }
    auto blocked = blocked_kernel(g, kernel, *built);
    if (!blocked) {
      runnable.push_back(&kernel);
    }
    asked.emplace_back(&kernel, std::move(blocked));
  }
  auto together = run_together(g, runnable, *built, work.path());
  if (!together) {
    return not_gradable(g.report, together.error());
  }
  std::vector<std::function<checked_kernel()>> checks;
  auto known = together->begin(); // in the order of `runnable`
  for (auto& [kernel, blocked] : asked) {
    if (blocked) {
      checks.emplace_back([k = std::move(*blocked)] { return checked_kernel{k, {}}; });
      continue;
    }
    checks.emplace_back([&g, kernel = kernel, &built, &work, outcomes = *known++] {
      return check_kernel(g, *kernel, *built, work.path(), outcomes);
    });
  }
  auto checked = run_all(checks, gpu.has_value());
  for (auto& c : checked) {
    g.report.stages.insert(g.report.stages.end(), c.stages.begin(), c.stages.end());
    if (!c.report) {
      return not_gradable(g.report, c.report.error());
    }
  }
  // Then on the GPU the sanitizer checks, one run of each tool over every kernel (kernel by
  // kernel only where it finds something); then timing: every timed kernel's runners under one
  // exclusive hold of the GPU, then their checks with the GPU let go.
  if (gpu) {
    std::vector<reports::kernel_report*> kernels;
    for (auto& c : checked) {
      kernels.push_back(&*c.report);
    }
    auto sanitized = gpu->sanitize_all(kernels, built->library);
    if (!sanitized) {
      return not_gradable(g.report, "performance evaluation failed: " + sanitized.error());
    }
    g.report.stages.insert(g.report.stages.end(), sanitized->begin(), sanitized->end());
    profile_on_gpu(g, *gpu, kernels, built->library, source, work.path());
    auto timed = gpu->time_all(kernels, built->library, g.options.hooks.after_runs);
    if (!timed) {
      return not_gradable(g.report, "performance evaluation failed: " + timed.error());
    }
    g.report.stages.insert(g.report.stages.end(), timed->begin(), timed->end());
  }
  for (auto& c : checked) {
    g.report.kernels.push_back(std::move(*c.report));
  }
  if (g.backend.kind == reports::backend_kind::emu) {
    profile_in_emulation(g, built->library, work.path());
  }
  return {grade_exit::report_written, "", g.report, {}, {}};
}

std::string score_text(const reports::report& r) {
  std::string text = fmt::format("{:.2f}", r.score.value_or(0));
  if (r.late_penalty > 0) {
    text += fmt::format(" after {:.2f} for {} late day{}", r.late_penalty, r.submission.late_days,
                        r.submission.late_days == 1 ? "" : "s");
  }
  return text;
}

// The spec's best_of mode: once the deadline graded an older commit, the branch's newest is
// graded too, and the higher score after its late penalty is kept (docs/git.md). Both gradings
// are named in the kept report's notes.
grade_outcome best_of(grade_outcome on_time, const grading& first) {
  grading newest{first.options, first.paths, first.spec, first.backend,
                 base_report(first.spec, first.options)};
  newest.newest = true;
  newest.report.environment.sandbox = first.report.environment.sandbox;
  record_backend(newest.report, newest.backend);
  say(first.options, "best_of: grading the newest commit too");
  grade_outcome latest = grade_submission(newest);
  if (!latest.report || !latest.report->gradable) {
    on_time.report->submission.notes.push_back(
        "best_of: the newest commit could not be graded, so the commit on time counts" +
        (latest.error.empty() ? std::string() : " (" + latest.error + ")"));
    return on_time;
  }
  finish_scores(*latest.report, first.spec, first.options);
  const auto& a = *on_time.report;
  const auto& b = *latest.report;
  const bool newest_wins = b.score.value_or(0) > a.score.value_or(0);
  const std::string note = fmt::format(
      "best_of: graded the last commit on time, {} ({}), and the newest, {} ({}); kept the {}",
      a.submission.commit.value_or("?").substr(0, 7), score_text(a),
      b.submission.commit.value_or("?").substr(0, 7), score_text(b),
      newest_wins ? "newest" : "commit on time");
  grade_outcome kept = newest_wins ? std::move(latest) : std::move(on_time);
  kept.report->submission.notes.push_back(note);
  kept.report->stages.insert(kept.report->stages.begin(), (newest_wins ? a : b).stages.begin(),
                             (newest_wins ? a : b).stages.end());
  return kept;
}

std::string kernel_names(const spec::assignment_spec& spec) {
  std::string names;
  for (const auto& k : spec.kernels) {
    names += (names.empty() ? "" : ", ") + k.name;
  }
  return names;
}

// Mistakes of whoever runs cugrade, found before anything runs: exit 2, and no report written.
result<void> check_usage(const grade_options& o, const spec::assignment_spec& spec) {
  if (o.deadline) {
    if (auto when = fetch::parse_deadline(*o.deadline); !when) {
      return fail_usage(when.error());
    }
  }
  for (const auto& k : o.kernels) {
    if (spec.find_kernel(k) == nullptr) {
      return fail_usage("--kernel " + k + ": " + spec.name + " has no launcher of that name; " +
                        "choose from " + kernel_names(spec));
    }
  }
  if (o.kernel_timeout_seconds && !(*o.kernel_timeout_seconds > 0)) {
    return fail_usage("--kernel-timeout: give a number of seconds above 0, e.g. 30");
  }
  return {};
}

// A report of another submission under the same id is never replaced silently (report_slot.h).
result<void> check_overwrite(const grade_options& o, const spec::assignment_spec& spec,
                             const reports::report& r) {
  if (!o.write_files) {
    return {};
  }
  if (auto id = check_report_id(r.submission.student, !o.student.empty()); !id) {
    return id; // eve.gradescope.json would be eve's Gradescope results too
  }
  if (!o.student.empty() || o.force) {
    return {};
  }
  return check_same_source(report_dir(spec, o) / (r.submission.student + ".json"),
                           r.submission.source);
}

} // namespace

grade_outcome grade(const grade_options& unserialized, const layout& l) {
  const auto started = std::chrono::steady_clock::now();
  // Kernels checked at once report progress from several threads: one line at a time.
  grade_options options = unserialized;
  if (unserialized.progress) {
    auto lines = std::make_shared<std::mutex>();
    options.progress = [lines, say_it = unserialized.progress](std::string_view m) {
      std::lock_guard<std::mutex> hold(*lines);
      say_it(m);
    };
  }
  auto spec = spec::load_assignment(options.assignment, l.root, options.spec_loading);
  if (!spec) {
    return {grade_exit::usage_error, spec.error(), std::nullopt, {}, {}};
  }
  if (options.seed) {
    spec->seed = *options.seed;
  }
  if (options.kernel_timeout_seconds) {
    spec->lim.kernel_seconds = *options.kernel_timeout_seconds; // hints quote the limit applied
  }
  for (const auto& warning : spec->warnings) {
    say(options, "warning: " + warning); // spec sanity, for the instructor (emulation_cost.h)
  }
  grading g{options, l, std::move(*spec), {}, {}};
  g.report = base_report(g.spec, options);
  for (const auto& usable :
       {check_usage(options, g.spec), check_overwrite(options, g.spec, g.report)}) {
    if (!usable) {
      return {grade_exit::usage_error, usable.error(), std::nullopt, {}, {}};
    }
  }
  grade_outcome out;
  // Fail closed: no student code is built or run unconfined unless --no-sandbox said so.
  g.report.environment.sandbox = sandbox::environment_word();
  auto confined = sandbox::require_working_sandbox();
  auto backend =
      !confined ? result<backend_choice>(fail(confined.error()))
      : options.chosen_backend
          ? result<backend_choice>(*options.chosen_backend)
          : timed_stage(g, "probe", "", [&] { return choose_backend(l, options.backend); });
  if (!backend) {
    out = not_gradable(g.report, backend.error());
  } else {
    g.backend = *backend;
    record_backend(g.report, g.backend);
    if (!g.backend.note.empty()) {
      say(options, g.backend.note);
    }
    auto scope = scope_for_backend(g.spec, g.backend.kind); // emulation leaves gpu_only groups out
    g.spec = std::move(scope.spec);
    out = grade_submission(g);
    if (out.report) {
      auto& notes = out.report->submission.notes;
      notes.insert(notes.end(), scope.notes.begin(), scope.notes.end());
    }
  }
  if (!out.report) {
    return out; // a usage mistake found while fetching: nothing is written
  }
  finish_scores(*out.report, g.spec, options);
  if (g.spec.late.mode == spec::deadline_mode::best_of && out.report->gradable && g.newest_commit &&
      out.report->submission.commit != g.newest_commit) {
    out = best_of(std::move(out), g);
  }
  out.report->elapsed_seconds = seconds_since(started);
  if (options.write_files) {
    write_outputs(out, g.spec, options);
  }
  return out;
}

} // namespace cugrade::grader
