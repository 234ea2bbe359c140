#include "grader/perf/benchmark_plan.h"

namespace cugrade::perf {

namespace {

// A fixed salt, so benchmark seeds differ from every correctness group's.
constexpr std::uint64_t benchmark_salt = 0x62656e63686d6172ull; // "benchmar"

} // namespace

// The protocol's numbers live in one place, timing_request's defaults (harness/protocol,
// docs/timing.md); grading only switches timing on.
protocol::timing_request default_timing_request() {
  protocol::timing_request t;
  t.enabled = true;
  return t;
}

protocol::timing_request default_control_request() {
  auto t = default_timing_request();
  // A few samples are enough to see a 1% move: the reference's spread is far below 0.5%.
  t.min_samples = 10;
  t.max_seconds = 2;
  // Only its time is used: the reference's outputs were checked when its time was measured.
  t.save_outputs = false;
  return t;
}

std::vector<problems::test_case> benchmark_cases(const spec::assignment_spec& spec) {
  return problems::make_cases(spec.problem, spec.benchmarks, spec.seed ^ benchmark_salt);
}

protocol::plan timing_plan(problems::kind problem, const std::string& launcher,
                           const std::filesystem::path& library,
                           const std::filesystem::path& output_dir,
                           const std::vector<problems::test_case>& cases,
                           const protocol::timing_request& request) {
  protocol::plan p;
  p.problem = problem;
  p.launcher = launcher;
  p.library = library;
  p.output_dir = output_dir;
  p.runs = 1;
  p.timing = request;
  p.timing.enabled = true;
  for (const auto& c : cases) {
    p.cases.push_back({c.name, c.dims, c.distribution, c.seed});
  }
  return p;
}

double timing_time_limit(const protocol::timing_request& request, std::size_t cases) {
  constexpr double per_case_overhead = 60; // warm-up, input sets, transfers, the fresh call
  constexpr double start_up = 30;          // the CUDA context, loading the library
  return start_up + static_cast<double>(cases) *
                        (request.max_seconds + request.warmup_seconds + per_case_overhead);
}

} // namespace cugrade::perf
