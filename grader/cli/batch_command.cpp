#include "grader/cli/commands.h"

#include "grader/batch/batch.h"
#include "grader/fetch/fetch.h"
#include "grader/sandbox/sandbox.h"
#include "reports/writers.h"

#include <array>
#include <filesystem>
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
  std::string gradebook = "generic";
  std::string deadline;
  double kernel_timeout = 0;
  bool slurm = false;
  batch::slurm_options cluster;
  int time_limit_minutes = 0;
  std::string deliver_to;
};

// The --slurm options, as given (for the rerun command).
constexpr std::array<const char*, 8> slurm_only{
    "--partition", "--gpus-per-task", "--max-parallel", "--time-limit",
    "--account",   "--shard-size",    "--shared-cache", "--poll-seconds"};

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
std::string rerun_command(const batch_args& a, const CLI::App& sub) {
  std::string cmd = "cugrade batch " + a.assignment + " " + a.roster_file + " --out " +
                    a.options.out_dir.string();
  if (!a.repository_template.empty()) {
    cmd += " --repository-template '" + a.repository_template + "'";
  }
  const auto& g = a.options.grading;
  if (g.spec_loading.hidden == spec::hidden_tests::from_file) {
    cmd += " --hidden '" + g.spec_loading.hidden_file.string() + "'";
  }
  if (g.backend != "auto") {
    cmd += " --backend " + g.backend;
  }
  if (a.options.gradebook != batch::gradebook_format::generic) {
    cmd += " --gradebook " + a.gradebook;
  }
  if (!a.options.lms_assignment_name.empty()) {
    cmd += " --lms-assignment '" + a.options.lms_assignment_name + "'";
  }
  if (!a.options.lms_assignment_id.empty()) {
    cmd += " --lms-assignment-id '" + a.options.lms_assignment_id + "'";
  }
  if (a.slurm) {
    cmd += " --slurm";
    for (const char* name : slurm_only) {
      if (const auto* o = sub.get_option_no_throw(name); o != nullptr && o->count() > 0) {
        cmd += std::string(" ") + name + " " + o->as<std::string>();
      }
    }
    if (a.options.jobs > 0) {
      cmd += " --jobs " + std::to_string(a.options.jobs);
    }
  }
  return cmd;
}

// --slurm's options make sense only with it; --gpus is Slurm's choice there.
bool check_slurm_options(batch_args& a, const CLI::App& sub) {
  for (const char* name : slurm_only) {
    if (!a.slurm && sub.count(name) > 0) {
      std::cerr << "cugrade batch: " << name << " is an option of --slurm; add --slurm or leave "
                << name << " out\n";
      return false;
    }
  }
  if (a.slurm && sub.count("--gpus") > 0) {
    std::cerr << "cugrade batch: --gpus does not apply with --slurm (Slurm gives each task its "
                 "GPUs); use --gpus-per-task\n";
    return false;
  }
  if (a.slurm && !a.deliver_to.empty()) {
    std::cerr << "cugrade batch: --deliver-to is for the Slurm tasks themselves, not with "
                 "--slurm\n";
    return false;
  }
  if (a.slurm) {
    if (sub.count("--time-limit") > 0) {
      a.cluster.time_limit_minutes = a.time_limit_minutes;
    }
    a.options.slurm = a.cluster;
  }
  if (!a.deliver_to.empty()) {
    a.options.deliver_to = std::filesystem::absolute(a.deliver_to);
  }
  return true;
}

int run_batch_command(batch_args& a, const CLI::App& sub) {
  if (!check_slurm_options(a, sub)) {
    return exit_usage;
  }
  a.options.unconfined = sandbox::current_mode() == sandbox::mode::unconfined;
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
    std::cerr << shown(roster.error())
              << "\ncugrade batch: the roster has problems; nothing was graded\n";
    return exit_usage;
  }
  a.options.gradebook = *batch::gradebook_format_named(a.gradebook); // CLI::IsMember checked it
  if (auto lms = batch::check_lms_gradebook_inputs(
          a.options.gradebook, *roster, a.options.lms_assignment_name, a.options.lms_assignment_id);
      !lms) {
    std::cerr << shown(lms.error()) << "\ncugrade batch: --gradebook " << a.gradebook
              << " cannot be written from this roster and these options; nothing was graded\n";
    return exit_usage;
  }
  a.options.roster = std::move(*roster);
  a.options.grading.assignment = a.assignment;
  if (!a.deadline.empty()) {
    if (auto when = fetch::parse_deadline(a.deadline); !when) {
      std::cerr << "cugrade batch: --deadline: " << shown(when.error()) << "\n";
      return exit_usage;
    }
    a.options.grading.deadline = a.deadline;
  }
  if (sub.count("--kernel-timeout") > 0) {
    a.options.grading.kernel_timeout_seconds = a.kernel_timeout;
  }
  a.options.rerun_command = rerun_command(a, sub);
  a.options.live_progress = ::isatty(STDERR_FILENO) != 0;
  // Fail closed before anyone is graded: otherwise every student would come out not gradable.
  // A Slurm submission checks on the nodes, which grade (the login node need not have bwrap).
  if (!a.slurm) {
    if (auto confined = sandbox::require_working_sandbox(); !confined) {
      std::cerr << "cugrade batch: " << confined.error() << "\nnothing was graded\n";
      return exit_infrastructure;
    }
  }
  const auto layout = grader::discover_layout();
  if (!layout) {
    std::cerr << "cugrade: " << layout.error() << "\n";
    return exit_infrastructure;
  }
  const auto r = batch::run_batch(a.options, *layout);
  if (!r.error.empty()) {
    std::cerr << "cugrade batch: " << shown(r.error) << "\n";
  }
  return r.exit_code;
}

