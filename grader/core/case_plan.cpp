#include "grader/core/case_plan.h"

namespace cugrade::grader {

namespace {

// FNV-1a: a stable hash of the group name, mixed into the spec's seed.
std::uint64_t name_hash(const std::string& name) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : name) {
    h = (h ^ c) * 1099511628211ull;
  }
  return h;
}

} // namespace

std::vector<graded_case> plan_cases(const spec::assignment_spec& spec) {
  std::vector<graded_case> out;
  for (std::size_t g = 0; g < spec.groups.size(); ++g) {
    const auto& group = spec.groups[g];
    const auto cases =
        problems::make_cases(spec.problem, group.cases, spec.seed ^ name_hash(group.name));
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
