#pragma once
/// \file
/// Spec sanity: how long a spec's cases take in the CPU emulator, estimated before anything runs,
/// so that a shape that cannot finish within the kernel limit is a warning at load time instead
/// of a correct kernel's timeout (docs/assignments.md, "Shapes emulation cannot finish").
///
/// A case's estimate is its problem kind's work count (`problem::work`) in the kind's units,
/// divided by the kind's emulation pace (`problem::emulated_pace`: one emulator worker, below the
/// pace measured with the reference kernels), times `runs_per_case`. Groups marked `gpu_only` are
/// never emulated and never estimated.

#include "grader/spec/assignment_spec.h"

#include <string>
#include <vector>

namespace cugrade::spec {

/// The estimated seconds of one run of a case of `shape` in emulation.
[[nodiscard]] double emulated_seconds_per_run(problems::kind problem, const problems::shape& shape);

/// The warnings about `spec`, one per shape of an emulated group whose cases (each distribution,
/// each run) take longer than `limits.kernel_seconds` on their own, or, when no shape does, one
/// when all emulated cases together do (each kernel runs them all within its limit). Each names
/// the group and the shape, the work, the estimated time and the fix.
[[nodiscard]] std::vector<std::string> emulation_cost_warnings(const assignment_spec& spec);

} // namespace cugrade::spec
