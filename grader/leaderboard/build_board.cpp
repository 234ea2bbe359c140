#include "grader/leaderboard/build_board.h"

#include "grader/leaderboard/bands.h"

#include <algorithm>
#include <map>
#include <set>

namespace cugrade::leaderboard {

namespace {

using reports::kernel_standing;
using reports::standing;

// The assignment most reports were graded against (name and spec digest).
std::pair<std::string, std::string> batch_assignment(const std::vector<student_report>& all) {
  std::map<std::pair<std::string, std::string>, int> votes;
  for (const auto& s : all) {
    if (s.report && s.report->gradable) { // a report that never loaded the spec has no digest
      ++votes[{s.report->assignment_name, s.report->spec_sha256}];
    }
  }
  const auto best = std::max_element(
      votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return best == votes.end() ? std::pair<std::string, std::string>{} : best->first;
}

std::vector<std::string> board_kernels(const std::vector<student_report>& all) {
  std::vector<std::string> out;
  for (const auto& s : all) {
    if (!s.report) {
      continue;
    }
    for (const auto& k : reports::timed_kernels(*s.report)) {
      if (std::find(out.begin(), out.end(), k) == out.end()) {
        out.push_back(k);
      }
    }
  }
  return out;
}

// Why no kernel of this student can be ranked, before looking at kernels (empty if none).
std::string student_reason(const student_report& s,
                           const std::pair<std::string, std::string>& assignment) {
  if (!s.report) {
    return "report unreadable (the instructor can see which file in the batch folder)";
  }
  if (auto why = reports::report_reason(*s.report); !why.empty()) {
    return why;
  }
  if (std::pair{s.report->assignment_name, s.report->spec_sha256} != assignment) {
    return "graded against another assignment or version of its spec";
  }
  return {};
}

struct student_standings {
  std::string student;
  std::vector<kernel_standing> kernels;
  standing overall;
  std::string device;
};

student_standings standings_of(const student_report& s, const std::vector<std::string>& kernels,
                               const std::pair<std::string, std::string>& assignment) {
  student_standings out{s.student, {}, {}, s.report ? s.report->environment.device : ""};
  const std::string why = student_reason(s, assignment);
  for (const auto& k : kernels) {
    out.kernels.push_back(why.empty() ? reports::standing_of(*s.report, k)
                                      : kernel_standing{k, {std::nullopt, 0, 0, why}, {}, {}});
  }
  out.overall =
      why.empty() ? reports::overall_standing(out.kernels) : standing{std::nullopt, 0, 0, why};
  return out;
}

void add_entry(board& b, entry e) {
  (e.where.ranked() ? b.ranked : b.unranked).push_back(std::move(e));
}

void finish(board& b) {
  assign_bands(b.ranked);
  std::sort(b.unranked.begin(), b.unranked.end(),
            [](const entry& x, const entry& y) { return x.name < y.name; });
}

std::vector<std::string> ranked_devices(const std::vector<board>& boards) {
  std::set<std::string> seen;
  std::vector<std::string> out;
  for (const auto& b : boards) {
    for (const auto& e : b.ranked) {
      if (!e.device.empty() && seen.insert(e.device).second) {
        out.push_back(e.device);
      }
    }
  }
  return out;
}

} // namespace

leaderboard build_leaderboard(const board_input& in) {
  const auto assignment = batch_assignment(in.reports);
  const auto kernels = board_kernels(in.reports);
  leaderboard out;
  out.assignment = assignment.first;
  out.spec_sha256 = assignment.second;
  out.title = in.title.empty() ? assignment.first + " leaderboard" : in.title;
  out.created_at = in.created_at;
  for (const auto& k : kernels) {
    out.boards.push_back({k, false, {}, {}, {}});
  }
  out.boards.push_back({std::string(reports::overall_board), true, kernels, {}, {}});
  for (const auto& s : in.reports) {
    const auto st = standings_of(s, kernels, assignment);
    const auto& name = in.names.by_student.at(s.student).name;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      add_entry(out.boards[i], {name,
                                {},
                                {},
                                st.kernels[i].where,
                                st.kernels[i].cases,
                                st.device,
                                st.kernels[i].insights});
    }
    add_entry(out.boards.back(), {name, {}, {}, st.overall, {}, st.device, {}});
  }
  for (const auto& student : in.not_reported) {
    const standing none{std::nullopt, 0, 0, "no report: not graded by this batch"};
    for (auto& b : out.boards) {
      add_entry(b, {in.names.by_student.at(student).name, {}, {}, none, {}, {}, {}});
    }
  }
  for (auto& b : out.boards) {
    finish(b);
  }
  out.devices = ranked_devices(out.boards);
  return out;
}

} // namespace cugrade::leaderboard
