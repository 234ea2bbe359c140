#include "grader/batch/roster.h"
#include "harness/core/iso8601.h"

#include "grader/batch/csv_table.h"
#include "grader/fetch/fetch.h"
#include "harness/core/untrusted_text.h"
#include "harness/core/words.h"
#include "reports/writers.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace cugrade::batch {

namespace {

// Column positions found in the header, by name.
using columns = std::map<std::string, std::size_t>;

struct validation {
  const std::filesystem::path& file;
  std::vector<std::string> problems;

  void add(std::size_t line, std::size_t column, const std::string& name, const std::string& what) {
    problems.push_back(roster_problem(file, line, column, name, what));
  }
};

columns header_columns(csv_row header) {
  if (!header.fields.empty() && header.fields[0].starts_with("\xEF\xBB\xBF")) {
    header.fields[0].erase(0, 3); // a byte order mark from spreadsheet exports
  }
  columns out;
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    out.emplace(header.fields[i], i);
  }
  return out;
}

std::string field(const csv_row& row, const columns& cols, const std::string& name) {
  const auto it = cols.find(name);
  return it == cols.end() || it->second >= row.fields.size() ? std::string()
                                                             : row.fields[it->second];
}

// The column naming the student: `student`, else a GitHub Classroom export's `identifier`, else
// its `github_username`.
std::string student_column(const columns& cols) {
  for (const char* name : {"student", "identifier", "github_username"}) {
    if (cols.contains(name)) {
      return name;
    }
  }
  return "student";
}

// Replaces every {column} of the template by the row's value; an unknown name stays visible.
std::string expand_template(const std::string& tmpl, const csv_row& row, const columns& cols,
                            std::string* missing) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size();) {
    const auto open = tmpl.find('{', i);
    const auto close = open == std::string::npos ? open : tmpl.find('}', open);
    if (close == std::string::npos) {
      out += tmpl.substr(i);
      break;
    }
    out += tmpl.substr(i, open - i);
    const auto name = tmpl.substr(open + 1, close - open - 1);
    const auto value = field(row, cols, name);
    if (value.empty() && missing->empty()) {
      *missing = name;
    }
    out += value;
    i = close + 1;
  }
  return out;
}

result<void> check_header(const std::filesystem::path& file, const columns& cols,
                          const roster_options& options) {
  std::vector<std::string> needed{student_column(cols)};
  if (options.repository_template.empty()) {
    needed.push_back("repository");
  }
  for (const auto& name : needed) {
    if (!cols.contains(name)) {
      std::string have;
      for (const auto& [n, i] : cols) {
        have += (have.empty() ? "" : ", ") + n;
      }
      return fail(file.string() + ":1: the header has no \"" + name + "\" column (it has: " + have +
                  "); add it" +
                  (name == "repository"
                       ? ", or give --repository-template for a GitHub Classroom roster export"
                       : ""));
    }
  }
  return {};
}

void check_entry(validation& v, const roster_entry& e, const columns& cols,
                 const std::string& student_col, const std::string& template_gap) {
  const auto column_of = [&](const std::string& name) {
    const auto it = cols.find(name);
    return it == cols.end() ? std::size_t{0} : it->second;
  };
  if (e.student.empty()) {
    v.add(e.line, column_of(student_col), student_col,
          "empty student id; give every row an id or delete the row");
  } else if (!is_valid_student_id(e.student)) {
    v.add(e.line, column_of(student_col), student_col,
          "\"" + e.student +
              "\" cannot name a report file; use letters, digits and . _ - @ + only");
  } else if (const auto problem = reports::report_id_problem(e.student); !problem.empty()) {
    v.add(e.line, column_of(student_col), student_col, problem);
  }
  if (!template_gap.empty()) {
    v.add(e.line, column_of(template_gap), template_gap,
          "empty, so --repository-template has nothing to fill in; link the student's account "
          "or delete the row");
  } else if (e.repository.empty()) {
    v.add(e.line, column_of("repository"), "repository",
          "empty repository; give a directory, a local git repository or a git URL");
  }
  if (e.deadline && !cugrade::parse_iso8601(*e.deadline)) {
    v.add(e.line, column_of("deadline"), "deadline",
          "\"" + *e.deadline +
              "\" is not an ISO-8601 time; write e.g. 2026-12-15T23:59:00Z, "
              "2026-12-15T23:59:00+01:00 or 2026-12-15 (end of that day, UTC)");
  }
}

// Ids are file names, and a case-insensitive disk (macOS, Windows, a mounted share) makes
// "alice.json" and "Alice.json" one file: ids are compared ignoring case.
std::string folded_id(std::string id) {
  return ascii_lowercase(std::move(id));
}

// The first row of each id, by its folded form.
struct first_row {
  std::string student;
  std::size_t line = 0;
};

