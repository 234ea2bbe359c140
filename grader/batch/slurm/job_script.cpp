#include "grader/batch/slurm/job_script.h"

#include "grader/batch/csv_table.h"

#include <cmath>
#include <fmt/format.h>

namespace cugrade::batch {

namespace {

// Single quotes for the shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

std::string sbatch_lines(const job_script_inputs& in) {
  const auto& s = *in.options->slurm;
  std::string out = "#SBATCH --job-name=" + in.job_name + "\n";
  out += fmt::format("#SBATCH --array=0-{}{}\n", in.tasks - 1,
                     s.max_parallel > 0 ? "%" + std::to_string(s.max_parallel) : "");
  out += fmt::format("#SBATCH --time={}\n", in.minutes);
  out += fmt::format("#SBATCH --cpus-per-task={}\n", in.jobs);
  out += "#SBATCH --ntasks=1\n";
  out += "#SBATCH --no-requeue\n";
  out += "#SBATCH --output=" + (in.logs_dir / "%A_%a.out").string() + "\n";
  if (in.gpu) {
    out += fmt::format("#SBATCH --gres=gpu:{}\n", s.gpus_per_task);
  }
  if (!s.partition.empty()) {
    out += "#SBATCH --partition=" + s.partition + "\n";
  }
  if (!s.account.empty()) {
    out += "#SBATCH --account=" + s.account + "\n";
  }
  return out;
}

// The task's `cugrade batch` command line.
std::string task_command(const job_script_inputs& in) {
  const auto& o = *in.options;
  const auto& g = o.grading;
  std::string cmd = quoted(in.cugrade.string()) + " batch " + quoted(in.assignment) + " " +
                    quoted((in.submission_dir).string()) +
                    "/shard-\"$SLURM_ARRAY_TASK_ID\".csv --out \"$work\"";
  cmd += " --backend " + std::string(in.gpu ? "gpu" : "emu");
  cmd += " --jobs " + std::to_string(in.jobs);
  cmd += " --per-gpu " + std::to_string(o.per_gpu);
  cmd += " --deliver-to " + quoted(in.results_dir.string());
  if (g.kernel_timeout_seconds) {
    cmd += fmt::format(" --kernel-timeout {}", *g.kernel_timeout_seconds);
  }
  if (o.unconfined) {
    cmd += " --no-sandbox";
  }
  for (const auto& k : g.kernels) {
    cmd += " --kernel " + quoted(k);
  }
  // An instructor's hidden file named on the command line (hidden.json beside the spec the task
  // finds by itself).
  if (g.spec_loading.hidden == spec::hidden_tests::from_file) {
    cmd += " --hidden " + quoted(std::filesystem::absolute(g.spec_loading.hidden_file).string());
  }
  return cmd;
}

} // namespace

std::vector<shard> make_shards(const std::vector<const roster_entry*>& students,
                               std::size_t shard_size) {
  std::vector<shard> out;
  const std::size_t size = std::max<std::size_t>(1, shard_size);
  for (std::size_t i = 0; i < students.size(); i += size) {
    const auto end = std::min(students.size(), i + size);
    out.emplace_back(students.begin() + static_cast<long>(i),
                     students.begin() + static_cast<long>(end));
  }
  return out;
}

std::string shard_roster_csv(const shard& s, const std::optional<std::string>& default_deadline) {
  std::string out = csv_line({"student", "repository", "commit", "deadline", "nickname"});
  for (const auto* e : s) {
    const auto deadline = e->deadline ? e->deadline : default_deadline;
    out += csv_line(
        {e->student, e->repository, e->commit.value_or(""), deadline.value_or(""), e->nickname});
  }
  return out;
}

int task_minutes(const spec::limits& lim, std::size_t kernels, double kernel_seconds,
                 std::size_t shard_size, std::size_t jobs, bool gpu) {
  constexpr double fetch_seconds = 60;
  const double runs_per_kernel = gpu ? 3 : 1;
  const double per_student = fetch_seconds + lim.compile_seconds +
                             static_cast<double>(kernels) * runs_per_kernel * kernel_seconds;
  const auto at_once = std::max<std::size_t>(1, jobs);
  const auto rounds = (std::max<std::size_t>(1, shard_size) + at_once - 1) / at_once;
  return static_cast<int>(std::ceil(static_cast<double>(rounds) * per_student * 1.25 / 60)) + 5;
}

std::string job_script(const job_script_inputs& in) {
  std::string out = "#!/bin/bash\n";
  out += "# Written by cugrade batch --slurm: one array task per shard of students\n";
  out += "# (" + in.submission_dir.string() + "/shard-<task>.csv). Each task grades its shard\n";
  out += "# with the same code as a local batch, in a folder on the node, and hands every report\n";
  out += "# to the shared results folder by atomic rename; only the submitting process journals.\n";
  out += sbatch_lines(in);
  out += "set -euo pipefail\n";
  out += "unset CUGRADE_BATCH_KILL_AFTER  # a test seam of the submitter, never of a task\n";
  out +=
      "# Reference builds, reference timings (keyed by GPU) and rooflines, shared by the tasks.\n";
  out += "export XDG_CACHE_HOME=" + quoted(in.shared_cache.string()) + "\n";
  out += "work=\"${TMPDIR:-/tmp}/cugrade-task-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}\"\n";
  out += "rm -rf \"$work\"\n";
  out += "trap 'rm -rf \"$work\"' EXIT\n";
  out += "echo \"cugrade task ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID} on $(hostname) "
         "(CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-none})\"\n";
  out += task_command(in) + "\n";
  return out;
}

} // namespace cugrade::batch
