#include "grader/cli/commands.h"

#include "grader/package/gradescope_package.h"
#include "grader/package/student_package.h"

#include <fmt/format.h>
#include <iostream>

namespace cugrade::cli {

namespace {

struct package_args {
  std::string platform;
  package::gradescope_request request;
};

int failed(const failure& why) {
  std::cerr << "cugrade package: " << why.message << "\n";
  return why.kind == failure_kind::usage ? exit_usage : exit_infrastructure;
}

int run_gradescope(const package_args& a) {
  if (a.request.assignment.empty()) {
    std::cerr << "cugrade package gradescope: name the assignment to pack, e.g. `cugrade package "
                 "gradescope matmul --out autograder.zip`\n";
    return exit_usage;
  }
  const auto packed = package::package_gradescope(a.request);
  if (!packed) {
    return failed(packed.why());
  }
  std::cout << "wrote " << packed->zip.string() << ": the Gradescope autograder for "
            << packed->assignment << " (grades in emulation: Gradescope has no GPU), with "
            << packed->hidden_groups << " hidden group(s)"
            << (packed->hidden_file ? " from the instructor's hidden file" : "")
            << ". Upload it as the assignment's autograder on the Ubuntu 24.04 base image; keep "
               "it private, it holds the reference solutions and the hidden tests.\n";
  return exit_ok;
}

int run_student(const package_args& a, bool hidden_given) {
  if (!a.request.assignment.empty() || hidden_given) {
    std::cerr << "cugrade package student: the students' tree holds every assignment and no "
                 "hidden groups; give only --out DIR\n";
    return exit_usage;
  }
  const auto packed = package::package_student({a.request.out, a.request.project_root});
  if (!packed) {
    return failed(packed.why());
  }
  std::cout << fmt::format(
      "wrote {}: cugrade's source tree for students: {}; the assignments {} (specs and "
      "starters).\nleft out: {}.\nPublish it as the course's cugrade repository, and attach the "
      "release .deb built there (./scripts/setup grade && cd build/grade && cpack -G DEB, on "
      "Debian 12) to a release of it: docs/gradescope.md, \"The student distribution\".\n",
      packed->dir.string(), fmt::join(packed->entries, ", "), fmt::join(packed->assignments, ", "),
      fmt::join(packed->left_out, ", "));
  return exit_ok;
}

int run_package(package_args& a, bool hidden_given) {
  const auto layout = grader::discover_layout();
  if (!layout) {
    std::cerr << "cugrade: " << layout.error() << "\n";
    return exit_infrastructure;
  }
  a.request.project_root = layout->root;
  return a.platform == "student" ? run_student(a, hidden_given) : run_gradescope(a);
}

} // namespace

command package_command() {
  return {"package",
          "Package cugrade: `package gradescope ASSIGNMENT --out autograder.zip` (the Gradescope "
          "autograder: hidden groups and reference solutions included; keep it private), or "
          "`package student --out DIR` (the source tree students get: no reference solution, no "
          "hidden file)",
          [](CLI::App& sub) -> std::function<int()> {
            auto a = std::make_shared<package_args>();
            sub.add_option("platform", a->platform,
                           "gradescope (the autograder zip) or student (the students' tree)")
                ->required()
                ->check(CLI::IsMember({"gradescope", "student"}));
            sub.add_option("assignment", a->request.assignment,
                           "For gradescope: an assignment name under assignments/ or a path to an "
                           "assignment.json");
            sub.add_option("--out", a->request.out,
                           "The zip to write (gradescope), or a new or empty folder (student)")
                ->required();
            add_hidden_option(sub, a->request.spec_loading);
            return [a, &sub] { return run_package(*a, sub.count("--hidden") > 0); };
          }};
}

} // namespace cugrade::cli
