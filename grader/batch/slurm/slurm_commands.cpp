#include "grader/batch/slurm/slurm_commands.h"

#include "grader/process/process.h"

#include <algorithm>
#include <array>
#include <sstream>

namespace cugrade::batch {

namespace {

constexpr std::array<std::string_view, 10> final_states{
    "COMPLETED", "FAILED",    "CANCELLED",     "TIMEOUT",   "NODE_FAIL",
    "PREEMPTED", "BOOT_FAIL", "OUT_OF_MEMORY", "DEADLINE",  "REVOKED"};

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, '|');) {
    out.push_back(f);
  }
  return out;
}

result<process::process_result> run_slurm_command(std::vector<std::string> argv) {
  process::spawn_options o;
  o.argv = std::move(argv);
  o.time_limit_seconds = 120;
  auto r = process::run_process(o);
  if (!r) {
    return fail("cannot run " + o.argv.front() + ": " + r.error() +
                " (is this a Slurm login node? Slurm's client commands must be on PATH)");
  }
  if (r->exit_code != 0) {
    auto words = r->stderr_text.empty() ? r->stdout_text : r->stderr_text;
    while (!words.empty() && words.back() == '\n') {
      words.pop_back();
    }
    return fail(o.argv.front() + " failed (exit " + std::to_string(r->exit_code) + "): " + words);
  }
  return r;
}

} // namespace

array_state parse_sacct(const std::string& job, const std::string& text) {
  array_state out;
  std::istringstream in(text);
  const std::string prefix = job + "_";
  for (std::string line; std::getline(in, line);) {
    const auto f = fields_of(line);
    if (f.size() < 4 || !f[0].starts_with(prefix)) {
      continue;
    }
    const auto index = f[0].substr(prefix.size());
    if (index.starts_with("[")) {
      out.pending = true;
      continue;
    }
    task_state t;
    const auto space = f[1].find(' ');
    t.state = f[1].substr(0, space);
    t.detail = space == std::string::npos ? "" : f[1].substr(space + 1);
    t.exit_code = f[2];
    t.elapsed = f[3];
    try {
      out.tasks[std::stoul(index)] = t;
    } catch (const std::exception&) {
      continue; // not a task line
    }
  }
  return out;
}

bool is_final(const task_state& t) {
  return std::find(final_states.begin(), final_states.end(), t.state) != final_states.end();
}

bool all_final(const array_state& a, std::size_t tasks) {
  if (a.pending) {
    return false;
  }
  for (std::size_t i = 0; i < tasks; ++i) {
    const auto it = a.tasks.find(i);
    if (it == a.tasks.end() || !is_final(it->second)) {
      return false;
    }
  }
  return true;
}

std::string describe(std::size_t task, const task_state& t) {
  return "task " + std::to_string(task) + " " + t.state + (t.detail.empty() ? "" : " " + t.detail) +
         " (exit " + t.exit_code + ", " + t.elapsed + ")";
}

result<array_state> query_sacct(const std::string& job) {
  auto r = run_slurm_command(
      {"sacct", "-j", job, "-X", "-n", "-P", "-o", "JobID,State,ExitCode,Elapsed"});
  if (!r) {
    return fail(r.error());
  }
  return parse_sacct(job, r->stdout_text);
}

result<void> check_sacct() {
  if (auto r = run_slurm_command({"sacct", "-n", "-X", "-o", "JobID", "-j", "1"}); !r) {
    return fail(r.error() + "; cugrade batch --slurm reads each task's final state from sacct, "
                            "so the cluster needs job accounting (slurmdbd)");
  }
  return {};
}

result<std::string> submit_script(const std::filesystem::path& script) {
  auto r = run_slurm_command({"sbatch", "--parsable", script.string()});
  if (!r) {
    return fail(r.error());
  }
  auto id = r->stdout_text.substr(0, r->stdout_text.find_first_of(";\n"));
  if (id.empty() || !std::all_of(id.begin(), id.end(), ::isdigit)) {
    return fail("sbatch gave no job id: \"" + r->stdout_text + "\"");
  }
  return id;
}

} // namespace cugrade::batch
