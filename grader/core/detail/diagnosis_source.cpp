// Hints from the submission's source text, for mistakes no backend sees at run time: a return
// before a barrier (early_exits.h), a last warp's steps with no volatile or __syncwarp
// (warp_steps.h). A barrier waits only for threads that have not exited, so a
// GPU and the emulator let the remaining threads pass it, and compute-sanitizer's synccheck
// reports nothing; only wrong values show. Both backends read the same source, so both name the
// same cause at the same line.
#include "grader/core/detail/diagnosis_evidence.h"

#include <fmt/format.h>

namespace cugrade::grader::detail {

namespace {

using reports::hint_code;

bool stopped_at_a_barrier(const evidence& ev, std::size_t i) {
  const auto& k = ev.outcome(i).error_kind;
  return k && is_barrier_fault(*k);
}

std::string steps_words(const warp_step_run& w) {
  return fmt::format("`{}` and {} more step{}", w.first_step, w.count - 1, w.count == 2 ? "" : "s");
}

} // namespace

std::optional<candidate> early_exit_cause(const evidence& ev) {
  if (ev.early_exits().empty()) {
    return std::nullopt;
  }
  // What a return before a barrier produces: wrong values, or a stop at a barrier where the
  // kernel also has barriers some threads skip. A memory fault or a timeout is some other
  // mistake's. Threads return where the grid overhangs the data, on sizes off the block (a
  // multiple of 16): a case that fails on a multiple of 16 has some other mistake, which a rule
  // that explains it should name first.
  const auto explained = [&](std::size_t i) {
    return (ev.failed_without_fault(i) || stopped_at_a_barrier(ev, i)) &&
           !all_multiples_of(ev.problem(), ev.dims(i), 16);
  };
  const std::size_t failures = ev.count(explained);
  if (failures == 0) {
    return std::nullopt;
  }
  const early_exit& e = ev.early_exits().front();
  const std::string barrier = ev.at_line(e.barrier_line);
  candidate c{hint_code::barrier_divergence,
              specificity::cause,
              fmt::format("threads return at {} (`if ({}) return;`) before the __syncthreads() "
                          "at {}: the threads that return never do their part of the block's "
                          "shared-memory work, and the others pass the barrier without them "
                          "(it waits only for threads that have not exited) and read what was "
                          "never written: {}",
                          ev.at_line(e.return_line), e.condition, barrier,
                          problems::get(ev.problem()).advice(problems::advice_topic::barrier)),
              barrier,
              {},
              {}};
  c.support.push_back(fmt::format("the source returns under `{}` at {}, before the "
                                  "__syncthreads() at {} ({}); {} failing case(s) wrong or "
                                  "stopped at a barrier",
                                  e.condition, ev.at_line(e.return_line), barrier, e.kernel,
                                  failures));
  c.failures_explained = failures;
  return c;
}

std::optional<candidate> warp_steps_cause(const evidence& ev) {
  if (ev.unsynced_warp_steps().empty()) {
    return std::nullopt;
  }
  // Lanes that read old values give wrong sums (a GPU), or sums that change with the order the
  // lanes run in (the emulator): failed cases, not faults.
  const std::size_t failures = ev.count([&](std::size_t i) { return ev.failed_without_fault(i); });
  if (failures == 0) {
    return std::nullopt;
  }
  const warp_step_run& w = ev.unsynced_warp_steps().front();
  const std::string where = fmt::format("{}-{}", ev.at_line(w.first_line), w.last_line);
  candidate c{hint_code::race,
              specificity::cause,
              fmt::format("the steps at {} ({}) read what other lanes of the warp wrote in the "
                          "step before, with no __syncwarp() between the steps and {} not "
                          "declared volatile: the lanes of a warp do not run in step (Volta and "
                          "later), and the compiler may keep {}'s elements in registers, so a "
                          "lane adds an old value. Put __syncwarp() after each step, or declare {} "
                          "volatile (or sum with __shfl_down_sync, which needs no shared memory)",
                          where, steps_words(w), w.array, w.array, w.array),
              ev.at_line(w.first_line),
              {},
              {}};
  c.support.push_back(fmt::format("{} in {} has {} step(s) on {} with no synchronisation "
                                  "between; {} case(s) failed without a fault",
                                  where, w.function, w.count, w.array, failures));
  c.failures_explained = failures;
  return c;
}

} // namespace cugrade::grader::detail
