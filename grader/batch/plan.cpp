#include "grader/batch/plan.h"

#include "grader/batch/gpu_suspects.h"
#include "grader/batch/report_files.h"
#include "grader/batch/summary.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cugrade::batch {

namespace {

constexpr std::array<std::string_view, 4> regrade_words{"all", "failed", "not-gradable",
                                                        "new-commits"};

bool wants(const batch_options& o, std::string_view word) {
  return std::find(o.regrade.begin(), o.regrade.end(), word) != o.regrade.end();
}

// Written students whose report matches `pick`.
template <class Pick> void add_written_if(journal& j, std::set<std::string>& out, Pick pick) {
  for (const auto& e : j.all()) {
    if (e.state != student_state::written) {
      continue;
    }
    if (const auto r = journaled_report(e.report_json); !r || pick(*r)) {
      out.insert(e.student);
    }
  }
}

// Students in flight when the GPU last stopped working go after everyone else, in roster order.
void grade_suspects_last(journal& j, batch_plan& plan) {
  const auto suspects = gpu_suspects(j);
  if (suspects.empty()) {
    return;
  }
  const auto last =
      std::stable_partition(plan.to_grade.begin(), plan.to_grade.end(),
                            [&](const roster_entry* e) { return !suspects.contains(e->student); });
  for (auto it = last; it != plan.to_grade.end(); ++it) {
    const int times = suspects.at((*it)->student);
    plan.notices.push_back(fmt::format(
        "{} was being graded when the GPU stopped working ({} time{}): graded after everyone "
        "else, so that a submission that breaks the GPU cannot hold up the class",
        (*it)->student, times, times == 1 ? "" : "s"));
  }
}

} // namespace

std::string grading_inputs(const roster_entry& e, const batch_options& o) {
  const auto deadline = e.deadline ? e.deadline : o.grading.deadline;
  // The roster's bytes need not be UTF-8 (a Latin-1 path): replaced, never a throw.
  return nlohmann::json{{"repository", e.repository},
                        {"commit", e.commit.value_or("")},
                        {"deadline", deadline.value_or("")}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

result<void> check_regrade_words(const batch_options& o) {
  for (const auto& word : o.regrade) {
    const bool keyword =
        std::find(regrade_words.begin(), regrade_words.end(), word) != regrade_words.end();
    const bool student = std::any_of(o.roster.entries.begin(), o.roster.entries.end(),
                                     [&](const auto& e) { return e.student == word; });
    if (!keyword && !student) {
      return fail("--regrade " + word +
                  ": neither all, failed, not-gradable, new-commits nor a student of " +
                  o.roster.file.string() + "; check the spelling");
    }
  }
  return {};
}

std::set<std::string> regrade_selection(const batch_options& o, journal& j,
                                        const std::set<std::string>& with_new_commits) {
  std::set<std::string> out(with_new_commits);
  for (const auto& word : o.regrade) {
    if (std::find(regrade_words.begin(), regrade_words.end(), word) == regrade_words.end()) {
      out.insert(word);
    }
  }
  if (wants(o, "all")) {
    for (const auto& e : o.roster.entries) {
      out.insert(e.student);
    }
  }
  if (wants(o, "failed")) {
    add_written_if(j, out, [](const auto& r) { return outcome_of(r) != outcome::full_marks; });
  }
  if (wants(o, "not-gradable")) {
    add_written_if(j, out, [](const auto& r) { return !r.gradable; });
  }
  return out;
}

batch_plan plan_batch(const batch_options& o, journal& j, const std::set<std::string>& forced) {
  batch_plan plan;
  for (const auto& e : o.roster.entries) {
    const auto inputs = grading_inputs(e, o);
    const auto rec = j.find(e.student);
    const bool fresh = !rec || rec->inputs != inputs || forced.contains(e.student);
    if (fresh || rec->state < student_state::graded) {
      j.enqueue(e.student, inputs);
      plan.to_grade.push_back(&e);
      continue;
    }
    const auto files = rec->state == student_state::graded
                           ? report_files_state{}
                           : check_report_files(o.out_dir, *rec, o.formats);
    for (const auto& path : files.changed) {
      plan.notices.push_back(path + " no longer holds what was written for " + e.student +
                             " (another student's report, or an edit); rewriting it from the "
                             "journal");
    }
    if (rec->state == student_state::graded || !files.intact()) {
      plan.to_deliver.push_back(e.student);
    } else {
      ++plan.done;
    }
  }
  grade_suspects_last(j, plan);
  return plan;
}

} // namespace cugrade::batch
