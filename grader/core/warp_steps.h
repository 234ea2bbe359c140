#pragma once
/// \file
/// The unrolled last warp of a tree reduction, written without `volatile` or `__syncwarp()`,
/// found in the submission's source text:
///
///     if (tid < 32) { sdata[tid] += sdata[tid + 32]; sdata[tid] += sdata[tid + 16]; ... }
///
/// Each step reads what another lane of the warp wrote in the step before. Since Volta the lanes
/// of a warp are not guaranteed to run in step, and without `volatile` the compiler keeps
/// `sdata[tid]` in a register between the steps, so a lane adds another's old value: a GPU sums
/// wrongly (racecheck rates hazards between lanes of one warp a WARNING, which grading does not
/// count), and the emulator, which runs the lanes one after another, gets sums that change with
/// the schedule. Both backends read the same source, so diagnosis names this one cause, at the
/// same line, on both.
///
/// A step is `A[i] += A[j];` or `A[i] = A[i] + A[j];` with different indices, where A is a
/// `__shared__` array or a pointer parameter of the function (a `warpReduce(float* sdata, int
/// tid)` helper), no declaration of A says `volatile`, and i names a variable (`s[1] += s[0]` is
/// one thread's serial work). Two or more steps on A with no barrier, `__syncwarp()` or
/// cooperative-groups `sync` between them are a finding. One step in a loop with no barrier is
/// not: it is as often a tree missing its `__syncthreads()` (which racecheck and the emulator
/// report as a race) or one thread's serial scan. A reader of text, not a compiler
/// (source_code.h).

#include "grader/core/source_tokens.h"

#include <string>
#include <string_view>
#include <vector>

namespace cugrade::grader {

/// One run of unsynchronised warp steps.
struct warp_step_run {
  std::string function;   ///< the function the steps are in
  std::string array;      ///< the array or pointer they go through
  int first_line = 0;     ///< the line of the first step
  int last_line = 0;      ///< the line of the last step
  int count = 0;          ///< the steps in the run (at least 2)
  std::string first_step; ///< the first step as written, spaces squeezed
};

/// Every run in `source`, in source order, at most one per function and array.
[[nodiscard]] std::vector<warp_step_run> unsynced_warp_steps(std::string_view source);

/// Those in the functions that `launcher`'s kernels (`kernel<<<...>>>` inside its body) are or
/// call, directly or not; every function's when the launcher's body or launches cannot be found.
[[nodiscard]] std::vector<warp_step_run> unsynced_warp_steps_of_launcher(std::string_view source,
                                                                      std::string_view launcher);

/// The same, from the launcher's code already read as tokens (source_facts.h reads it once for
/// every reader of statements).
[[nodiscard]] std::vector<warp_step_run>
unsynced_warp_steps_of(const source_tokens::launcher_tokens& read);

} // namespace cugrade::grader
