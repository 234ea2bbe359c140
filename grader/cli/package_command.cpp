#include "grader/cli/commands.h"

#include "grader/package/gradescope_package.h"

#include <iostream>

namespace cugrade::cli {

namespace {

struct package_args {
  std::string platform;
  package::gradescope_request request;
};

int run_package(package_args& a) {
  const auto layout = grader::discover_layout();
  if (!layout) {
    std::cerr << "cugrade: " << layout.error() << "\n";
    return exit_infrastructure;
  }
  a.request.project_root = layout->root;
  const auto packed = package::package_gradescope(a.request);
  if (!packed) {
    std::cerr << "cugrade package: " << packed.error() << "\n";
    return packed.why().kind == failure_kind::usage ? exit_usage : exit_infrastructure;
  }
  std::cout << "wrote " << packed->zip.string() << ": the Gradescope autograder for "
            << packed->assignment << " (grades in emulation: Gradescope has no GPU), with "
            << packed->hidden_groups << " hidden group(s)"
            << (packed->hidden_file ? " from the instructor's hidden file" : "")
            << ". Upload it as the assignment's autograder on the Ubuntu 24.04 base image; keep "
               "it private, it holds the reference solutions and the hidden tests.\n";
  return exit_ok;
}

} // namespace

command package_command() {
  return {"package",
          "Build an autograder for a course platform: `package gradescope ASSIGNMENT --out "
          "autograder.zip` (hidden groups and reference solutions included; keep it private)",
          [](CLI::App& sub) -> std::function<int()> {
            auto a = std::make_shared<package_args>();
            sub.add_option("platform", a->platform, "The course platform: gradescope")
                ->required()
                ->check(CLI::IsMember({"gradescope"}));
            sub.add_option("assignment", a->request.assignment,
                           "An assignment name under assignments/ or a path to an assignment.json")
                ->required();
            sub.add_option("--out", a->request.out, "The zip to write, e.g. autograder.zip")
                ->required();
            add_hidden_option(sub, a->request.spec_loading);
            return [a] { return run_package(*a); };
          }};
}

} // namespace cugrade::cli
