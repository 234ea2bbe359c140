#include "grader/batch/pipeline.h"

#include "grader/batch/detail/kill_point.h"
#include "grader/batch/gpu_suspects.h"
#include "grader/batch/report_files.h"
#include "grader/batch/slurm/delivery.h"
#include "grader/core/grade.h"
#include "reports/report_json.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace cugrade::batch {

namespace {

using clock_type = std::chrono::steady_clock;

// The CPU token and GPU slot one grading holds; released whatever happens.
class held_places {
public:
  explicit held_places(slots& s) : m_slots(s) { m_slots.take_cpu(); }
  ~held_places() {
    release_cpu();
    leave_gpu();
  }
  held_places(const held_places&) = delete;
  held_places& operator=(const held_places&) = delete;

  // Moves from the CPU to the least busy GPU; returns its index.
  std::size_t move_to_gpu() {
    release_cpu();
    m_gpu = m_slots.take_gpu();
    return *m_gpu;
  }

  // The grading's runs on the GPU are over: its slot goes to the next grading.
  void leave_gpu() {
    if (m_gpu) {
      m_slots.give_gpu(*m_gpu);
      m_gpu.reset();
    }
  }

private:
  void release_cpu() {
    if (m_cpu) {
      m_slots.give_cpu();
      m_cpu = false;
    }
  }
  slots& m_slots;
  bool m_cpu = true;
  std::optional<std::size_t> m_gpu;
};

// Stage times of one grading, from its start.
struct stage_clock {
  clock_type::time_point start = clock_type::now();
  clock_type::time_point last = start;
  double lap() {
    const auto now = clock_type::now();
    const double s = std::chrono::duration<double>(now - last).count();
    last = now;
    return s;
  }
};

reports::report unexpected_failure(const batch_options& o, const roster_entry& e,
                                   const std::string& why) {
  reports::report r;
  r.assignment_name = o.grading.assignment;
  r.submission.student = e.student;
  r.submission.source = e.repository;
  r.created_at = reports::now_iso8601_utc();
  reports::mark_ungradable(r, why);
  return r;
}

// Grades one student; `gpu` says which of the batch's GPUs the grading's runs took, if any.
reports::report grade_student(pipeline& p, const roster_entry& e, stage_clock& times,
                              std::optional<std::size_t>& gpu) {
  held_places places(p.places);
  auto g = grading_options(p.options, p.backend, e);
  g.hooks.reached = [&](grader::grade_stage stage) {
    const bool fetched = stage == grader::grade_stage::fetched;
    p.log.mark_stage(e.student, fetched ? student_state::fetched : student_state::built,
                     times.lap());
    detail::kill_point(fetched ? "fetched" : "built");
    p.shown.doing(e.student, fetched ? "building" : "running");
  };
  if (!p.places.gpus().empty()) {
    g.hooks.before_runs = [&] {
      gpu = places.move_to_gpu();
      const auto& device = p.places.gpus()[*gpu];
      p.shown.doing(e.student, "GPU " + device);
      return grader::device_pin{device, *gpu < p.gpu_identities.size() ? p.gpu_identities[*gpu]
                                                                       : std::nullopt};
    };
    g.hooks.after_runs = [&] {
      places.leave_gpu(); // the timed calls' checks are CPU work
      p.shown.doing(e.student, "checking");
    };
  }
  p.shown.doing(e.student, "fetching");
  try {
    auto out = grader::grade(g, p.layout);
    if (out.report) {
      return std::move(*out.report);
    }
    return unexpected_failure(p.options, e, out.error);
  } catch (const std::exception& ex) {
    // A grader bug or infrastructure fault: recorded for this student, the class goes on.
    return unexpected_failure(p.options, e, std::string("internal error: ") + ex.what());
  }
}

// After a grading the machine may have spoiled (on `gpu`, when it reached one): true when a GPU
// no longer works, so that report is not kept against the student. That GPU leaves service; the
// batch stops once no GPU is left.
bool machine_lost_during(pipeline& p, const roster_entry& e, const reports::report& r,
                         std::optional<std::size_t> gpu) {
  if (!p.machine_lost || !machine_may_be_at_fault(r)) {
    return false;
  }
  const auto lost = p.machine_lost(gpu);
  if (!lost) {
    return false;
  }
  p.record_loss(lost->why, e.student);
  const bool known = lost->gpu < p.places.gpus().size(); // else: the machine as a whole
  if (!known || p.places.retire_gpu(lost->gpu) == 0) {
    p.stop = true;
  }
  p.shown.doing(e.student, "not graded: the GPU stopped working");
  return true;
}

void grade_one(pipeline& p, const roster_entry& e) {
  stage_clock times;
  std::optional<std::size_t> gpu;
  const auto report = grade_student(p, e, times, gpu);
  if (machine_lost_during(p, e, report, gpu)) {
    return; // stays before `graded`: the next run grades this student
  }
  const auto json = reports::render_json(reports::redact(report));
  p.log.mark_graded(e.student, report.submission.commit.value_or(""), json, times.lap());
  {
    const std::lock_guard lock(p.totals_mutex);
    clear_gpu_suspect(p.log, e.student);
  }
  detail::kill_point("graded");
  if (const auto entry = p.log.find(e.student)) {
    add_grading_times(p, entry->fetch_seconds, entry->build_seconds, entry->run_seconds);
  }
  deliver(p, e.student, json);
}

// Inside a Slurm task: the report goes to the submitter's results folder too, with what the
// task's own journal knows of it.
result<void> hand_to_submitter(pipeline& p, const std::string& student,
                               const std::string& report_json) {
  const auto e = p.log.find(student);
  if (!p.options.deliver_to || !e) {
    return {};
  }
  const char* job = std::getenv("SLURM_ARRAY_JOB_ID");
  return hand_over(*p.options.deliver_to,
                   {student, e->inputs, job != nullptr ? job : "", e->commit, report_json,
                    e->fetch_seconds, e->build_seconds, e->run_seconds});
}

} // namespace

