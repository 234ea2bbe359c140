#include "grader/core/case_plan.h"

#include "harness/problems/rng.h"

#include <fmt/format.h>

namespace cugrade::grader {

namespace {

std::string left_out_note(const spec::assignment_spec& spec, const spec::test_group& group) {
  double points = 0;
  for (const auto& k : spec.kernels) {
    points += k.points * group.weight / spec.total_weight();
  }
  return fmt::format("group \"{}\" is graded on a GPU only (gpu_only): it did not run in "
                     "emulation, and its {:.4g} point{} are earned when graded on a GPU, so they "
                     "are not in this grading's maximum",
                     group.name, points, points == 1 ? "" : "s");
}

} // namespace

graded_scope scope_for_backend(const spec::assignment_spec& spec, reports::backend_kind backend) {
  graded_scope scope{spec, {}};
  if (backend != reports::backend_kind::emu) {
    return scope;
  }
  auto& groups = scope.spec.groups;
  for (const auto& g : groups) {
    if (g.gpu_only) {
      scope.notes.push_back(left_out_note(spec, g));
    }
  }
  if (scope.notes.empty()) {
    return scope;
  }
  std::erase_if(groups, [](const spec::test_group& g) { return g.gpu_only; });
  const double share = scope.spec.total_weight() / spec.total_weight();
  for (auto& k : scope.spec.kernels) {
    k.points *= share;
  }
  return scope;
}

std::vector<graded_case> plan_cases(const spec::assignment_spec& spec) {
  std::vector<graded_case> out;
  for (std::size_t g = 0; g < spec.groups.size(); ++g) {
    const auto& group = spec.groups[g];
    const auto cases =
        problems::make_cases(spec.problem, group.cases, spec.seed ^ problems::fnv1a64(group.name));
    for (auto tc : cases) {
      tc.name = group.name + "/" + tc.name;
      out.push_back({g, std::move(tc)});
    }
  }
  return out;
}

protocol::plan make_plan(problems::kind problem, const std::string& launcher,
                         const std::filesystem::path& library,
                         const std::filesystem::path& output_dir,
                         const std::vector<graded_case>& cases, int runs) {
  protocol::plan p;
  p.problem = problem;
  p.launcher = launcher;
  p.library = library;
  p.output_dir = output_dir;
  p.runs = runs;
  // The runner (and the student code beside it) learns what it needs to make each input, never
  // the case names, which say which tests are hidden (docs/sandbox.md).
  for (const auto& c : cases) {
    p.cases.push_back(
        {"case-" + std::to_string(p.cases.size()), c.tc.dims, c.tc.distribution, c.tc.seed});
  }
  return p;
}

} // namespace cugrade::grader
