#include "grader/perf/gpu_evaluation.h"

#include "grader/perf/benchmark_plan.h"
#include "grader/perf/performance_entries.h"
#include "grader/perf/reference_build.h"
#include "grader/perf/roofline_cache.h"
#include "grader/perf/sanitizer_check.h"
#include "grader/process/process.h"

#include <fmt/format.h>
#include <random>

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

constexpr double roofline_time_limit = 600;

std::vector<std::string> case_keys(const spec::assignment_spec& spec) {
  std::vector<std::string> keys;
  for (const auto& c : spec.benchmarks) {
    keys.push_back(roofline::case_key(spec.problem, c));
  }
  return keys;
}

bool runnable(reports::kernel_status s) {
  return s == reports::kernel_status::passed || s == reports::kernel_status::failed;
}

// The first run that failed its checks; runs end at the first failure.
const launcher_run* failed_run(const std::vector<launcher_run>& runs) {
  for (const auto& r : runs) {
    if (!r.verified()) {
      return &r;
    }
  }
  return nullptr;
}

} // namespace

gpu_evaluation_options::gpu_evaluation_options() : request(default_timing_request()) {}

gpu_evaluator::gpu_evaluator(const spec::assignment_spec& spec, const grader::layout& layout,
                             fs::path nvcc, std::string device, fs::path work_dir,
                             std::function<void(std::string_view)> progress,
                             gpu_evaluation_options options)
    : m_spec(spec), m_layout(layout), m_nvcc(std::move(nvcc)), m_device(std::move(device)),
      m_work_dir(std::move(work_dir)), m_progress(std::move(progress)),
      m_options(std::move(options)) {
  // Drawn per grading: the runner cannot know which matmul rows will be checked.
  m_policy.row_seed = std::random_device{}();
}

void gpu_evaluator::say(const std::string& message) const {
  if (m_progress) {
    m_progress(message);
  }
}

result<fs::path> gpu_evaluator::reference() {
  if (!m_reference) {
    say("building the reference " + m_spec.source_file + " for timing");
    auto lib = reference_library(m_spec, m_nvcc, m_layout.cache_dir);
    if (!lib) {
      return fail(lib.error());
    }
    m_reference = *lib;
  }
  return *m_reference;
}

const roofline::device_roofline* gpu_evaluator::roof() {
  if (!m_roof_tried) {
    m_roof_tried = true;
    auto r = load_roofline(m_layout.bin_dir / "cugrade-roofline", m_layout.cache_dir, m_device,
                           case_keys(m_spec), roofline_time_limit);
    if (r) {
      m_roof = std::move(*r);
    } else {
      say("no roofline figures: " + r.error());
    }
  }
  return m_roof ? &*m_roof : nullptr;
}

comparison_setup gpu_evaluator::setup() const {
  comparison_setup s;
  s.problem = m_spec.problem;
  s.runner = m_layout.runner("gpu");
  s.work_dir = m_work_dir / "timing";
  s.cases = benchmark_cases(m_spec);
  s.request = m_options.request;
  s.policy = m_policy;
  s.rounds = m_options.rounds;
  s.progress = m_progress;
  return s;
}

result<void> gpu_evaluator::sanitize(reports::kernel_report& k, const fs::path& library) {
  const auto sanitizer = find_compute_sanitizer(m_nvcc);
  if (!sanitizer) {
    return fail("the assignment asks for compute-sanitizer checks but compute-sanitizer is not "
                "installed (looked next to " +
                m_nvcc.string() +
                " and on PATH); install the "
                "CUDA toolkit's compute-sanitizer or set \"sanitizer\": {\"enabled\": false}");
  }
  say(k.name + ": compute-sanitizer " + fmt::format("{}", fmt::join(m_spec.sanitizer.tools, ", ")));
  const sanitizer_setup tools{*sanitizer, m_layout.runner("gpu"), m_work_dir / "sanitizer", 300};
  auto outcome = run_sanitizer(m_spec, k.name, library, tools);
  if (!outcome) {
    return fail(outcome.error());
  }
  for (const auto& note : outcome->notes) {
    say(k.name + ": " + note);
  }
  record_findings(k, outcome->findings);
  return {};
}

