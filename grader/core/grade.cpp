#include "grader/core/grade.h"

#include "grader/core/backend_choice.h"
#include "grader/core/detail/grading.h"
#include "grader/core/gpu_loss.h"
#include "grader/core/report_assembly.h"
#include "grader/core/report_slot.h"
#include "grader/process/temp_dir.h"
#include "grader/sandbox/sandbox.h"
#include "harness/core/file_io.h"
#include "reports/writers.h"

#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <utility>

namespace cugrade::grader {

namespace detail {

namespace {

// Why the GPU this grading ran on cannot be used now (its probe, pinned as the runs were); empty
// when it can.
std::string gpu_fault_now(const grading& g) {
  auto probed = probe_gpu_beside_gradings(g.paths, g.context, g.backend.identity);
  return probed ? std::string() : probed.error();
}

} // namespace

void grade_submission(grading& g, stage_results& r) {
  using ending = stage_results::ending;
  say(g.options, "fetching " + g.options.submission);
  auto fetched = timed_stage(g, "fetch", "", [&] { return fetch_for(g); });
  if (!fetched) {
    switch (fetched.why().kind) {
    case failure_kind::usage:
      return r.stop(ending::usage_error, fetched.error());
    case failure_kind::submission:
      r.nothing_built = fetched.error();
      return;
    case failure_kind::infrastructure:
      break;
    }
    return r.stop(ending::not_gradable, "cannot fetch the submission: " + fetched.error());
  }
  r.fetched = *fetched;
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
      return r.stop(ending::not_gradable, "cannot copy the submission: " + copied.error());
    }
    r.nothing_built = copied.error();
    return;
  }
  r.copy_notes = copied->notes;
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
    return r.stop(ending::not_gradable, "the build toolchain failed: " + built.error());
  }
  r.built = *built;
  reached(g.options, grade_stage::built);
  g.context.cuda_visible_devices = built->ok ? devices_for_runs(g) : std::string();
  std::optional<perf::gpu_evaluator> gpu;
  if (g.backend.kind == reports::backend_kind::gpu) {
    prepare_gpu_stages(g, gpu, work.path());
  }
  // Correctness of every kernel first; then on the GPU its other stages.
  auto checked = check_correctness(g, *built, work.path(), gpu.has_value());
  if (!checked) {
    return r.stop(ending::not_gradable, checked.error());
  }
  if (gpu) {
    if (auto s = run_gpu_stages(g, *gpu, *checked, built->library, source, work.path()); !s) {
      return r.stop(ending::not_gradable, s.error());
    }
  }
  for (auto& c : *checked) {
    r.kernels.push_back(std::move(*c.report));
  }
  if (gpu) {
    if (auto lost = gpu_lost_during_grading(r.kernels, [&g] { return gpu_fault_now(g); })) {
      r.kernels.clear(); // not the student's verdicts
      return r.stop(ending::not_gradable, *lost);
    }
  }
  if (g.backend.kind == reports::backend_kind::emu) {
    profile_in_emulation(g, r.kernels, built->library, work.path());
  }
}

grade_outcome walk(grading& g, reports::report base) {
  stage_results r;
  try {
    grade_submission(g, r);
  } catch (const std::exception& ex) {
    r.stop(stage_results::ending::not_gradable, std::string("the grading stopped: ") + ex.what());
  }
  return assemble_report(std::move(base), g, std::move(r));
}

} // namespace detail

namespace {

using detail::grading;
using detail::grading_deadline;
using detail::say;

std::string kernel_names(const spec::assignment_spec& spec) {
  std::string names;
  for (const auto& k : spec.kernels) {
    names += (names.empty() ? "" : ", ") + k.name;
  }
  return names;
}

// Mistakes of whoever runs cugrade, found before anything runs: exit 2, and no report written.
result<void> check_usage(const grade_options& o, const spec::assignment_spec& spec,
                         const grading_deadline& deadline) {
  if (o.deadline && !deadline.when) { // --deadline is the deadline when given
    return fail_usage(deadline.error);
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
  grading g{options, l, std::move(*spec), {}};
  auto base = base_report(g.spec, options);
  g.deadline = detail::read_deadline(options, g.spec);
  for (const auto& usable :
       {check_usage(options, g.spec, g.deadline), check_overwrite(options, g.spec, base)}) {
    if (!usable) {
      return {grade_exit::usage_error, usable.error(), std::nullopt, {}, {}};
    }
  }
  grade_outcome out;
  // Fail closed: no student code is built or run unconfined unless --no-sandbox said so.
  base.environment.sandbox = sandbox::environment_word();
  auto confined = sandbox::require_working_sandbox();
  auto backend =
      !confined ? result<backend_choice>(fail(confined.error()))
      : options.chosen_backend
          ? result<backend_choice>(*options.chosen_backend)
          : detail::timed_stage(g, "probe", "", [&] { return choose_backend(l, options.backend); });
  base.stages = std::exchange(g.timings, {}); // the probe's
  if (!backend) {
    out = not_gradable(base, backend.error());
  } else {
    g.backend = *backend; // the report names it when the walk is assembled
    if (!g.backend.note.empty()) {
      say(options, g.backend.note);
    }
    auto scope = scope_for_backend(g.spec, g.backend.kind); // emulation leaves gpu_only groups out
    g.spec = std::move(scope.spec);
    out = detail::walk(g, std::move(base));
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
    out = detail::best_of(std::move(out), g);
  }
  out.report->elapsed_seconds = seconds_since(started);
  if (options.write_files) {
    write_outputs(out, g.spec, options);
  }
  return out;
}

} // namespace cugrade::grader
