#include "grader/batch/gradebook.h"

#include "grader/batch/csv_table.h"
#include "grader/batch/report_files.h"

#include <algorithm>
#include <fmt/format.h>

namespace cugrade::batch {

namespace {

std::vector<std::string> header(const std::vector<std::string>& kernels) {
  std::vector<std::string> h{"student", "score", "max_score"};
  for (const auto& k : kernels) {
    h.push_back(k + "_score");
  }
  h.insert(h.end(), {"late_days", "late_penalty", "gradable", "commit", "report", "reason"});
  return h;
}

std::string number(double v) {
  return fmt::format("{}", v);
}

std::vector<std::string> not_graded_row(const std::string& student, std::size_t kernels,
                                        const std::string& reason) {
  std::vector<std::string> row{student, "", ""};
  row.resize(3 + kernels, "");
  row.insert(row.end(), {"", "", "false", "", "", reason});
  return row;
}

std::vector<std::string> report_row(const std::string& student,
                                    const std::vector<std::string>& kernels, const journal_entry& e,
                                    const reports::report& r) {
  std::vector<std::string> row{student, r.score ? number(*r.score) : "", number(r.max_score)};
  for (const auto& name : kernels) {
    const auto k = std::find_if(r.kernels.begin(), r.kernels.end(),
                                [&](const auto& kr) { return kr.name == name; });
    row.push_back(k == r.kernels.end() || !r.gradable ? "" : number(k->score));
  }
  row.insert(row.end(), {std::to_string(r.submission.late_days), number(r.late_penalty),
                         r.gradable ? "true" : "false", r.submission.commit.value_or(""),
                         e.report_path, r.gradable ? "" : r.infrastructure_error});
  return row;
}

} // namespace

std::string render_gradebook(const roster& r, const std::vector<std::string>& kernels,
                             const std::map<std::string, journal_entry>& entries) {
  std::string out = spreadsheet_csv_line(header(kernels));
  for (const auto& student : r.entries) {
    const auto it = entries.find(student.student);
    if (it == entries.end() || it->second.state != student_state::written) {
      out += spreadsheet_csv_line(
          not_graded_row(student.student, kernels.size(), "not graded yet; run the batch again"));
      continue;
    }
    const auto report = journaled_report(it->second.report_json);
    out += spreadsheet_csv_line(
        report ? report_row(student.student, kernels, it->second, *report)
               : not_graded_row(student.student, kernels.size(), report.error()));
  }
  return out;
}

} // namespace cugrade::batch
