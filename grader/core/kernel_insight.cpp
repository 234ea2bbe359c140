#include "grader/core/kernel_insight.h"

#include <fmt/format.h>

#include "grader/core/case_plan.h"
#include "grader/insight/counter_profile.h"
#include "grader/insight/insight_rules.h"
#include "grader/insight/memory_profile.h"
#include "harness/core/words.h"

namespace cugrade::grader {
namespace {

constexpr const char* emulator_tool = "cugrade emulator (warp profiler)";

// What emulation does not measure, said once in every emulated profile.
constexpr const char* emulation_limits =
    "measured by counting every warp's memory requests in emulation; registers per thread, "
    "achieved occupancy, caches and instruction-level lane activity need a GPU (Nsight Compute)";

// On the GPU the counters are the kernel's totals: the line is emulation's to say.
constexpr const char* gpu_limits =
    "measured by Nsight Compute's hardware counters over every launch of the call; they are "
    "the kernel's totals, so `cugrade check --perf` (emulation) names the source line of each "
    "cause";

// The profiled case on either backend: the problem's profile shape, its first distribution.
protocol::plan profile_plan(const spec::assignment_spec& spec, const std::string& launcher,
                            const std::filesystem::path& library,
                            const std::filesystem::path& dir) {
  const problems::problem& problem = problems::get(spec.problem);
  const problems::shape shape = problem.profile_shape();
  const graded_case profiled{0,
                             {"profile/" + problems::describe(spec.problem, shape), spec.problem,
                              shape, problem.distributions().front(), 1}};
  auto plan = make_plan(spec.problem, launcher, library, dir, {profiled}, 1);
  plan.profile = true;
  return plan;
}

insight::counter_readings readings_of(const perf::kernel_counters& c) {
  insight::counter_readings r;
  r.sums = c.sums();
  if (const perf::launch_counters* widest = c.widest()) {
    r.widest_launch = widest->values;
  }
  r.launches = c.launches.size();
  return r;
}

} // namespace

std::optional<std::string> add_measured_insight(const counters_request& request,
                                                reports::kernel_report& k,
                                                std::vector<insight::kernel_time>& profiled) {
  const problems::problem& problem = problems::get(request.spec.problem);
  const problems::shape shape = problem.profile_shape();
  auto measured = perf::measure_counters(
      profile_plan(request.spec, k.name, request.library, request.work_dir / k.name / "counters"),
      request.setup);
  if (!measured) {
    return "Nsight Compute could not start: " + measured.error();
  }
  if (measured->restricted || measured->tool_failed) {
    return measured->problem;
  }
  reports::kernel_profile profile{reports::backend_kind::gpu,
                                  request.tool,
                                  problems::describe(request.spec.problem, shape),
                                  {},
                                  "",
                                  perf::counter_metric_names()};
  if (!measured->counters) {
    profile.note = measured->problem + "; no insight";
    k.profile = std::move(profile);
    return std::nullopt;
  }
  const insight::counter_readings readings = readings_of(*measured->counters);
  const insight::memory_profile m =
      insight::profile_from_counters(problem, shape, k.name, readings);
  profile.metrics = insight::metrics_of(m);
  const auto only_here = insight::measured_only_metrics(problem, shape, readings);
  profile.metrics.insert(profile.metrics.end(), only_here.begin(), only_here.end());
  for (const reports::insight_metric& metric : only_here) {
    if (metric.name == "kernel_microseconds") {
      profiled.push_back({k.name, reports::backend_kind::gpu, profile.shape, metric.value});
    }
  }
  profile.note = gpu_limits;
  k.insights = insight::insights_of(m, {request.spec.source_file, {}});
  k.profile = std::move(profile);
  return std::nullopt;
}

void add_emulated_insight(const insight_request& request, const plan_runner& run,
                          reports::kernel_report& k, std::vector<insight::kernel_time>& profiled) {
  const problems::problem& problem = problems::get(request.spec.problem);
  const problems::shape shape = problem.profile_shape();
  reports::kernel_profile profile{reports::backend_kind::emu,
                                  emulator_tool,
                                  problems::describe(request.spec.problem, shape),
                                  {},
                                  "",
                                  {}};
  auto plan =
      profile_plan(request.spec, k.name, request.library, request.work_dir / k.name / "profile");
  plan.time_limit_seconds = request.spec.lim.kernel_seconds;
  const auto ran = run(plan, request.spec.lim.kernel_seconds);
  const bool profiled_ok = ran && ran->log.finished && ran->log.tampering.empty() &&
                           ran->log.profiles.size() == 1 && !ran->log.runs.empty() &&
                           !ran->log.runs.front().error_kind;
  if (!profiled_ok) {
    profile.note = ran ? std::string(ran->exit.timed_out
                                         ? "the profiled run took longer than the kernel's limit"
                                         : "the profiled run did not finish cleanly") +
                             "; no insight"
                       : "the profiled run could not start: " + ran.error();
    k.profile = std::move(profile);
    return;
  }
  const insight::memory_profile m =
      insight::summarise(problem, shape, k.name, ran->log.profiles.front().launches);
  profile.metrics = insight::metrics_of(m);
  profile.note = emulation_limits;
  if (m.left_out > 0) {
    profile.note +=
        fmt::format("; {} accesses past the profiler's bound were not counted", m.left_out);
  }
  k.insights = insight::insights_of(m, {request.spec.source_file, lines_of(request.source_text)});
  profiled.push_back(
      {k.name, reports::backend_kind::emu, profile.shape, insight::modelled_cost(m)});
  k.profile = std::move(profile);
}

} // namespace cugrade::grader