// One row per student: a second row of an id, or of the same id in other case, is refused.
void check_unique(validation& v, const roster_entry& e, std::size_t column,
                  const std::string& student_col, std::map<std::string, first_row>& first_of) {
  const auto [it, inserted] = first_of.emplace(folded_id(e.student), first_row{e.student, e.line});
  if (inserted) {
    return;
  }
  const first_row& first = it->second;
  if (first.student == e.student) {
    v.add(e.line, column, student_col,
          "student \"" + e.student + "\" is already on line " + std::to_string(first.line) +
              "; keep one row per student (a per-student deadline goes in the deadline column)");
  } else {
    v.add(e.line, column, student_col,
          "student \"" + e.student + "\" differs only by case from \"" + first.student +
              "\" on line " + std::to_string(first.line) +
              ": on a case-insensitive disk both would write one report file; give them ids "
              "that differ in more than case");
  }
}

bool is_lms_id_column(std::string_view name) {
  return std::find(lms_id_columns.begin(), lms_id_columns.end(), name) != lms_id_columns.end();
}

// The LMS columns' values (empty ones left out). An LMS matches ids exactly, so an id with a
// space at either end or a control character would match nobody: refused.
std::map<std::string, std::string> lms_fields(validation& v, const csv_row& row,
                                              const columns& cols) {
  std::map<std::string, std::string> out;
  for (const char* name : lms_columns) {
    auto value = field(row, cols, name);
    if (value.empty()) {
      continue;
    }
    const bool control = std::any_of(value.begin(), value.end(),
                                     [](unsigned char c) { return std::iscntrl(c) != 0; });
    if (is_lms_id_column(name) &&
        (control || std::isspace(static_cast<unsigned char>(value.front())) != 0 ||
         std::isspace(static_cast<unsigned char>(value.back())) != 0)) {
      v.add(row.line, cols.at(name), name,
            "\"" + escape_untrusted_text(value, line_breaks::escape) +
                "\" has a space at an end or a control character, and the LMS matches it "
                "exactly; write the id as the LMS shows it");
    }
    out.emplace(name, std::move(value));
  }
  return out;
}

// An LMS id names one student: a second row with the same value is refused.
void check_unique_lms_ids(validation& v, const roster_entry& e, const columns& cols,
                          std::map<std::string, std::size_t>& first_line_of) {
  for (const char* name : lms_id_columns) {
    const auto it = e.lms.find(name);
    if (it == e.lms.end()) {
      continue;
    }
    const auto [first, inserted] =
        first_line_of.emplace(std::string(name) + "\n" + it->second, e.line);
    if (!inserted) {
      v.add(e.line, cols.at(name), name,
            "\"" + it->second + "\" is already the " + name + " of line " +
                std::to_string(first->second) + "; each student has an id of their own in the LMS");
    }
  }
}

std::optional<std::string> optional_field(const csv_row& row, const columns& cols,
                                          const std::string& name) {
  auto value = field(row, cols, name);
  return value.empty() ? std::nullopt : std::optional<std::string>(std::move(value));
}

} // namespace

std::string roster_problem(const std::filesystem::path& file, std::size_t line, std::size_t column,
                           const std::string& name, const std::string& what) {
  return file.string() + ":" + std::to_string(line) + ": column " + std::to_string(column + 1) +
         " (" + name + "): " + what;
}

bool is_valid_student_id(const std::string& id) {
  if (id.empty() || id.front() == '.' || id.size() > 128) {
    return false;
  }
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-' || c == '@' || c == '+';
  });
}

result<roster> load_roster(const std::filesystem::path& file, const roster_options& options) {
  auto rows = read_csv(file);
  if (!rows) {
    return fail(rows.error());
  }
  if (rows->empty()) {
    return fail(file.string() +
                ": the roster is empty; write a header line (student,repository) and one row "
                "per student");
  }
  const auto cols = header_columns(rows->front());
  if (auto header = check_header(file, cols, options); !header) {
    return fail(header.error());
  }
  const auto student_col = student_column(cols);
  roster out{file, {}, cols};
  validation v{file, {}};
  std::map<std::string, first_row> first_of;
  std::map<std::string, std::size_t> first_line_of_lms_id;
  for (auto row = rows->begin() + 1; row != rows->end(); ++row) {
    roster_entry e;
    e.line = row->line;
    e.student = field(*row, cols, student_col);
    std::string template_gap;
    e.repository = options.repository_template.empty()
                       ? field(*row, cols, "repository")
                       : expand_template(options.repository_template, *row, cols, &template_gap);
    e.commit = optional_field(*row, cols, "commit");
    e.deadline = optional_field(*row, cols, "deadline");
    e.nickname = field(*row, cols, "nickname");
    e.lms = lms_fields(v, *row, cols);
    check_entry(v, e, cols, student_col, template_gap);
    check_unique_lms_ids(v, e, cols, first_line_of_lms_id);
    if (!e.student.empty()) {
      check_unique(v, e, cols.at(student_col), student_col, first_of);
    }
    out.entries.push_back(std::move(e));
  }
  if (!v.problems.empty()) {
    std::string all;
    for (const auto& p : v.problems) {
      all += (all.empty() ? "" : "\n") + p;
    }
    return fail(all);
  }
  if (out.entries.empty()) {
    return fail(file.string() + ": the roster has a header but no students; add one row each");
  }
  return out;
}

} // namespace cugrade::batch
