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

std::vector<std::string> not_graded_row(const gradebook_row& row, std::size_t kernels,
                                        double max_score) {
  std::vector<std::string> out{row.entry->student, "", number(max_score)};
  out.resize(3 + kernels, "");
  if (row.report) { // not gradable: the report still says which commit, and how late
    const auto& r = *row.report;
    out.insert(out.end(), {std::to_string(r.submission.late_days), number(r.late_penalty)});
  } else {
    out.insert(out.end(), {"", ""});
  }
  out.insert(out.end(), {"false", row.report ? row.report->submission.commit.value_or("") : "",
                         row.report_path, row.reason});
  return out;
}

std::vector<std::string> report_row(const gradebook_row& row,
                                    const std::vector<std::string>& kernels) {
  const auto& r = *row.report;
  std::vector<std::string> out{row.entry->student, number(*r.score), number(r.max_score)};
  for (const auto& name : kernels) {
    const auto k = std::find_if(r.kernels.begin(), r.kernels.end(),
                                [&](const auto& kr) { return kr.name == name; });
    out.push_back(k == r.kernels.end() ? "" : number(k->score));
  }
  out.insert(out.end(), {std::to_string(r.submission.late_days), number(r.late_penalty), "true",
                         r.submission.commit.value_or(""), row.report_path, ""});
  return out;
}

} // namespace

std::optional<double> gradebook_row::score() const {
  return reason.empty() && report ? report->score : std::nullopt;
}

std::vector<gradebook_row> gradebook_rows(const roster& r,
                                          const std::map<std::string, journal_entry>& entries) {
  std::vector<gradebook_row> rows;
  for (const auto& student : r.entries) {
    gradebook_row row{&student, std::nullopt, "", ""};
    const auto it = entries.find(student.student);
    if (it == entries.end() || it->second.state != student_state::written) {
      row.reason = "not graded yet; run the batch again";
    } else if (auto report = journaled_report(it->second.report_json); !report) {
      row.reason = report.error();
    } else {
      row.report_path = it->second.report_path;
      row.report = std::move(*report);
      if (!row.report->gradable || !row.report->score) {
        row.reason = row.report->infrastructure_error.empty() ? "not gradable"
                                                              : row.report->infrastructure_error;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string render_gradebook(const std::vector<gradebook_row>& rows,
                             const std::vector<std::string>& kernels, double max_score) {
  std::string out = spreadsheet_csv_line(header(kernels));
  for (const auto& row : rows) {
    out += spreadsheet_csv_line(row.score() ? report_row(row, kernels)
                                            : not_graded_row(row, kernels.size(), max_score));
  }
  return out;
}

} // namespace cugrade::batch