std::string pipeline::lost_reason() {
  const std::lock_guard lock(totals_mutex);
  return m_lost_reason;
}

std::vector<std::string> pipeline::lost_during() {
  const std::lock_guard lock(totals_mutex);
  return m_lost_during;
}

void pipeline::record_loss(const std::string& why, const std::string& student) {
  const std::lock_guard lock(totals_mutex);
  if (m_lost_reason.find(why) == std::string::npos) {
    m_lost_reason += (m_lost_reason.empty() ? "" : "; ") + why;
  }
  m_lost_during.push_back(student);
  add_gpu_suspect(log, student);
}

bool machine_may_be_at_fault(const reports::report& r) {
  return !r.gradable;
}

grader::grade_options grading_options(const batch_options& o, const grader::backend_choice& chosen,
                                      const roster_entry& e) {
  grader::grade_options g = o.grading; // the class's settings; the deadline is the default
  g.submission = e.repository;
  g.chosen_backend = chosen;
  g.commit = e.commit;
  if (e.deadline) {
    g.deadline = e.deadline;
  }
  g.student = e.student;
  g.write_files = false; // the batch writes the files from the journal (deliver)
  return g;
}

void add_grading_times(pipeline& p, double fetch_seconds, double build_seconds,
                       double run_seconds) {
  const std::lock_guard lock(p.totals_mutex);
  ++p.graded;
  p.fetch_seconds += fetch_seconds;
  p.build_seconds += build_seconds;
  p.run_seconds += run_seconds;
}

void deliver(pipeline& p, const std::string& student, const std::string& report_json) {
  const auto written =
      write_report_files(p.options.out_dir, student, report_json, p.options.formats);
  if (!written) {
    const std::lock_guard lock(p.totals_mutex);
    p.failures.push_back(student + ": " + written.error());
    return;
  }
  if (auto handed = hand_to_submitter(p, student, report_json); !handed) {
    const std::lock_guard lock(p.totals_mutex);
    p.failures.push_back(student + ": " + handed.error());
    return;
  }
  detail::kill_point("files");
  p.log.mark_written(student, written->files);
  detail::kill_point("written");
  if (const auto r = journaled_report(report_json)) {
    p.shown.finished(student, *r);
  }
}

std::vector<std::jthread> start_workers(pipeline& p, const std::vector<const roster_entry*>& work,
                                        std::atomic<std::size_t>& remaining) {
  auto next = std::make_shared<std::atomic<std::size_t>>(0);
  const auto count = std::min(p.places.concurrency(), work.size());
  std::vector<std::jthread> workers;
  for (std::size_t i = 0; i < count; ++i) {
    workers.emplace_back([&p, &work, &remaining, next] {
      for (auto k = (*next)++; k < work.size() && !p.stop; k = (*next)++) {
        grade_one(p, *work[k]);
        --remaining;
      }
    });
  }
  return workers;
}

} // namespace cugrade::batch
