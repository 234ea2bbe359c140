#pragma once
/// \file
/// Timing a student's launcher against the reference's of the same name on the same device, in
/// alternating rounds A B B A (docs/timing.md, "Speedup"): each round is one runner process timing
/// every benchmark case with the full adaptive protocol, and mirroring the second pair cancels a
/// linear drift of the clock or temperature between rounds.

#include "grader/perf/launcher_timing.h"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade::perf {

struct comparison_setup {
  problems::kind problem; ///< no default (problems::kind): set by whoever makes one
  std::filesystem::path runner;
  runners::run_context context;   ///< the GPU its grading is pinned to
  std::filesystem::path work_dir; ///< each round gets a folder under it
  std::vector<problems::test_case> cases;
  protocol::timing_request request;
  check_policy policy;
  int rounds = 2; ///< of each side
  std::function<void(std::string_view)> progress;
};

/// One side of a comparison: a library and what to call it in messages and folders.
struct timed_side {
  std::filesystem::path library;
  std::string label; ///< "student" or "reference"
};

struct comparison_result {
  std::vector<launcher_run> a_runs;
  std::vector<launcher_run> b_runs;
  /// A's runs all verified (a failed A run ends the comparison early).
  [[nodiscard]] bool a_verified() const;
  [[nodiscard]] bool b_verified() const;
};

/// The order of rounds: true for A. Round pairs alternate A B, B A, A B, ...
[[nodiscard]] std::vector<bool> round_order(int rounds);

/// Runs the rounds. Fails only when a runner cannot be started.
[[nodiscard]] result<comparison_result> compare_launchers(const comparison_setup& setup,
                                                          const std::string& launcher,
                                                          const timed_side& a, const timed_side& b);

} // namespace cugrade::perf