result<void> gpu_evaluator::time(reports::kernel_report& k, const spec::kernel_spec& kernel,
                                 const fs::path& library) {
  auto ref = reference();
  if (!ref) {
    return fail(ref.error());
  }
  const auto s = setup();
  auto cmp = compare_launchers(s, k.name, {library, "student"}, {*ref, "reference"});
  if (!cmp) {
    return fail(cmp.error());
  }
  if (const auto* bad = failed_run(cmp->b_runs)) {
    return fail("the reference " + k.name +
                " failed its own timed checks (a harness or "
                "reference bug): " +
                bad->first_problem());
  }
  const bool verified = cmp->a_verified();
  const auto student = cmp->a_runs;
  for (std::size_t i = 0; i < s.cases.size(); ++i) {
    entry_source src;
    src.problem = m_spec.problem;
    src.tc = s.cases[i];
    src.measured = pool(student, i);
    if (src.measured.event_ms.empty()) {
      continue;
    }
    const auto reference_samples = pool(cmp->b_runs, i);
    src.reference = verified ? &reference_samples : nullptr;
    src.roof = roof();
    src.bootstrap_seed = bootstrap_seed(k.name, s.cases[i].name);
    k.performance.push_back(make_entry(src));
  }
  if (!verified) {
    const auto h = timing_failure_hint(*failed_run(cmp->a_runs));
    say(k.name + ": timed calls failed their checks: " + h.message);
    k.diagnosis.push_back(h);
    return {};
  }
  score_performance(k, kernel, m_spec.performance);
  return {};
}

result<void> gpu_evaluator::evaluate(reports::kernel_report& k, const fs::path& student_library) {
  const auto* kernel = m_spec.find_kernel(k.name);
  if (kernel == nullptr || !runnable(k.status)) {
    return {};
  }
  if (m_options.sanitizer && m_spec.sanitizer.enabled) {
    if (auto r = sanitize(k, student_library); !r) {
      return r;
    }
  }
  const bool wanted = kernel->performance_points > 0 || m_options.time_unscored_kernels;
  if (k.status != reports::kernel_status::passed || !m_options.timing || !wanted ||
      m_spec.benchmarks.empty()) {
    return {};
  }
  return time(k, *kernel, student_library);
}

std::optional<fs::path> find_compute_sanitizer(const fs::path& nvcc) {
  const fs::path beside = nvcc.parent_path() / "compute-sanitizer";
  std::error_code ec;
  if (!nvcc.empty() && fs::exists(beside, ec)) {
    return beside;
  }
  return process::find_program("compute-sanitizer");
}

reports::hint timing_failure_hint(const launcher_run& run) {
  for (const auto& c : run.cases) {
    if (!c.record) {
      const bool timeout = run.outcome.timed_out;
      return {timeout ? reports::hint_code::timeout : reports::hint_code::wrong_result,
              "the benchmark run of " + c.tc.name + " did not finish: " + run.outcome.ending()};
    }
    if (c.check.ok()) {
      continue;
    }
    if (c.check.verdict == timed_verdict::input_modified) {
      return {reports::hint_code::input_modified,
              "an input of a timed call was modified: " + c.check.message};
    }
    const std::string prefix = "the output of a timed call was wrong: ";
    const std::string& m = c.check.message;
    return {reports::hint_code::wrong_result, (m.starts_with(prefix) ? m : prefix + m) +
                                                  " (benchmark " + c.tc.name +
                                                  "); no performance points"};
  }
  return {reports::hint_code::wrong_result, "the timed calls failed their checks"};
}

} // namespace cugrade::perf
