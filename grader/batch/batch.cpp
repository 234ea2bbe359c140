#include "grader/batch/batch.h"

#include "grader/batch/closing.h"
#include "grader/batch/new_commits.h"
#include "grader/batch/pipeline.h"
#include "grader/batch/plan.h"
#include "grader/batch/slurm/slurm_batch.h"
#include "grader/batch/stop_signals.h"
#include "grader/core/backend_choice.h"
#include "grader/core/gpu_loss.h"
#include "grader/runners/run_context.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/elapsed.h"

#include <algorithm>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <functional>
#include <iostream>
#include <map>
#include <thread>

namespace cugrade::batch {

namespace {

std::size_t default_jobs(std::size_t jobs) {
  return jobs > 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
}

// Waits for the workers while redrawing the live line; SIGINT/SIGTERM (blocked in every
// thread, so only this loop sees them) stop the batch. A machine with no GPU left in service
// ends the wait too: the gradings in flight end when the threads are joined.
bool wait_for_workers(pipeline& p, std::atomic<std::size_t>& remaining) {
  while (remaining > 0 && !p.stop) {
    if (stop_requested_within(0.25)) {
      p.stop = true;
      return false;
    }
    p.shown.tick();
  }
  return true;
}

// Ctrl-C: no new state change starts, running gradings are abandoned (their runners die with
// this process: PDEATHSIG), and their students stay before `graded`, so the next run grades them.
[[noreturn]] void stop_now(pipeline& p) {
  p.log.freeze();
  p.shown.close();
  std::cerr << "cugrade batch: stopped; the journal is consistent. Run the same command again "
               "to continue: "
            << p.options.rerun_command << "\n";
  std::_Exit(exit_interrupted);
}

run_measures measures(pipeline& p, const grader::backend_choice& backend, double wall) {
  run_measures m;
  m.backend = std::string(reports::to_string(backend.kind));
  m.wall_seconds = wall;
  m.graded = p.graded;
  m.jobs = default_jobs(p.options.jobs);
  m.gpus = p.places.gpus();
  for (double busy : p.places.gpu_busy_seconds()) {
    m.gpu_busy_fraction.push_back(wall > 0 ? busy / wall : 0);
  }
  m.fetch_seconds = p.fetch_seconds;
  m.build_seconds = p.build_seconds;
  m.run_seconds = p.run_seconds;
  return m;
}

batch_result grade_and_write(pipeline& p, const batch_plan& plan, const spec::assignment_spec& spec,
                             const grader::backend_choice& backend) {
  const auto started = std::chrono::steady_clock::now();
  for (const auto& student : plan.to_deliver) {
    if (const auto e = p.log.find(student)) {
      deliver(p, student, e->report_json);
    }
  }
  std::atomic<std::size_t> remaining = plan.to_grade.size();
  {
    auto workers = start_workers(p, plan.to_grade, remaining);
    if (!wait_for_workers(p, remaining)) {
      stop_now(p);
    }
  }
  p.shown.close();
  const double wall = seconds_since(started);
  auto finished = finish_batch(p, spec, measures(p, backend, wall));
  if (const auto why = p.lost_reason(); !why.empty()) {
    const auto words = machine_lost_words(why, plan.to_grade.size() - p.graded, p.lost_during(),
                                          p.options.rerun_command, p.places.gpus_in_service());
    return {exit_infrastructure, finished.error.empty() ? words : words + "\n" + finished.error};
  }
  return finished;
}

// A GPU is healthy when its own probe (pinned to it, as its gradings are; under its shared lock,
// outside other gradings' timed windows) still answers. The GPU a grading ran on is probed;
// every GPU in service when the grading stopped before its runs. `known`: each GPU as the
// batch's first probe saw it (pipeline::gpu_identities).
std::function<std::optional<lost_gpu>(std::optional<std::size_t>)>
gpu_health(const grader::layout& l, const slots& places,
           const std::vector<std::optional<protocol::device_identity>>& known) {
  return [&l, &places, &known](std::optional<std::size_t> used) -> std::optional<lost_gpu> {
    const auto& gpus = places.gpus();
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      if (used ? i != *used : !places.in_service(i)) {
        continue;
      }
      const runners::run_context pinned{gpus[i]};
      auto id = i < known.size() && known[i]
                    ? grader::probe_gpu_beside_gradings(l, pinned, *known[i])
                    : grader::probe_gpu(l, pinned);
      if (!id) {
        return lost_gpu{i, "GPU " + gpus[i] + ": " + id.error()};
      }
    }
    return std::nullopt;
  };
}

// Emulated runners of a batch use one worker thread each: the class already keeps every core
// busy, and one worker fixes the order of blocks (atomics sum in the same order), so a resumed
// batch reproduces an uninterrupted one byte for byte. Called before any thread starts.
void one_emulator_worker_per_runner(const grader::backend_choice& backend) {
  if (backend.kind == reports::backend_kind::emu) {
    ::setenv("CUGRADE_EMU_WORKERS", "1", 0);
  }
}

// Each GPU as its own probe sees it (its UUID keys its lock), with the runner pinned to it.
std::vector<std::optional<protocol::device_identity>>
probe_each(const grader::layout& l, const std::vector<std::string>& gpus) {
  std::vector<std::optional<protocol::device_identity>> out;
  for (const auto& gpu : gpus) {
    auto id = grader::probe_gpu(l, runners::run_context{gpu});
    out.push_back(id ? std::optional(*id) : std::nullopt);
  }
  return out;
}

} // namespace

