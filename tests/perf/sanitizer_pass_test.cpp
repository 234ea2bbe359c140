// When a sanitizer pass over every kernel may stand for each kernel's own check
// (pass_found_nothing): only a run that checked everything and found nothing.

#include "grader/perf/sanitizer_check.h"

#include <gtest/gtest.h>

namespace cugrade::perf {
namespace {

// A pass that ran `n` runs to their end.
runners::runner_outcome whole_pass(std::size_t n) {
  runners::runner_outcome run;
  run.log.started = true;
  run.log.finished = true;
  run.exit_code = 0;
  for (std::size_t i = 0; i < n; ++i) {
    protocol::run_record r;
    r.case_index = i;
    r.completed = true;
    run.log.runs.push_back(r);
  }
  return run;
}

const result<std::vector<sanitizer_finding>> nothing_found = std::vector<sanitizer_finding>{};

TEST(SanitizerPass, ARunOfEveryCaseThatFoundNothingIsClean) {
  EXPECT_TRUE(pass_found_nothing(whole_pass(6), 6, nothing_found));
}

TEST(SanitizerPass, AFindingMeansKernelByKernel) {
  sanitizer_finding f;
  f.tool = "memcheck";
  f.error_kind = "out_of_bounds";
  EXPECT_FALSE(pass_found_nothing(whole_pass(6), 6, std::vector<sanitizer_finding>{f}));
}

TEST(SanitizerPass, AnUnreadableReportIsNotClean) {
  EXPECT_FALSE(pass_found_nothing(whole_pass(6), 6, fail("not XML")));
}

TEST(SanitizerPass, ARunThatStoppedShortIsNotClean) {
  // Fewer runs than the launchers' cases (a sticky fault ended it before the last launcher).
  EXPECT_FALSE(pass_found_nothing(whole_pass(4), 6, nothing_found));
  auto faulted = whole_pass(6);
  faulted.log.runs[2].error_kind = reports::fault_kind::illegal_address;
  EXPECT_FALSE(pass_found_nothing(faulted, 6, nothing_found));
  auto open = whole_pass(6);
  open.log.runs[5].completed = false;
  EXPECT_FALSE(pass_found_nothing(open, 6, nothing_found));
  auto missing = whole_pass(6);
  missing.log.missing_launcher = "matmul_tiled";
  EXPECT_FALSE(pass_found_nothing(missing, 6, nothing_found));
}

TEST(SanitizerPass, ARunThatEndedBadlyIsNotClean) {
  auto killed = whole_pass(6);
  killed.term_signal = 9;
  EXPECT_FALSE(pass_found_nothing(killed, 6, nothing_found));
  auto late = whole_pass(6);
  late.timed_out = true;
  EXPECT_FALSE(pass_found_nothing(late, 6, nothing_found));
  auto unfinished = whole_pass(6);
  unfinished.log.finished = false;
  EXPECT_FALSE(pass_found_nothing(unfinished, 6, nothing_found));
  auto tampered = whole_pass(6);
  tampered.log.tampering = "a line after done";
  EXPECT_FALSE(pass_found_nothing(tampered, 6, nothing_found));
  auto failed = whole_pass(6);
  failed.exit_code = 1;
  EXPECT_FALSE(pass_found_nothing(failed, 6, nothing_found));
}

} // namespace
} // namespace cugrade::perf
