#include "grader/batch/summary.h"

#include "grader/batch/report_files.h"

#include <algorithm>

namespace cugrade::batch {

namespace {

using nlohmann::ordered_json;

ordered_json per_hour(const run_measures& m) {
  return m.wall_seconds > 0 ? ordered_json(static_cast<double>(m.graded) * 3600.0 / m.wall_seconds)
                            : ordered_json(nullptr);
}

ordered_json stages(const run_measures& m) {
  const auto mean = [&](double total) {
    return m.graded > 0 ? ordered_json(total / static_cast<double>(m.graded))
                        : ordered_json(nullptr);
  };
  return {{"fetch", {{"seconds", m.fetch_seconds}, {"mean_seconds", mean(m.fetch_seconds)}}},
          {"build", {{"seconds", m.build_seconds}, {"mean_seconds", mean(m.build_seconds)}}},
          {"run", {{"seconds", m.run_seconds}, {"mean_seconds", mean(m.run_seconds)}}}};
}

} // namespace

std::string_view to_string(outcome o) {
  switch (o) {
  case outcome::full_marks:
    return "full_marks";
  case outcome::partial:
    return "partial";
  case outcome::not_gradable:
    return "not_gradable";
  }
  return "not_gradable";
}

outcome outcome_of(const reports::report& r) {
  if (!r.gradable) {
    return outcome::not_gradable;
  }
  const bool all_passed = std::all_of(r.kernels.begin(), r.kernels.end(), [](const auto& k) {
    return k.status == reports::kernel_status::passed;
  });
  return all_passed && !r.kernels.empty() ? outcome::full_marks : outcome::partial;
}

ordered_json summary_json(const roster& r, const std::map<std::string, journal_entry>& e,
                          const run_measures& m) {
  std::map<std::string, std::size_t> outcomes{
      {"full_marks", 0}, {"partial", 0}, {"not_gradable", 0}, {"not_graded", 0}};
  std::map<std::string, std::map<std::string, std::size_t>> kernel_statuses;
  for (const auto& student : r.entries) {
    const auto it = e.find(student.student);
    const auto report = it == e.end() || it->second.state != student_state::written
                            ? std::nullopt
                            : std::optional(journaled_report(it->second.report_json));
    if (!report || !*report) {
      ++outcomes["not_graded"];
      continue;
    }
    ++outcomes[std::string(to_string(outcome_of(**report)))];
    for (const auto& k : (*report)->kernels) {
      ++kernel_statuses[k.name][std::string(reports::to_string(k.status))];
    }
  }
  ordered_json kernels = ordered_json::object();
  for (const auto& [name, counts] : kernel_statuses) {
    std::size_t total = 0;
    for (const auto& [status, n] : counts) {
      total += n;
    }
    const auto passed = counts.contains("passed") ? counts.at("passed") : 0;
    kernels[name] = {{"statuses", counts},
                     {"pass_rate", static_cast<double>(passed) / static_cast<double>(total)}};
  }
  return {{"students", r.entries.size()},
          {"outcomes", outcomes},
          {"kernels", kernels},
          {"run",
           {{"backend", m.backend},
            {"jobs", m.jobs},
            {"gpus", m.gpus},
            {"graded", m.graded},
            {"wall_seconds", m.wall_seconds},
            {"submissions_per_hour", per_hour(m)},
            {"gpu_busy_fraction",
             m.gpus.empty() ? ordered_json(nullptr) : ordered_json(m.gpu_busy_fraction)},
            {"stages", stages(m)}}}};
}

} // namespace cugrade::batch
