#include "grader/batch/batch.h"

#include "grader/batch/gradebook.h"
#include "grader/batch/new_commits.h"
#include "grader/batch/pipeline.h"
#include "grader/batch/plan.h"
#include "grader/batch/report_files.h"
#include "grader/batch/summary.h"
#include "grader/core/backend_choice.h"
#include "grader/perf/runner_call.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/file_io.h"

#include <algorithm>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <thread>

namespace cugrade::batch {

namespace {

constexpr int exit_usage = 2;
constexpr int exit_infrastructure = 3;
constexpr int exit_interrupted = 130;

// The journal remembers what the folder was graded with; a different assignment, spec or
// backend would mix incomparable reports in one gradebook.
result<void> check_settings(journal& j, const std::string& key, const std::string& value,
                            const batch_options& o, const std::string& fix) {
  const auto stored = j.setting(key);
  const bool regrade_all = std::find(o.regrade.begin(), o.regrade.end(), "all") != o.regrade.end();
  if (stored && *stored != value && !regrade_all) {
    return fail(o.out_dir.string() + ": was graded with " + key + " " + *stored +
                ", this run has " + value + "; " + fix);
  }
  j.set_setting(key, value);
  return {};
}

result<void> check_folder(journal& j, const spec::assignment_spec& spec,
                          const grader::backend_choice& backend, const batch_options& o) {
  const std::string elsewhere = "give another --out, or --regrade all to regrade everyone";
  if (auto r = check_settings(j, "assignment", spec.name, o, elsewhere); !r) {
    return r;
  }
  if (auto r = check_settings(j, "spec_sha256", spec.spec_sha256, o,
                              "the spec changed: " + elsewhere + " with it");
      !r) {
    return r;
  }
  return check_settings(j, "backend", std::string(reports::to_string(backend.kind)), o,
                        "give --backend " + j.setting("backend").value_or("emu") +
                            " to continue, or " + elsewhere);
}

std::map<std::string, journal_entry> entries_by_student(journal& j) {
  std::map<std::string, journal_entry> out;
  for (auto& e : j.all()) {
    out.emplace(e.student, std::move(e));
  }
  return out;
}

std::size_t default_jobs(std::size_t jobs) {
  return jobs > 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
}

// Waits for the workers while redrawing the live line; SIGINT/SIGTERM (blocked in every
// thread, so only this loop sees them) stop the batch.
bool wait_for_workers(pipeline& p, std::atomic<std::size_t>& remaining) {
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  const timespec tick{0, 250'000'000};
  while (remaining > 0) {
    if (sigtimedwait(&stops, nullptr, &tick) > 0) {
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

result<void> write_outputs(pipeline& p, const spec::assignment_spec& spec, const run_measures& m) {
  const auto entries = entries_by_student(p.log);
  std::vector<std::string> kernels;
  for (const auto& k : spec.kernels) {
    if (p.options.kernels.empty() || std::find(p.options.kernels.begin(), p.options.kernels.end(),
                                               k.name) != p.options.kernels.end()) {
      kernels.push_back(k.name);
    }
  }
  if (auto written = write_file_atomically(p.options.out_dir / "gradebook.csv",
                                           render_gradebook(p.options.roster, kernels, entries));
      !written) {
    return written;
  }
  return write_file_atomically(p.options.out_dir / "summary.json",
                               summary_json(p.options.roster, entries, m).dump(2) + "\n");
}

// This run's throughput, stage breakdown and GPU occupancy (also in summary.json).
void print_throughput(const run_measures& m) {
  if (m.graded == 0) {
    return;
  }
  const double n = static_cast<double>(m.graded);
  std::cout << fmt::format("throughput: {} graded in {:.1f} s: {:.0f} submissions/hour ({}, {} "
                           "jobs)\n",
                           m.graded, m.wall_seconds,
                           m.wall_seconds > 0 ? n * 3600 / m.wall_seconds : 0, m.backend, m.jobs);
  std::cout << fmt::format("stages: mean per submission: fetch {:.2f} s, build {:.2f} s, run "
                           "{:.2f} s\n",
                           m.fetch_seconds / n, m.build_seconds / n, m.run_seconds / n);
  std::string busy;
  for (std::size_t i = 0; i < m.gpus.size(); ++i) {
    busy += fmt::format("{}GPU {} busy {:.0f}%", i == 0 ? "" : ", ", m.gpus[i],
                        100 * m.gpu_busy_fraction[i]);
  }
  std::cout << "gpus: " << (busy.empty() ? "NA (emulation)" : busy) << "\n";
}

// The closing words: where things are, and each not-gradable student with the regrade command.
void print_closing(pipeline& p, const run_measures& m) {
  const auto entries = entries_by_student(p.log);
  std::size_t not_gradable = 0;
  for (const auto& e : p.options.roster.entries) {
    const auto it = entries.find(e.student);
    const auto r = it == entries.end() ? std::nullopt
                                       : std::optional(journaled_report(it->second.report_json));
    if (r && *r && !(*r)->gradable) {
      if (not_gradable++ == 0) {
        std::cout << "Not gradable:\n";
      }
      std::cout << "  " << e.student << ": " << (*r)->infrastructure_error
                << "\n    regrade with: " << p.options.rerun_command << " --regrade " << e.student
                << "\n";
    }
  }
  std::cout << "gradebook: " << (p.options.out_dir / "gradebook.csv").string() << " ("
            << p.options.roster.entries.size() << " students, " << not_gradable
            << " not gradable)\n";
  print_throughput(m);
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
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto m = measures(p, backend, wall);
  if (auto w = write_outputs(p, spec, m); !w) {
    return {exit_infrastructure, "cannot write the gradebook: " + w.error()};
  }
  print_closing(p, m);
  if (!p.failures.empty()) {
    std::string all;
    for (const auto& f : p.failures) {
      all += "\n  " + f;
    }
    return {exit_infrastructure, "some reports could not be written (run again to retry):" + all};
  }
  return {};
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
    const perf::pinned_devices pin(gpu);
    auto id = grader::probe_gpu(l);
    out.push_back(id ? std::optional(*id) : std::nullopt);
  }
  return out;
}

void block_stop_signals() {
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
}

} // namespace

batch_result run_batch(const batch_options& o, const grader::layout& l) {
  auto spec = spec::load_assignment(o.assignment, l.root, o.spec_loading);
  if (!spec) {
    return {exit_usage, spec.error()};
  }
  if (auto words = check_regrade_words(o); !words) {
    return {exit_usage, words.error()};
  }
  auto backend = grader::choose_backend(l, o.backend);
  if (!backend) {
    return {exit_infrastructure, backend.error()};
  }
  auto opened = journal::open(o.out_dir);
  if (!opened) {
    return {exit_infrastructure, opened.error()};
  }
  journal& log = **opened;
  if (auto ok = check_folder(log, *spec, *backend, o); !ok) {
    return {exit_usage, ok.error()};
  }
  std::set<std::string> with_new_commits;
  if (std::find(o.regrade.begin(), o.regrade.end(), "new-commits") != o.regrade.end()) {
    with_new_commits = students_with_new_commits(o, l, log, spec->deadline);
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
  one_emulator_worker_per_runner(*backend);
  block_stop_signals();
  pipeline p{o, l, *backend, log, places, shown};
  p.gpu_identities = probe_each(l, places.gpus());
  return grade_and_write(p, plan, *spec, *backend);
}

} // namespace cugrade::batch