batch_result run_batch(const batch_options& o, const grader::layout& l) {
  if (o.slurm) {
    return run_slurm_batch(o, l);
  }
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
  auto backend = grader::choose_backend(l, o.grading.backend);
  if (!backend) {
    return {exit_infrastructure, backend.error()};
  }
  auto opened = journal::open(o.out_dir);
  if (!opened) {
    return {exit_infrastructure, opened.error()};
  }
  journal& log = **opened;
  if (auto ok = check_folder(log, *spec, backend->kind, o); !ok) {
    return {exit_usage, ok.error()};
  }
  std::set<std::string> with_new_commits;
  if (std::find(o.regrade.begin(), o.regrade.end(), "new-commits") != o.regrade.end()) {
    with_new_commits = students_with_new_commits(o, l, log, *spec);
  }
  const auto plan = plan_batch(o, log, regrade_selection(o, log, with_new_commits));
  const bool gpu = backend->kind == reports::backend_kind::gpu;
  slots places(default_jobs(o.jobs), gpu ? visible_gpus(o.gpus) : std::vector<std::string>{},
               o.per_gpu);
  progress shown(std::cerr, o.roster.entries.size(), plan.done, o.live_progress, places.gpus());
  if (!backend->note.empty()) {
    std::cerr << "cugrade batch: " << backend->note << "\n";
  }
  std::cerr << "cugrade batch: " << o.roster.entries.size() << " students: " << plan.done
            << " already written, " << plan.to_deliver.size() << " to write from the journal, "
            << plan.to_grade.size() << " to grade (" << reports::to_string(backend->kind) << ", "
            << default_jobs(o.jobs) << " jobs"
            << (gpu ? ", " + std::to_string(places.gpus().size()) + " GPUs" : std::string())
            << ")\n";
  for (const auto& notice : plan.notices) {
    std::cerr << "cugrade batch: " << notice << "\n";
  }
  one_emulator_worker_per_runner(*backend);
  block_stop_signals();
  pipeline p{o, l, *backend, log, places, shown};
  p.gpu_identities = probe_each(l, places.gpus());
  if (gpu) {
    p.machine_lost = gpu_health(l, places, p.gpu_identities);
  }
  return grade_and_write(p, plan, *spec, *backend);
}

} // namespace cugrade::batch
