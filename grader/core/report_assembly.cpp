#include "grader/core/report_assembly.h"

#include "grader/core/kernel_verdict.h"
#include "grader/core/report_slot.h"
#include "harness/core/iso8601.h"
#include "reports/number_text.h"
#include "reports/writers.h"

#include <algorithm>
#include <fmt/format.h>
#include <unistd.h>

#ifndef CUGRADE_VERSION
#define CUGRADE_VERSION "0.0.0"
#endif

namespace cugrade::grader {

namespace {

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? name : "";
}

} // namespace

reports::report base_report(const spec::assignment_spec& spec, const grade_options& options) {
  reports::report r;
  r.assignment_name = spec.name;
  r.spec_sha256 = spec.spec_sha256;
  r.submission.source = canonical_source(options.submission);
  r.submission.student =
      options.student.empty() ? default_student_id(options.submission) : options.student;
  r.environment.grader_version = CUGRADE_VERSION;
  r.environment.host = host_name();
  r.max_score = spec.max_score();
  r.seed = spec.seed;
  r.gradable = true;
  r.created_at = reports::now_iso8601_utc();
  // Until a backend is chosen, the report names the one asked for (auto means "emu" only if the
  // GPU turns out unusable, which record_backend will say).
  r.environment.backend =
      options.backend == "gpu" ? reports::backend_kind::gpu : reports::backend_kind::emu;
  return r;
}

grade_outcome not_gradable(reports::report& r, const std::string& why) {
  r.gradable = false;
  r.infrastructure_error = why;
  return {grade_exit::infrastructure, why, r, {}, {}};
}

void record_backend(reports::report& r, const backend_choice& b) {
  r.environment.backend = b.kind;
  r.environment.device = b.identity.device;
  r.environment.driver = b.identity.driver;
  r.environment.cuda_runtime = b.identity.runtime;
}

void record_submission(reports::report& r, const spec::assignment_spec& spec,
                       const fetch::fetched_submission& fetched,
                       const std::optional<std::chrono::system_clock::time_point>& deadline) {
  r.submission.commit = fetched.commit;
  r.submission.notes = fetched.notes;
  if (fetched.commit_time) {
    r.submission.commit_time = format_iso8601_utc(*fetched.commit_time);
  }
  if (!deadline) {
    return;
  }
  r.submission.deadline = format_iso8601_utc(*deadline);
  if (fetched.commit_time) {
    const auto grace = std::chrono::minutes(spec.late.grace_minutes);
    r.submission.late_days = fetch::late_days(*fetched.commit_time - grace, *deadline);
  }
}

void record_nothing_built(reports::report& r, const spec::assignment_spec& spec,
                          const grade_options& options, const std::string& why) {
  r.build.status = reports::build_status::error;
  r.build.log = why;
  r.build.summary = why;
  for (const auto& k : spec.kernels) {
    if (wanted(options, k.name)) {
      r.kernels.push_back(kernel_not_run(spec, k, reports::kernel_status::build_error,
                                         {reports::hint_code::build_error, why}));
    }
  }
}

void record_build(reports::report& r, const build::build_outcome& built) {
  r.build.status = built.ok ? reports::build_status::ok : reports::build_status::error;
  r.build.log = built.log;
  r.build.summary = built.summary;
  r.build.warnings = built.warnings;
  r.build.seconds = built.seconds;
}

std::string missing_launcher_message(const spec::assignment_spec& spec, const std::string& launcher,
                                     const build::build_outcome& built) {
  std::string message = spec.source_file + " does not define the launcher " + launcher;
  for (const auto& note : built.notes) {
    if (note.find(launcher) != std::string::npos) {
      message += ": " + note;
    }
  }
  return message;
}

void apply_backend_scoring(reports::report& r, const spec::assignment_spec& spec) {
  if (r.environment.backend != reports::backend_kind::emu) {
    return;
  }
  for (auto& k : r.kernels) {
    const auto* ks = spec.find_kernel(k.name);
    if (ks == nullptr || ks->performance_points <= 0) {
      continue;
    }
    k.performance_note = fmt::format(
        "not measured in emulation (needs a GPU): its {} performance point{} come{} from the GPU "
        "grading",
        reports::number_text(ks->performance_points), ks->performance_points == 1 ? "" : "s",
        ks->performance_points == 1 ? "s" : "");
    k.score -= k.performance_score;
    k.performance_score = 0;
    k.performance_max = spec.performance.counted_in_emulation ? ks->performance_points : 0;
    k.max_score = ks->points + k.performance_max;
  }
}

double maximum_score(const spec::assignment_spec& spec, reports::backend_kind backend,
                     const grade_options& options) {
  const bool performance_counts =
      backend == reports::backend_kind::gpu || spec.performance.counted_in_emulation;
  double total = 0;
  for (const auto& k : spec.kernels) {
    if (wanted(options, k.name)) {
      total += k.points + (performance_counts ? k.performance_points : 0);
    }
  }
  return total;
}

void finish_scores(reports::report& r, const spec::assignment_spec& spec,
                   const grade_options& options) {
  apply_backend_scoring(r, spec);
  r.max_score = maximum_score(spec, r.environment.backend, options);
  if (!r.gradable) {
    r.score.reset();
    r.late_penalty = 0;
    return;
  }
  double earned = 0;
  for (const auto& k : r.kernels) {
    earned += k.score;
  }
  const double fraction = spec::late_penalty_fraction(spec.late, r.submission.late_days);
  r.late_penalty = earned * fraction;
  r.late_penalty_explanation =
      spec::explain_late_penalty(spec.late, r.submission.late_days, r.late_penalty);
  r.score = std::max(0.0, earned - r.late_penalty);
}

std::filesystem::path report_dir(const spec::assignment_spec& spec, const grade_options& options) {
  return options.out_dir.empty() ? std::filesystem::current_path() / "reports" / spec.name
                                 : options.out_dir;
}

bool wanted(const grade_options& o, const std::string& kernel) {
  return o.kernels.empty() ||
         std::find(o.kernels.begin(), o.kernels.end(), kernel) != o.kernels.end();
}

void write_outputs(grade_outcome& out, const spec::assignment_spec& spec,
                   const grade_options& options) {
  if (!out.report) {
    return;
  }
  const auto dir = report_dir(spec, options);
  const std::string& id = out.report->submission.student;
  const std::string basename = report_basename(dir, id, out.report->gradable);
  if (basename != id) {
    out.notices.push_back("kept the gradable report " + (dir / (id + ".json")).string() +
                          "; this not-gradable result was written beside it as " + basename +
                          ".*, so nothing graded is lost");
  }
  const auto w = reports::write_report(*out.report, dir, basename, options.formats);
  out.written = w.files;
  if (!w.ok()) {
    out.exit = grade_exit::infrastructure;
    out.error = "cannot write the report: " + w.error;
  }
}

std::filesystem::path prepare_work_parent(const layout& l) {
  const auto dir = l.cache_dir / "work";
  std::filesystem::create_directories(dir);
  return dir;
}

} // namespace cugrade::grader
