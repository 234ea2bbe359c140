#include "grader/cli/commands.h"

#include "reports/report.h"

#include <iostream>
#include <limits>

namespace cugrade::cli {

namespace {

struct check_args {
  std::string assignment;
  std::string directory = ".";
  std::string backend = "auto";
  double kernel_timeout = 0;
  std::vector<std::string> kernels;
  bool all = false;
  bool perf = false;
};

} // namespace

command check_command() {
  return {"check",
          "Check your own kernels before you submit: correctness only, a readable "
          "summary, exit code 1 when anything fails (works without a GPU)",
          [](CLI::App& sub) -> std::function<int()> {
            auto a = std::make_shared<check_args>();
            sub.add_option("assignment", a->assignment, assignment_argument_help())->required();
            sub.add_option("dir", a->directory, "The folder holding your .cu file")
                ->capture_default_str();
            sub.add_option("--backend", a->backend, "auto, gpu or emu")
                ->check(CLI::IsMember({"auto", "gpu", "emu"}))
                ->capture_default_str();
            sub.add_option("--kernel-timeout", a->kernel_timeout,
                           "Seconds each kernel may take (default: the spec's limit)");
            sub.add_option("--kernel", a->kernels,
                           "Check only this launcher, e.g. matmul_tiled (repeatable)");
            sub.add_flag("--all", a->all,
                         "List every failing test with its inputs (default: the first 3 per "
                         "kernel)");
            sub.add_flag("--perf", a->perf,
                         "Also say why each timed kernel that passes is slow: its memory "
                         "requests counted in emulation (coalescing, bank conflicts, atomics, "
                         "idle lanes, occupancy) at the lines that cost time (docs/insight.md)");
            add_no_sandbox_flag(sub);
            return [a, &sub] {
              grader::grade_options o;
              o.assignment = a->assignment;
              o.submission = a->directory;
              o.backend = a->backend;
              o.write_files = false;
              // Students' own runs: never the instructor's hidden groups, and no reference
              // solution needed (a student's installation has none).
              o.spec_loading.hidden = spec::hidden_tests::none;
              o.spec_loading.require_reference = false;
              o.kernels = a->kernels;
              o.insight = a->perf;
              if (a->perf && a->backend == "auto") {
                o.backend = "emu"; // the warp profiler is the emulator's (docs/insight.md)
              }
              if (sub.count("--kernel-timeout") > 0) {
                o.kernel_timeout_seconds = a->kernel_timeout;
              }
              o.progress = progress_on_stderr();
              const auto printed = grade_and_print(o, "could not check",
                                                   a->all ? std::numeric_limits<std::size_t>::max()
                                                          : reports::default_listed_failures);
              if (printed.exit_code != exit_ok) {
                return printed.exit_code;
              }
              for (const auto& k : printed.outcome->report->kernels) {
                if (k.status != reports::kernel_status::passed) {
                  return exit_failed_checks;
                }
              }
              return exit_ok;
            };
          }};
}

} // namespace cugrade::cli
