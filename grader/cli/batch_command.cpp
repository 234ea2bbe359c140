#include "grader/cli/commands.h"

#include "grader/batch/batch.h"
#include "grader/fetch/fetch.h"
#include "reports/writers.h"

#include <iostream>
#include <thread>
#include <unistd.h>

namespace cugrade::cli {

namespace {

struct batch_args {
  batch::batch_options options;
  std::string assignment;
  std::string roster_file;
  std::string repository_template;
  std::string formats = "json";
  std::string deadline;
  double kernel_timeout = 0;
};

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) {
        out.push_back(item);
      }
      item.clear();
    } else {
      item.push_back(c);
    }
  }
  return out;
}

// How to run this batch again (printed with each not-gradable student and on Ctrl-C).
std::string rerun_command(const batch_args& a) {
  std::string cmd = "cugrade batch " + a.assignment + " " + a.roster_file + " --out " +
                    a.options.out_dir.string();
  if (!a.repository_template.empty()) {
    cmd += " --repository-template '" + a.repository_template + "'";
  }
  if (a.options.spec_loading.hidden == spec::hidden_tests::from_file) {
    cmd += " --hidden '" + a.options.spec_loading.hidden_file.string() + "'";
  }
  if (a.options.backend != "auto") {
    cmd += " --backend " + a.options.backend;
  }
  return cmd;
}

int run_batch_command(batch_args& a, const CLI::App& sub) {
  a.options.formats = comma_list(a.formats);
  for (const auto& f : a.options.formats) {
    if (!reports::is_known_format(f)) {
      std::cerr << "cugrade batch: unknown --format \"" << f
                << "\" (choose from json, gradescope, junit, text)\n";
      return exit_usage;
    }
  }
  auto roster = batch::load_roster(a.roster_file, {a.repository_template});
  if (!roster) {
    std::cerr << roster.error() << "\ncugrade batch: the roster has problems; nothing was graded\n";
    return exit_usage;
  }
  a.options.roster = std::move(*roster);
  a.options.assignment = a.assignment;
  if (!a.deadline.empty()) {
    if (auto when = fetch::parse_deadline(a.deadline); !when) {
      std::cerr << "cugrade batch: --deadline: " << when.error() << "\n";
      return exit_usage;
    }
    a.options.deadline = a.deadline;
  }
  if (sub.count("--kernel-timeout") > 0) {
    a.options.kernel_timeout_seconds = a.kernel_timeout;
  }
  a.options.rerun_command = rerun_command(a);
  a.options.live_progress = ::isatty(STDERR_FILENO) != 0;
  const auto layout = grader::discover_layout();
  if (!layout) {
    std::cerr << "cugrade: " << layout.error() << "\n";
    return exit_infrastructure;
  }
  const auto r = batch::run_batch(a.options, *layout);
  if (!r.error.empty()) {
    std::cerr << "cugrade batch: " << r.error << "\n";
  }
  return r.exit_code;
}

void add_options(CLI::App& sub, batch_args& a) {
  sub.add_option("assignment", a.assignment,
                 "An assignment name under assignments/ or a path to an assignment.json")
      ->required();
  sub.add_option("roster", a.roster_file,
                 "CSV with a header: student,repository[,commit][,deadline][,nickname]; or a "
                 "GitHub Classroom roster export with --repository-template")
      ->required();
  sub.add_option("--out", a.options.out_dir,
                 "Folder for reports/, gradebook.csv, summary.json and the journal; the same "
                 "command again resumes there")
      ->required();
  sub.add_option("--repository-template", a.repository_template,
                 "Repository of each row, with {column} replaced by that column, e.g. "
                 "'https://github.com/org/matmul-{github_username}'");
  sub.add_option("--backend", a.options.backend,
                 "auto (the GPUs when usable, else emulation), gpu or emu")
      ->check(CLI::IsMember({"auto", "gpu", "emu"}))
      ->capture_default_str();
  sub.add_option("--jobs", a.options.jobs,
                 "Gradings fetching and building at once (in emulation: running at once); "
                 "default: every core");
  sub.add_option("--deadline", a.deadline,
                 "ISO-8601 deadline for students without their own (default: the spec's)");
  sub.add_option("--format", a.formats,
                 "Comma-separated report formats besides json: gradescope, junit, text")
      ->capture_default_str();
  sub.add_option("--regrade", a.options.regrade,
                 "Grade again: all, failed (not full marks), not-gradable, new-commits (the "
                 "repository offers a newer commit before the deadline) or student ids; "
                 "repeatable")
      ->expected(1, -1);
  sub.add_option("--kernel-timeout", a.kernel_timeout,
                 "Seconds each kernel's runner may take (default: the spec's limit)");
  sub.add_option("--kernel", a.options.kernels, "Grade only this launcher (repeatable)");
  sub.add_option("--gpus", a.options.gpus,
                 "GPUs to use (CUDA_VISIBLE_DEVICES values, repeatable; default: every visible "
                 "GPU)")
      ->delimiter(',');
  add_hidden_option(sub, a.options.spec_loading);
  sub.add_option("--per-gpu", a.options.per_gpu, "Gradings running at once on one GPU")
      ->capture_default_str();
}

} // namespace

command batch_command() {
  return {"batch",
          "Grade a whole class from a roster on this machine and all its GPUs: resumable, "
          "with a gradebook",
          [](CLI::App& sub) -> std::function<int()> {
            auto a = std::make_shared<batch_args>();
            add_options(sub, *a);
            return [a, &sub] { return run_batch_command(*a, sub); };
          }};
}

} // namespace cugrade::cli
