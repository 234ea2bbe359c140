#include "grader/batch/slurm/submission.h"

#include "grader/batch/slurm/delivery.h"
#include "grader/batch/slurm/slurm_commands.h"
#include "harness/core/file_io.h"

#include <sys/stat.h>

namespace cugrade::batch {

namespace fs = std::filesystem;

namespace {

constexpr const char* job_key = "slurm_job";
constexpr const char* submission_key = "slurm_submission";
constexpr const char* count_key = "slurm_submissions";

fs::path this_program() {
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("cugrade") : exe;
}

std::size_t next_number(journal& j) {
  const auto n = j.setting(count_key);
  const std::size_t next = (n ? std::stoul(*n) : 0) + 1;
  j.set_setting(count_key, std::to_string(next));
  return next;
}

result<void> write_shards(const fs::path& dir, const std::vector<shard>& shards,
                          const batch_options& o) {
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const auto file = dir / ("shard-" + std::to_string(i) + ".csv");
    if (auto w = write_file_atomically(file, shard_roster_csv(shards[i], o.grading.deadline)); !w) {
      return w;
    }
  }
  return {};
}

// Deliveries left by earlier submissions for students graded again now.
void remove_stale_deliveries(const fs::path& results,
                             const std::vector<const roster_entry*>& students) {
  for (const auto* e : students) {
    std::error_code ec;
    fs::remove(delivery_path(results, e->student), ec);
  }
}

} // namespace

slurm_folders folders_of(const batch_options& o) {
  const auto root = fs::absolute(o.out_dir) / "slurm";
  const auto& shared = o.slurm->shared_cache;
  return {root, root / "results", root / "logs",
          shared.empty() ? root / "cache" : fs::absolute(shared)};
}

result<submission> submit(journal& j, const batch_options& o,
                          const std::vector<const roster_entry*>& students,
                          const submission_plan& plan) {
  const auto where = folders_of(o);
  std::error_code ec;
  for (const auto& d : {where.results, where.logs, where.cache}) {
    fs::create_directories(d, ec);
    if (ec) {
      return fail("cannot create " + d.string() + ": " + ec.message());
    }
  }
  remove_stale_deliveries(where.results, students);
  submission s;
  s.dir = where.root / ("submission-" + std::to_string(next_number(j)));
  const auto shards = make_shards(students, o.slurm->shard_size);
  if (auto w = write_shards(s.dir, shards, o); !w) {
    return fail(w.error());
  }
  job_script_inputs in{this_program(), plan.assignment, s.dir,      where.results,
                       where.logs,     where.cache,     plan.job_name, shards.size(),
                       plan.minutes,   plan.gpu,        plan.jobs,    &o};
  const auto script = s.dir / "job.sh";
  if (auto w = write_file_atomically(script, job_script(in)); !w) {
    return fail(w.error());
  }
  ::chmod(script.c_str(), 0755);
  auto job = submit_script(script);
  if (!job) {
    return fail(job.error());
  }
  s.job = *job;
  for (const auto& sh : shards) {
    auto& names = s.tasks.emplace_back();
    for (const auto* e : sh) {
      names.push_back(e->student);
    }
  }
  j.set_setting(submission_key, s.dir.string());
  j.set_setting(job_key, s.job);
  return s;
}

result<std::optional<submission>> pending_submission(journal& j) {
  const auto job = j.setting(job_key);
  if (!job || job->empty()) {
    return std::optional<submission>{};
  }
  submission s;
  s.job = *job;
  s.dir = j.setting(submission_key).value_or("");
  for (std::size_t i = 0;; ++i) {
    const auto file = s.dir / ("shard-" + std::to_string(i) + ".csv");
    if (!fs::exists(file)) {
      break;
    }
    auto rows = load_roster(file);
    if (!rows) {
      return fail("the submission of Slurm job " + s.job + " cannot be read back: " +
                  rows.error());
    }
    auto& names = s.tasks.emplace_back();
    for (const auto& e : rows->entries) {
      names.push_back(e.student);
    }
  }
  return std::optional(std::move(s));
}

void forget_submission(journal& j) {
  j.set_setting(job_key, "");
}

} // namespace cugrade::batch
