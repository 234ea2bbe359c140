// cugrade: a CUDA-aware course autograder. See `cugrade --help`.

#include "cugrade_commit.h" // generated at build time (cmake/version_info.cmake)
#include "grader/cli/commands.h"
#include "grader/cli/typo.h"

#include <iostream>
#include <string>

namespace {

// What `cugrade --version` prints: enough to tell which build graded a report.
std::string version_text() {
  return std::string("cugrade ") + CUGRADE_VERSION + "\ncommit " + CUGRADE_GIT_COMMIT +
         "\nGPU backend: " +
         (CUGRADE_GPU_BACKEND_BUILT ? "built"
                                    : "not built (no nvcc at build time; CPU emulation only)");
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"cugrade: builds students' CUDA kernels, checks them against CPU references on "
               "awkward shapes, measures them and writes grade reports",
               "cugrade"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text());
  std::function<int()> run;
  for (const auto& cmd : cugrade::cli::command_table()) {
    CLI::App* sub = app.add_subcommand(cmd.name, cmd.summary);
    auto runner = cmd.define(*sub);
    sub->callback([&run, runner] { run = runner; });
  }
  if (auto typo = cugrade::cli::explain_typo(app, argc, argv)) {
    std::cerr << *typo << "\n";
    return cugrade::cli::exit_usage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return e.get_exit_code() == 0 ? code : cugrade::cli::exit_usage;
  }
  try {
    return run ? run() : cugrade::cli::exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "cugrade: internal error: " << cugrade::cli::shown(e.what()) << "\n";
    return cugrade::cli::exit_infrastructure;
  }
}
