#include "grader/batch/slurm/slurm_batch.h"

#include "grader/batch/closing.h"
#include "grader/batch/new_commits.h"
#include "grader/batch/plan.h"
#include "grader/batch/slurm/collector.h"
#include "grader/batch/stop_signals.h"
#include "harness/core/elapsed.h"

#include <chrono>
#include <fmt/format.h>
#include <iostream>

namespace cugrade::batch {

namespace {

namespace fs = std::filesystem;

// The login node that submits usually has no GPU: the backend is the one asked for, and "auto"
// means the GPUs Slurm gives each task.
reports::backend_kind backend_on_cluster(const std::string& requested) {
  return requested == "emu" ? reports::backend_kind::emu : reports::backend_kind::gpu;
}

// How the tasks name the assignment: by name when it is one of this installation's, else by
// absolute path (the tasks start elsewhere).
std::string assignment_for_tasks(const batch_options& o, const grader::layout& l) {
  const auto& assignment = o.grading.assignment;
  if (fs::is_regular_file(l.root / "assignments" / assignment / "assignment.json")) {
    return assignment;
  }
  return fs::absolute(assignment).string();
}

submission_plan plan_submission(const batch_options& o, const grader::layout& l,
                                const spec::assignment_spec& spec, bool gpu, std::size_t shard) {
  submission_plan plan;
  plan.assignment = assignment_for_tasks(o, l);
  plan.job_name = "cugrade-" + spec.name;
  plan.gpu = gpu;
  plan.jobs = o.jobs > 0 ? o.jobs : 4;
  const auto& g = o.grading;
  const auto kernels = g.kernels.empty() ? spec.kernels.size() : g.kernels.size();
  plan.minutes = o.slurm->time_limit_minutes.value_or(
      task_minutes(spec.lim, kernels, g.kernel_timeout_seconds.value_or(spec.lim.kernel_seconds),
                   shard, plan.jobs, gpu));
  return plan;
}

std::size_t written_students(const batch_options& o, journal& j) {
  std::size_t n = 0;
  for (const auto& e : o.roster.entries) {
    const auto rec = j.find(e.student);
    n += rec && rec->state == student_state::written ? 1 : 0;
  }
  return n;
}

// Waits for one submission and says what became of it; forgets it once every task has ended.
result<collected_job> follow(pipeline& p, const submission& s, const slurm_folders& where) {
  auto done = wait_and_collect(p, s, where.results);
  if (done && !done->stopped) {
    forget_submission(p.log);
  }
  return done;
}

batch_result stopped_waiting(const pipeline& p, const submission& s) {
  return {exit_interrupted, "stopped waiting; Slurm job " + s.job +
                                " keeps running and the journal is consistent. Run the same "
                                "command again to go on collecting it: " +
                                p.options.rerun_command};
}

// An earlier run stopped while its job was running: collect that job before planning.
std::optional<batch_result> collect_earlier_job(pipeline& p, const slurm_folders& where) {
  auto earlier = pending_submission(p.log);
  if (!earlier) {
    return batch_result{exit_infrastructure, earlier.error()};
  }
  if (!*earlier) {
    return std::nullopt;
  }
  std::cerr << "slurm: job " << (*earlier)->job
            << " of an earlier run is not collected yet; collecting it first\n";
  auto done = follow(p, **earlier, where);
  if (!done) {
    return batch_result{exit_infrastructure, done.error()};
  }
  if (done->stopped) {
    return stopped_waiting(p, **earlier);
  }
  return std::nullopt;
}

void announce(const batch_options& o, const batch_plan& plan, reports::backend_kind backend,
              const submission_plan& sp) {
  const auto shard = std::max<std::size_t>(1, o.slurm->shard_size);
  const auto tasks = (plan.to_grade.size() + shard - 1) / shard;
  std::cerr << "cugrade batch: " << o.roster.entries.size() << " students: " << plan.done
            << " already written, " << plan.to_deliver.size() << " to write from the journal, "
            << plan.to_grade.size() << " to grade (" << reports::to_string(backend);
  if (tasks > 0) {
    std::cerr << fmt::format(", Slurm: {} array tasks of up to {} students, {} CPUs{} and {} "
                             "min each",
                             tasks, shard, sp.jobs,
                             sp.gpu ? fmt::format(", {} GPUs", o.slurm->gpus_per_task) : "",
                             sp.minutes);
  }
  std::cerr << ")\n";
}

run_measures measures(const pipeline& p, reports::backend_kind backend, double wall,
                      std::size_t jobs) {
  run_measures m;
  m.backend = std::string(reports::to_string(backend));
  m.wall_seconds = wall;
  m.graded = p.graded;
  m.jobs = jobs;
  m.fetch_seconds = p.fetch_seconds;
  m.build_seconds = p.build_seconds;
  m.run_seconds = p.run_seconds;
  return m;
}

// Submits what the plan says to grade and waits for it.
std::optional<batch_result> grade_on_cluster(pipeline& p, const batch_plan& plan,
                                             const submission_plan& sp, const slurm_folders& where,
                                             std::vector<std::string>& missing) {
  if (plan.to_grade.empty()) {
    return std::nullopt;
  }
  if (auto sacct = check_sacct(); !sacct) {
    return batch_result{exit_infrastructure, "nothing was submitted: " + sacct.error()};
  }
  auto s = submit(p.log, p.options, plan.to_grade, sp);
  if (!s) {
    return batch_result{exit_infrastructure, "cannot submit to Slurm: " + s.error()};
  }
  std::cerr << "slurm: submitted job " << s->job << " (" << s->tasks.size()
            << " array tasks; script " << (s->dir / "job.sh").string() << ", logs "
            << where.logs.string() << ")\n";
  auto done = follow(p, *s, where);
  if (!done) {
    return batch_result{exit_infrastructure, done.error()};
  }
  if (done->stopped) {
    return stopped_waiting(p, *s);
  }
  missing = done->missing;
  return std::nullopt;
}

// The plan of a local batch; the reports the journal holds but the folder lacks are written.
batch_plan plan_and_deliver(pipeline& p, const spec::assignment_spec& spec) {
  const auto& o = p.options;
  std::set<std::string> with_new_commits;
  if (std::find(o.regrade.begin(), o.regrade.end(), "new-commits") != o.regrade.end()) {
    with_new_commits = students_with_new_commits(o, p.layout, p.log, spec);
  }
  auto plan = plan_batch(o, p.log, regrade_selection(o, p.log, with_new_commits));
  for (const auto& notice : plan.notices) {
    std::cerr << "cugrade batch: " << notice << "\n";
  }
  for (const auto& student : plan.to_deliver) {
    if (const auto e = p.log.find(student)) {
      deliver(p, student, e->report_json);
    }
  }
  return plan;
}

} // namespace

batch_result run_slurm_batch(const batch_options& o, const grader::layout& l) {
  const auto started = std::chrono::steady_clock::now();
  auto spec = spec::load_assignment(o.grading.assignment, l.root, o.grading.spec_loading);
  if (!spec) {
    return {exit_usage, spec.error()};
  }
  for (const auto& warning : spec->warnings) { // once for the class (grader/spec/emulation_cost.h)
    std::cerr << "cugrade batch: warning: " << warning << "\n";
  }
  if (auto words = check_regrade_words(o); !words) {
    return {exit_usage, words.error()};
  }
  const auto backend = backend_on_cluster(o.grading.backend);
  auto opened = journal::open(o.out_dir);
  if (!opened) {
    return {exit_infrastructure, opened.error()};
  }
  journal& log = **opened;
  if (auto ok = check_folder(log, *spec, backend, o); !ok) {
    return {exit_usage, ok.error()};
  }
  block_stop_signals();
  grader::backend_choice chosen;
  chosen.kind = backend;
  slots places(1, {}, 1);
  progress shown(std::cerr, o.roster.entries.size(), written_students(o, log), o.live_progress, {});
  pipeline p{o, l, chosen, log, places, shown};
  const auto where = folders_of(o);
  if (auto r = collect_earlier_job(p, where)) {
    return *r;
  }
  const auto plan = plan_and_deliver(p, *spec);
  const auto sp = plan_submission(o, l, *spec, backend == reports::backend_kind::gpu,
                                  std::min(plan.to_grade.size(), o.slurm->shard_size));
  announce(o, plan, backend, sp);
  std::vector<std::string> missing;
  if (auto r = grade_on_cluster(p, plan, sp, where, missing)) {
    return *r;
  }
  const double wall = seconds_since(started);
  auto r = finish_batch(p, *spec, measures(p, backend, wall, sp.jobs));
  if (r.exit_code == 0 && !missing.empty()) {
    return {exit_infrastructure,
            fmt::format("{} students have no report (their Slurm task ended first, see above); "
                        "run the same command again to submit only them: {}",
                        missing.size(), o.rerun_command)};
  }
  return r;
}

} // namespace cugrade::batch
