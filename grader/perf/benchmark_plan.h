#pragma once
/// \file
/// The benchmark cases of an assignment with their seeds, and the timing plans that ask a runner
/// to time one launcher on them (docs/timing.md).

#include "grader/spec/assignment_spec.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::perf {

/// The timing request of docs/timing.md: warm-up >= 3 calls and 200 ms, >= 10 samples and 0.5 s
/// of device time, stop at 0.5% RSD or 0.1% standard error, caps 15 s and 1000 samples, samples
/// below 90% of the case's highest clock dropped, 4 input sets.
[[nodiscard]] protocol::timing_request default_timing_request();
/// The control measurement's protocol: the same, with fewer samples (docs/timing.md).
[[nodiscard]] protocol::timing_request default_control_request();

/// The spec's benchmark cases, named "<shape>/<distribution>" with seeds drawn from the spec's
/// seed (the same in every grading, so reference and student time the same inputs).
[[nodiscard]] std::vector<problems::test_case> benchmark_cases(const spec::assignment_spec& spec);

/// A plan timing `launcher` of `library` on `cases`.
[[nodiscard]] protocol::plan timing_plan(problems::kind problem, const std::string& launcher,
                                         const std::filesystem::path& library,
                                         const std::filesystem::path& output_dir,
                                         const std::vector<problems::test_case>& cases,
                                         const protocol::timing_request& request);

/// A wall-clock limit for a runner timing `cases` cases: the sampling cap of each, plus warm-up,
/// input generation and transfers.
[[nodiscard]] double timing_time_limit(const protocol::timing_request& request, std::size_t cases);

} // namespace cugrade::perf
