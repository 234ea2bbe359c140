// Hints from the submission's source text, for mistakes a backend may not see at run time: a
// return before a barrier (early_exits.h). A GPU lets the remaining threads pass the barrier and
// compute-sanitizer's synccheck reports nothing; the emulator stops at the barrier. Both see the
// same source, so both name the same cause at the same line.
#include "grader/core/detail/diagnosis_evidence.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::fault_kind;
using reports::hint_code;

bool stopped_at_a_barrier(const evidence& ev, std::size_t i) {
  const auto& k = ev.outcome(i).error_kind;
  return k && (*k == fault_kind::barrier_divergence || *k == fault_kind::deadlock ||
               *k == fault_kind::synchronization_error);
}

std::string at_line(const evidence& ev, int line) {
  return fmt::format("{}:{}", ev.source_file(), line);
}

} // namespace

std::optional<candidate> early_exit_cause(const evidence& ev) {
  if (ev.early_exits().empty()) {
    return std::nullopt;
  }
  // What a return before a barrier produces: wrong values (a GPU), or a stop at the barrier (the
  // emulator). A memory fault or a timeout is some other mistake's.
  const auto explained = [&](std::size_t i) {
    return ev.failed_without_fault(i) || stopped_at_a_barrier(ev, i);
  };
  const std::size_t failures = ev.count(explained);
  if (failures == 0) {
    return std::nullopt;
  }
  const early_exit& e = ev.early_exits().front();
  const std::string barrier = at_line(ev, e.barrier_line);
  candidate c{hint_code::barrier_divergence,
              specificity::cause,
              fmt::format("threads return at {} (`if ({}) return;`) before the __syncthreads() "
                          "at {}: the threads that return never do their part of the block's "
                          "shared-memory work, and the others go on without it, reading what "
                          "was never written (a GPU lets them pass the barrier, the emulator "
                          "stops there): {}",
                          at_line(ev, e.return_line), e.condition, barrier,
                          problems::get(ev.problem()).advice(problems::advice_topic::barrier)),
              barrier,
              {},
              {}};
  c.support.push_back(fmt::format("the source returns under `{}` at {}, before the "
                                  "__syncthreads() at {} ({}); {} failing case(s) wrong or "
                                  "stopped at a barrier",
                                  e.condition, at_line(ev, e.return_line), barrier, e.kernel,
                                  failures));
  c.failures_explained = failures;
  return c;
}

} // namespace cugrade::grader::detail
