#include "grader/batch/slurm/collector.h"

#include "grader/batch/slurm/delivery.h"
#include "grader/batch/stop_signals.h"

#include <fmt/format.h>
#include <iostream>

namespace cugrade::batch {

namespace {

namespace fs = std::filesystem;

constexpr int sacct_failures_allowed = 5;

// One student's delivery, when it belongs to this job and to the roster row being graded.
bool take(pipeline& p, const submission& s, const fs::path& results, const std::string& student) {
  const auto file = delivery_path(results, student);
  if (!fs::exists(file)) {
    return false;
  }
  const auto d = read_delivery(file);
  const auto entry = p.log.find(student);
  if (!d || d->job != s.job || d->student != student || !entry) {
    return false;
  }
  if (entry->state >= student_state::graded) {
    return true; // journaled already (by an earlier run of this command)
  }
  if (entry->inputs != d->inputs) {
    return false;
  }
  p.log.mark_stage(student, student_state::fetched, d->fetch_seconds);
  p.log.mark_stage(student, student_state::built, d->build_seconds);
  p.log.mark_graded(student, d->commit, d->report_json, d->run_seconds);
  add_grading_times(p, d->fetch_seconds, d->build_seconds, d->run_seconds);
  deliver(p, student, d->report_json);
  return true;
}

void collect(pipeline& p, const submission& s, const fs::path& results,
             std::set<std::string>& taken) {
  for (const auto& task : s.tasks) {
    for (const auto& student : task) {
      if (!taken.contains(student) && take(p, s, results, student)) {
        taken.insert(student);
      }
    }
  }
}

std::string states_line(const submission& s, const array_state& a) {
  std::string line = "slurm: job " + s.job + ":";
  for (std::size_t i = 0; i < s.tasks.size(); ++i) {
    const auto it = a.tasks.find(i);
    line += fmt::format("{} task {} {}", i == 0 ? "" : ",", i,
                        it == a.tasks.end() ? "PENDING" : it->second.state);
  }
  return line;
}

// Task by task: sacct's final word and the students left without a report.
std::vector<std::string> report_tasks(pipeline& p, const submission& s, const array_state& a,
                                      const std::set<std::string>& taken) {
  std::vector<std::string> missing;
  p.shown.close();
  for (std::size_t i = 0; i < s.tasks.size(); ++i) {
    std::vector<std::string> lost;
    for (const auto& student : s.tasks[i]) {
      if (!taken.contains(student)) {
        lost.push_back(student);
      }
    }
    std::cerr << "slurm: job " << s.job << " " << describe(i, a.tasks.at(i)) << ": "
              << s.tasks[i].size() - lost.size() << "/" << s.tasks[i].size() << " reports";
    if (!lost.empty()) {
      std::cerr << "; without a report: " << fmt::format("{}", fmt::join(lost, " "));
    }
    std::cerr << "\n";
    missing.insert(missing.end(), lost.begin(), lost.end());
  }
  return missing;
}

} // namespace

result<collected_job> wait_and_collect(pipeline& p, const submission& s, const fs::path& results) {
  std::set<std::string> taken;
  std::string last_line;
  int sacct_failures = 0;
  collected_job out;
  for (;;) {
    collect(p, s, results, taken);
    auto states = query_sacct(s.job);
    if (!states) {
      if (++sacct_failures > sacct_failures_allowed) {
        return fail(states.error());
      }
    } else {
      sacct_failures = 0;
      if (const auto line = states_line(s, *states); line != last_line) {
        p.shown.close();
        std::cerr << line << "\n";
        last_line = line;
      }
      if (all_final(*states, s.tasks.size())) {
        collect(p, s, results, taken); // what arrived after the last look
        out.final_states = *states;
        break;
      }
    }
    if (stop_requested_within(p.options.slurm->poll_seconds)) {
      out.stopped = true;
      return out;
    }
    p.shown.tick();
  }
  out.missing = report_tasks(p, s, out.final_states, taken);
  return out;
}

} // namespace cugrade::batch
