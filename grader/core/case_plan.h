#pragma once
/// \file
/// Which cases a kernel is graded on: every test group of the assignment spec, expanded into
/// concrete seeded cases, and the runner plan that asks for them.

#include "grader/spec/assignment_spec.h"
#include "harness/problems/problem.h"
#include "harness/protocol/protocol.h"
#include "reports/report.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cugrade::grader {

/// One correctness case and the rubric group it counts towards.
struct graded_case {
  std::size_t group_index = 0;
  problems::test_case tc; ///< tc.name is "<group>/<shape>/<distribution>"
};

/// The spec a backend grades, and what the report says about what it leaves out.
struct graded_scope {
  spec::assignment_spec spec;
  std::vector<std::string> notes; ///< one per group left out, for the report's notes
};

/// On a GPU, `spec` as it is. In emulation, `spec` without its gpu_only groups, each kernel's
/// points cut to the share of the groups that remain, so every remaining group is worth what it
/// is worth on a GPU and the maximum holds only what emulation can award; a note per group left
/// out says where its points are earned (docs/assignments.md, "Shapes emulation cannot finish").
[[nodiscard]] graded_scope scope_for_backend(const spec::assignment_spec& spec,
                                             reports::backend_kind backend);

/// Every case of every group, in spec order. Seeds depend on the spec's seed, the group and the
/// case name only, so reordering or adding groups never changes another case's inputs.
[[nodiscard]] std::vector<graded_case> plan_cases(const spec::assignment_spec& spec);

/// The runner plan for one launcher over `cases`.
[[nodiscard]] protocol::plan make_plan(problems::kind problem, const std::string& launcher,
                                       const std::filesystem::path& library,
                                       const std::filesystem::path& output_dir,
                                       const std::vector<graded_case>& cases, int runs);

} // namespace cugrade::grader