void add_slurm_options(CLI::App& sub, batch_args& a) {
  sub.add_flag("--slurm", a.slurm,
               "Grade as a Slurm job array (one task per shard of students; --jobs is each "
               "task's CPUs, default 4) and collect the reports here; the same command resubmits "
               "students whose task ended without their report (docs/batch.md)");
  sub.add_option("--partition", a.cluster.partition, "Slurm partition (default: the cluster's)");
  sub.add_option("--account", a.cluster.account, "Slurm account to charge");
  sub.add_option("--gpus-per-task", a.cluster.gpus_per_task,
                 "GPUs per array task (--gres=gpu:N; GPU backend only)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_option("--max-parallel", a.cluster.max_parallel,
                 "Array tasks running at once (sbatch --array=...%K); default: no limit")
      ->check(CLI::PositiveNumber);
  sub.add_option("--shard-size", a.cluster.shard_size, "Students per array task")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_option("--time-limit", a.time_limit_minutes,
                 "Minutes per array task (default: from the spec's compile and kernel limits and "
                 "the shard size)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--shared-cache", a.cluster.shared_cache,
                 "Cache folder every task shares (reference builds and timings); default "
                 "DIR/slurm/cache");
  sub.add_option("--poll-seconds", a.cluster.poll_seconds,
                 "How often to look at sacct and the reports that arrived")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_option("--deliver-to", a.deliver_to,
                 "(Used by the Slurm job script) also hand each report to this folder, one file "
                 "per student, by atomic rename");
}

void add_options(CLI::App& sub, batch_args& a) {
  sub.add_option("assignment", a.assignment,
                 "An assignment name under assignments/ or a path to an assignment.json")
      ->required();
  sub.add_option("roster", a.roster_file,
                 "CSV with a header: student,repository[,commit][,deadline][,nickname] and, for "
                 "--gradebook, [,lms_id][,sis_user_id][,sis_login_id][,section][,name]"
                 "[,first_name][,last_name]; or a GitHub Classroom roster export with "
                 "--repository-template")
      ->required();
  sub.add_option("--out", a.options.out_dir,
                 "Folder for reports/, gradebook.csv (and gradebook-<lms>.csv), summary.json and "
                 "the journal; the same command again resumes there")
      ->required();
  sub.add_option("--repository-template", a.repository_template,
                 "Repository of each row, with {column} replaced by that column, e.g. "
                 "'https://github.com/org/matmul-{github_username}'");
  sub.add_option("--backend", a.options.grading.backend,
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
  sub.add_option("--gradebook", a.gradebook,
                 "Also write DIR/gradebook-<lms>.csv in the layout that LMS imports: canvas, "
                 "moodle or blackboard (students matched by the roster's lms_id column, for "
                 "Canvas also sis_user_id or sis_login_id; docs/batch.md); generic: only "
                 "gradebook.csv")
      ->check(CLI::IsMember({"generic", "canvas", "moodle", "blackboard"}))
      ->capture_default_str();
  sub.add_option("--lms-assignment", a.options.lms_assignment_name,
                 "The assignment's name in the LMS gradebook (default: the spec's name)");
  sub.add_option("--lms-assignment-id", a.options.lms_assignment_id,
                 "The assignment's id in the LMS: Canvas's assignment ID (.../assignments/<ID>) "
                 "or Blackboard's Column ID; needed by --gradebook canvas and blackboard");
  sub.add_option("--regrade", a.options.regrade,
                 "Grade again: all, failed (not full marks), not-gradable, new-commits (the "
                 "repository offers a newer commit before the deadline) or student ids; "
                 "repeatable")
      ->expected(1, -1);
  sub.add_option("--kernel-timeout", a.kernel_timeout,
                 "Seconds each kernel's runner may take (default: the spec's limit)");
  sub.add_option("--kernel", a.options.grading.kernels, "Grade only this launcher (repeatable)");
  sub.add_option("--gpus", a.options.gpus,
                 "GPUs to use (CUDA_VISIBLE_DEVICES values, repeatable; default: every visible "
                 "GPU)")
      ->delimiter(',');
  add_hidden_option(sub, a.options.grading.spec_loading);
  add_no_sandbox_flag(sub);
  sub.add_option("--per-gpu", a.options.per_gpu, "Gradings running at once on one GPU")
      ->capture_default_str();
  add_slurm_options(sub, a);
}

} // namespace

command batch_command() {
  return {"batch",
          "Grade a whole class from a roster on this machine and all its GPUs, or as a Slurm "
          "job array (--slurm): resumable, with a gradebook",
          [](CLI::App& sub) -> std::function<int()> {
            auto a = std::make_shared<batch_args>();
            add_options(sub, *a);
            return [a, &sub] { return run_batch_command(*a, sub); };
          }};
}

} // namespace cugrade::cli
